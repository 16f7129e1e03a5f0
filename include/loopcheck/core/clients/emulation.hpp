// The model half of --emulate: which client algorithm to run, in which
// order it tries the addresses, and what the client model predicts for it.
// src/run/emulation_run.cpp runs it for real.
#pragma once

#include "loopcheck/core/clients/impact.hpp"
#include "loopcheck/core/input/machine.hpp"
#include "loopcheck/core/measure/sample.hpp"
#include "loopcheck/core/result.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

struct EmulationSpec {
    std::string label; ///< as the user wrote it, normalised: "happy-eyeballs=250ms"
    ConnectAlgorithm kind = ConnectAlgorithm::sequential;
    Micros delay{0};
    /// Connect to loopback with SYN retransmissions off, as libuv does.
    bool no_syn_retries_on_loopback = false;

    friend bool operator==(const EmulationSpec&, const EmulationSpec&) = default;
};

/// Parses "sequential", "happy-eyeballs[=DELAY]" (default 250 ms, asyncio's
/// suggestion), "go[=DELAY]" (default 300 ms, Go's FallbackDelay) and "node"
/// (sequential, SYN retries off on loopback). DELAY as parse_duration
/// reads it, between 10 ms (RFC 8305's floor) and 10 s.
Result<EmulationSpec> parse_emulation(std::string_view text);

struct EmulationResult {
    EmulationSpec spec;
    ConnectPrediction measured; ///< the round with the median time
    ConnectPrediction predicted;
    /// Every round measured (--count), in order.
    std::vector<ConnectPrediction> rounds;
    /// Rounds further from the model than off_model() allows.
    int rounds_off_model = 0;
};

/// How far a measured connect may be from the model: the larger of a floor
/// (scheduling and timer noise for short waits) and a share of the model's
/// time (for long ones). The client harness uses the same margin.
inline constexpr Micros off_model_floor{50'000};
inline constexpr int off_model_percent = 20;

/// Whether a measured connect is further from the model than
/// max(off_model_floor, off_model_percent of the model's time), or ends
/// differently.
bool off_model(const ConnectPrediction& measured, const ConnectPrediction& model);

/// off_model()'s rule as the report says it: "further than max(50 ms,
/// 20 %) from the model's time, or ending differently".
std::string off_model_rule();

/// Fills `measured` (the median round) and `rounds_off_model` from `rounds`.
void settle_rounds(EmulationResult& result);

/// The model's prediction for `spec` from the probe results made on `os` (pure).
ConnectPrediction predict_emulation(const EmulationSpec& spec, std::span<const Observation> obs,
                                    Os os);

/// The order in which `spec` tries the addresses (pure): resolver order,
/// with families alternating for Happy Eyeballs (RFC 8305 section 4).
std::vector<Address> emulation_order(const EmulationSpec& spec, std::span<const Address> resolved);

} // namespace loopcheck
