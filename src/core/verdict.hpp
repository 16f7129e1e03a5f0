// The verdict rules (docs/diagnosis.md, "The verdict"): the one place that
// turns a target's findings into the verdict line, its severity word and the
// exit code. Private to core; diagnose() calls it, the tests check it.
#pragma once

#include "loopcheck/core/diagnose.hpp"

#include <span>
#include <string>
#include <string_view>

namespace loopcheck {

/// The words a verdict line starts with, strongest first.
namespace verdict_word {
inline constexpr std::string_view unexpected = "UNEXPECTED";
inline constexpr std::string_view partial = "PARTIAL";
inline constexpr std::string_view slow = "SLOW";
inline constexpr std::string_view down = "DOWN";
inline constexpr std::string_view ok = "OK";
} // namespace verdict_word

/// What the verdict line names besides the findings: facts of the
/// measurement the findings do not repeat.
struct VerdictFacts {
    std::string_view input;              ///< the target as typed
    std::size_t addresses = 0;           ///< how many were tried
    std::optional<Address> winner;       ///< the first address that accepted
    Micros winner_time{0};               ///< what a client waits in resolver order to reach it
    std::optional<Address> slow_refused; ///< the first refusal slower than the threshold
    Micros slow_refused_time{0};
    Micros threshold{100'000};
    Micros timeout{5'000'000};
    bool any_refused = false; ///< some address was refused (not timed out)
    bool any_timeout = false;
};

struct Verdict {
    std::string line;
    std::string_view word;
    int exit_code = 0;
    /// The finding id whose fact `line` words in full, if one
    /// (Diagnosis::verdict_says).
    std::string_view says = {};
};

/// The verdict from the findings: UNEXPECTED (7) when --expect refused met an
/// accept; PARTIAL (6) when some clients fail while others connect; SLOW (1)
/// when a finding says a client waits longer than the threshold; DOWN (3)
/// when nothing accepts; OK (0) otherwise, and for --expect refused when
/// every address refused fast.
Verdict decide_verdict(std::span<const Finding> findings, const VerdictFacts& facts);

} // namespace loopcheck
