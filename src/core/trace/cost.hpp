// What a traced group's connects cost on Windows, and its fix
// (src/core/trace/cost.cpp): check's own client model (as_on_windows,
// predict) over the addresses as they answered here, so `trace`, `check`
// and `scan` give one figure for one client.
#pragma once

#include "loopcheck/core/trace/report.hpp"

#include <span>
#include <vector>

namespace loopcheck {

/// Fills `g`'s client rows, its Windows cost per connection and in all
/// (`connections` are its connections, indexes into `run.connects`), and
/// its fix when it lost time or failed, here or on Windows.
void cost_on_windows(TraceGroup& g, std::span<const std::vector<std::size_t>> connections,
                     const TraceRun& run);

} // namespace loopcheck
