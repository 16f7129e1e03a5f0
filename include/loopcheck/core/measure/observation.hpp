// What the probes of one address add up to: the pure step between raw
// samples and the diagnosis.
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/measure/sample.hpp"
#include "loopcheck/core/measure/stats.hpp"

#include <optional>
#include <span>
#include <string>

namespace loopcheck {

struct AddressSummary {
    /// The outcome most rounds had (the first round's on a tie).
    Outcome outcome = Outcome::error;
    /// True when rounds disagreed (e.g. some accepted, some timed out).
    bool mixed = false;
    /// The native error name of the representative outcome ("ECONNREFUSED").
    std::string native_name;
    /// Latency with the system's defaults, over every round.
    Summary latency;
    /// The paired no-SYN-retry probe, when there was one and the OS took the option.
    std::optional<Outcome> fast_outcome;
    std::optional<Summary> fast_latency;
    /// The option was requested but the OS did not take it (Wine, old Windows).
    bool fast_option_refused = false;
    /// The OS's name for that refusal ("WSAEOPNOTSUPP"); empty when none.
    std::string fast_option_error;
    /// Most SYN retransmissions the kernel counted in any default round.
    std::optional<int> syn_retransmissions;
    /// Every round was cut short by an interrupt: nothing was measured.
    bool interrupted = false;
};

AddressSummary summarize_address(std::span<const Sample> samples,
                                 std::span<const Sample> fast_samples);

/// The address's outcome as reports print it: "interrupted" when every
/// round was cut short by a stop (nothing was measured), else the outcome.
std::string_view summary_outcome_name(const AddressSummary& summary) noexcept;

/// True when the outcome already says what the OS's error name would:
/// an accept, or a refusal every round that the OS named ECONNREFUSED
/// (WSAECONNREFUSED). The text report then leaves the name out.
bool native_name_implied(const AddressSummary& summary);

/// One address as the diagnosis sees it.
struct Observation {
    Address address;
    AddressSummary summary;
};

} // namespace loopcheck
