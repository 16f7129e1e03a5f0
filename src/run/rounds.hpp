// The probe rounds of a check (src/run/rounds.cpp).
#pragma once

#include "loopcheck/core/report.hpp"
#include "loopcheck/run/progress.hpp"

#include <cstddef>
#include <optional>

namespace loopcheck {

/// What the rounds need to know of a check's request.
struct RoundsRequest {
    int count = 1;
    Micros timeout{5'000'000};
    std::optional<int> syn_retries; ///< --syn-retries N on every probe
    bool no_pair = false;
    bool quick = false;
};

/// Runs `opt.count` rounds; each round probes every address of every
/// target at once (with its no-SYN-retry twin where paired). Reads the
/// ListenOverflows counter around them where it can matter; --quick
/// infers the default-stack samples afterwards.
void run_rounds(Report& report, const RoundsRequest& opt, const ProgressFn& progress);

/// How many connects run_rounds would make: every planned probe, times
/// opt.count.
std::size_t planned_probes(const Report& report, const RoundsRequest& opt);

/// --quick: fills each address that only has no-retry probes with the
/// default-stack samples inferred from them, and says so in the report.
void infer_default_samples(Report& report);

} // namespace loopcheck
