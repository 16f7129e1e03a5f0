// --quick: on Windows, skip the default-stack probes of loopback addresses
// (each may wait ~2 s for a refusal) and infer what they would have
// measured from the no-SYN-retry probe and the configured retry limit.
// Pure, so the inference is tested on every OS.
#pragma once

#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/measure/sample.hpp"

#include <string>
#include <utility>
#include <vector>

namespace loopcheck {

/// Windows' default Max SYN Retransmissions (netsh interface tcp show global).
inline constexpr int windows_default_max_syn_retransmissions = 4;

struct RetryLimit {
    int retries = windows_default_max_syn_retransmissions;
    bool assumed = true; ///< the configured limit could not be read
};

/// The limit to infer with: the configured MaxSynRetransmissions when the
/// system facts give one number for it, else Windows' default (assumed).
RetryLimit
retry_limit_for_inference(const std::vector<std::pair<std::string, std::string>>& tcp_settings);

/// What a default-stack probe would have measured, from a no-retry one of
/// the same address: a refusal takes `limit.retries` more retry intervals
/// (`step`, 500 ms on Windows); any other outcome the same time. When the
/// OS refused the no-retry option, the probe ran with the defaults, so it
/// is the measurement itself. The result is marked `inferred` unless it is
/// that measurement.
Sample infer_default_sample(const Sample& no_retry, RetryLimit limit, Micros step);

} // namespace loopcheck
