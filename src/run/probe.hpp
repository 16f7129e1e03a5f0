// Probing many addresses at once, each bounded by a timeout: the probe
// schedule over the connect driver (src/run/probe.cpp).
#pragma once

#include "loopcheck/core/measure/sample.hpp"
#include "loopcheck/run/progress.hpp"

#include <span>
#include <vector>

namespace loopcheck {

/// Connects to every spec concurrently, each bounded by `timeout`, and
/// returns one Sample per spec in the same order. Accepted connections are
/// closed at once; no data is sent. Runs as many at a time as
/// ConnectSet::capacity() allows (and fewer when the process runs out of
/// descriptors), starting the rest as earlier ones finish. `progress`, when
/// set, is called about every 100 ms while anything is pending.
std::vector<Sample> probe(std::span<const ProbeSpec> specs, Micros timeout,
                          const ProgressFn& progress = {});

} // namespace loopcheck
