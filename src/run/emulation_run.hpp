// The measuring half of --emulate: a client's connect algorithm run for
// real on the connect driver (src/run/emulation_run.cpp).
#pragma once

#include "loopcheck/core/clients/emulation.hpp"

#include <cstdint>
#include <span>

namespace loopcheck {

/// Runs the algorithm for real: connects as the client would, each attempt
/// bounded by `timeout`, and times from the first connect to the first
/// accepted one (or the last failure). Not pure: uses the platform.
ConnectPrediction run_emulation(const EmulationSpec& spec, std::span<const Address> resolved,
                                Micros timeout, Os os, std::uint32_t windows_build);

} // namespace loopcheck
