// The run's stop flag: Ctrl-C, SIGTERM and `listen --for` end every
// schedule of the connect driver through it (src/run/connect_driver.cpp).
#pragma once

namespace loopcheck {

/// Asks running probes, polls and listeners to stop waiting (safe from a
/// signal or console handler). Pending probes end as Outcome::timeout,
/// named "interrupted".
void request_stop() noexcept;
bool stop_requested() noexcept;

} // namespace loopcheck
