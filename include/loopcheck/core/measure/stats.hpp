// Summary statistics over repeated connects to one address.
#pragma once

#include "loopcheck/core/input/duration.hpp"

#include <span>

namespace loopcheck {

struct Summary {
    int count = 0;
    Micros min{0};
    Micros median{0};
    Micros max{0};
    Micros mean{0};
    /// Population standard deviation; 0 for a single sample.
    Micros stddev{0};
};

/// Summarises the given latencies; an empty span gives count 0 and zeros.
/// The median of an even count is the mean of the two middle values.
Summary summarize(std::span<const Micros> values);

} // namespace loopcheck
