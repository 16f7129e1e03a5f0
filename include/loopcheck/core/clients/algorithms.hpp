// How a client connects when a name has several addresses: one after
// another, Happy Eyeballs, Go's dual-stack race, one address only, Node.js's
// attempt timeout. Each runs over attempts whose costs were measured, and
// says how long the client waits and where it connects. Pure functions;
// docs/diagnosis.md names the source of each algorithm.
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/measure/observation.hpp"

#include <cstdint>
#include <optional>
#include <span>

namespace loopcheck {

enum class ConnectAlgorithm : std::uint8_t {
    sequential,     ///< one address after another, in order, each to its end
    happy_eyeballs, ///< RFC 8305: next attempt after `delay` or when all running ones failed
    go_dual_stack,  ///< primaries (first family) in turn; fallbacks in turn after `delay`
    first_ipv4,     ///< one address, the first IPv4 one (Java's default)
    first_address,  ///< one address, the first one (Node.js without autoSelectFamily)
    /// Node.js autoSelectFamily: one attempt at a time, each but the last
    /// aborted after `delay`.
    attempt_timeout,
};

/// One connect attempt's input to the model.
struct Attempt {
    Address address;
    Outcome outcome = Outcome::error;
    Micros cost{0};
};

struct ConnectPrediction {
    bool connected = false;
    Micros time{0};             ///< to connected, or to the last failure
    std::optional<Address> via; ///< the address that connected
    int attempts = 0;           ///< attempts started
    /// A timed-out attempt was counted at loopcheck's --timeout; the client's
    /// own timeout may be longer, so the real wait is at least this.
    bool lower_bound = false;
};

/// Runs one algorithm over attempts in the order given.
ConnectPrediction simulate(ConnectAlgorithm kind, Micros delay, std::span<const Attempt> attempts);

} // namespace loopcheck
