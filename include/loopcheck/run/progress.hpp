// What a run reports while it waits, so that cli can show a live line
// (the run itself never writes to a terminal).
#pragma once

#include "loopcheck/core/measure/sample.hpp"

#include <cstddef>
#include <functional>
#include <string>

namespace loopcheck {

/// A probe run's state, about every 100 ms while anything is pending; a
/// value with no `oldest` says the probing is over (the live line goes).
struct ProbeProgress {
    Micros elapsed{0};       ///< since the oldest pending probe started
    std::size_t pending = 0; ///< probes still waiting or not yet started
    const ProbeSpec* oldest = nullptr;
    /// Where a run of several rounds is (filled by the run's rounds, not
    /// by the probe itself): round `round` of `rounds`, 1-based; 0 = one
    /// round only.
    int round = 0;
    int rounds = 0;
    /// The staircase's SYN retry limit for these probes; -1 = not a staircase.
    int limit = -1;
    /// Since the whole run's probing began: it grows across rounds, where
    /// `elapsed` starts again with each probe.
    Micros run_elapsed{0};
};
using ProgressFn = std::function<void(const ProbeProgress&)>;

/// A live status line to show in place of the last one; "" erases it.
using LiveLineFn = std::function<void(const std::string& line)>;

} // namespace loopcheck
