// The client-impact model: given what each address costs, what does a
// client that uses a given connect algorithm wait before it is connected
// (or gives up)? Pure functions; docs/diagnosis.md names the source of
// every algorithm and constant.
#pragma once

#include "loopcheck/core/address.hpp"
#include "loopcheck/core/duration.hpp"
#include "loopcheck/core/observation.hpp"
#include "loopcheck/core/sample.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

enum class ConnectAlgorithm : std::uint8_t {
    sequential,     ///< one address after another, in resolver order
    happy_eyeballs, ///< RFC 8305: next attempt after `delay` or when all running ones failed
    go_dual_stack,  ///< Go: primaries (first family) in turn; fallbacks race after `delay`
    first_ipv4,     ///< Java's default: one address, IPv4 preferred
};

/// Which addresses a client connects to with SYN retransmissions off.
enum class FastFail : std::uint8_t {
    none,              ///< takes the stack's retries (Python, .NET, curl < 8.22)
    loopback,          ///< 127/8 and ::1 (libuv, Go)
    loopback_literals, ///< exactly 127.0.0.1 and ::1 (curl >= 8.22)
};

struct ClientModel {
    std::string_view name;      ///< "Python requests / socket.create_connection"
    std::string_view algorithm; ///< "sequential", "Happy Eyeballs 250 ms", ...
    ConnectAlgorithm kind;
    Micros delay;
    FastFail fast;
    bool ipv6_first; ///< reorders to try IPv6 first (curl)
};

/// The clients every report lists, in a fixed order.
std::span<const ClientModel> client_models();

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

/// The order in which a client tries `addresses` (indexes into it): the
/// resolver's order, IPv6 first where the client does that, and families
/// alternating for Happy Eyeballs (RFC 8305 section 4).
std::vector<std::size_t> attempt_order(const ClientModel& client,
                                       std::span<const Address> addresses);

/// The attempts a client makes: the resolver's order (or IPv6 first), each
/// address's cost from the default probe, or from the no-retry probe where
/// the client turns retries off for that address and the probe exists.
std::vector<Attempt> attempts_for(const ClientModel& client, std::span<const Observation> obs);

struct ClientImpact {
    std::string client;
    std::string algorithm;
    ConnectPrediction prediction;
};

std::vector<ClientImpact> predict_clients(std::span<const Observation> obs);

} // namespace loopcheck
