// Probing many addresses at once, each bounded by a timeout, built on the
// platform's ConnectSet.
#pragma once

#include "loopcheck/platform/platform.hpp"

#include <functional>
#include <span>
#include <vector>

namespace loopcheck {

/// What a probe run reports while it waits, so the UI can show a live line.
struct ProbeProgress {
    Micros elapsed{0};       ///< since the oldest pending probe started
    std::size_t pending = 0; ///< probes still waiting or not yet started
    const ProbeSpec* oldest = nullptr;
};
using ProgressFn = std::function<void(const ProbeProgress&)>;

/// Connects to every spec concurrently, each bounded by `timeout`, and
/// returns one Sample per spec in the same order. Accepted connections are
/// closed at once; no data is sent. Runs as many at a time as
/// ConnectSet::capacity() allows (and fewer when the process runs out of
/// descriptors), starting the rest as earlier ones finish. `progress`, when
/// set, is called about every 100 ms while anything is pending.
std::vector<Sample> probe(std::span<const ProbeSpec> specs, Micros timeout,
                          const ProgressFn& progress = {});

/// Asks running probes to stop waiting (safe from a signal or console
/// handler). Pending probes end as Outcome::timeout, named "interrupted".
void request_stop() noexcept;
bool stop_requested() noexcept;

} // namespace loopcheck
