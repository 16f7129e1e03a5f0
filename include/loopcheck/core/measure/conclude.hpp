// One target's conclusion from its measurements: samples -> per-address
// summary -> diagnosis, and each --emulate strategy's prediction. The check
// run layer (src/run/measure.cpp) and the report tests call the same
// function, so the golden reports are what the tool would print.
#pragma once

#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/input/machine.hpp"
#include "loopcheck/core/report.hpp"

#include <optional>

namespace loopcheck {

struct ConcludeContext {
    Micros threshold{100'000};
    Micros timeout{5'000'000};
    Os os = Os::other;
    /// Nothing accepting and fast refusals are the expected outcome
    /// (--expect refused, the self-check's closed ports).
    bool expect_refused = false;
    /// The kernel's ListenOverflows before and after the probes (Linux),
    /// for the accept-queue-full finding; nullopt elsewhere.
    std::optional<ListenOverflows> listen_overflows;
    /// The target is loopcheck's own throwaway listener (the self-check's),
    /// single-stack on purpose: which clients cannot reach it is the
    /// self-check's statement, not a finding about a server.
    bool own_listener = false;
    /// The target is one of loopcheck's own throwaway sockets (the
    /// self-check's listener and closed ports): no single-stack-listener
    /// finding and no fix, which would point at loopcheck itself (issue 24:
    /// a Node.js fix for its own listener).
    bool own_socket = false;
    /// Off when the caller drops the client rows after this (the
    /// many-targets text report): the rows then carry no texts and no
    /// Windows projection (ClientContext::full_rows); findings and verdict
    /// are the same.
    bool client_rows_kept = true;
};

/// Fills every address's summary, the target's diagnosis and each
/// emulation's `predicted`; an unresolved target gets the unresolved
/// diagnosis. Pure: reads only what the target already holds.
void conclude_target(TargetReport& target, const ConcludeContext& context);

} // namespace loopcheck
