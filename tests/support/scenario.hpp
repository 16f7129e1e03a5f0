// Recorded scenarios for the pure core: observations as a probe run on a
// given machine would produce them, built from published measurements.
#pragma once

#include "loopcheck/core/measure/observation.hpp"

#include <optional>

namespace loopcheck::test {

inline Observation observe(Address a, Outcome o, Micros latency,
                           std::optional<Micros> fast = std::nullopt,
                           std::optional<int> syn_rtx = std::nullopt) {
    Observation obs;
    obs.address = a;
    obs.summary.outcome = o;
    obs.summary.native_name = o == Outcome::refused ? "ECONNREFUSED" : "";
    obs.summary.latency.count = 1;
    obs.summary.latency.min = obs.summary.latency.median = obs.summary.latency.max = latency;
    obs.summary.latency.mean = latency;
    if (fast) {
        obs.summary.fast_outcome = o;
        Summary s;
        s.count = 1;
        s.min = s.median = s.max = s.mean = *fast;
        obs.summary.fast_latency = s;
    }
    obs.summary.syn_retransmissions = syn_rtx;
    return obs;
}

} // namespace loopcheck::test
