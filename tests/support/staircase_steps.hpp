// Staircase inputs the staircase tests share: a refused sample and steps
// 0..5 from one latency per limit. Core only, so both test binaries use it.
#pragma once

#include "loopcheck/core/measure/staircase.hpp"

#include <optional>
#include <vector>

namespace loopcheck::test {

inline Sample refused(Micros t, OptionState option = OptionState::applied,
                      std::optional<int> syn_rtx = std::nullopt) {
    Sample s;
    s.outcome = Outcome::refused;
    s.latency = t;
    s.native_name = "ECONNREFUSED";
    s.option = option;
    s.syn_retransmissions = syn_rtx;
    return s;
}

/// Steps 0..5 from one latency per limit (three identical probes each).
inline std::vector<StairStep> steps_from(const std::vector<Sample>& per_limit) {
    std::vector<StairStep> out;
    for (std::size_t l = 0; l < per_limit.size(); ++l) {
        std::vector<Sample> three(3, per_limit[l]);
        out.push_back(summarize_step(static_cast<int>(l), three));
    }
    return out;
}

} // namespace loopcheck::test
