// The clients loopcheck speaks for: one row per client and version range
// whose connect behaviour differs (its algorithm, its address list, whether
// it turns SYN retries off on Windows). docs/diagnosis.md ("The client
// table") gives the source of every row.
#pragma once

#include "loopcheck/core/connect_algorithms.hpp"
#include "loopcheck/core/duration.hpp"

#include <cstdint>
#include <span>
#include <string_view>

namespace loopcheck {

/// Which addresses a client connects to with SYN retransmissions off. Only
/// Windows retries a refused SYN, so this matters on Windows only.
enum class FastFail : std::uint8_t {
    none,              ///< takes the stack's retries (Python, .NET, curl < 8.22)
    loopback,          ///< 127/8 and ::1 (libuv, Go)
    loopback_literals, ///< exactly 127.0.0.1 and ::1 (curl >= 8.22)
};

/// Where a client's address list comes from.
enum class AddressSource : std::uint8_t {
    resolver,            ///< the system resolver's order (hosts file, gai.conf, DNS)
    resolver_ipv4_first, ///< the resolver's addresses, IPv4 ones first (Node.js <= 16)
    /// curl >= 7.78 answers "localhost" and "*.localhost" itself, without
    /// the resolver: 127.0.0.1 then ::1 ...
    curl_localhost_ipv4_first,
    curl_localhost_ipv6_first, ///< ... ::1 then 127.0.0.1 from curl 8.2.1
    /// Go's own resolver off Windows: the addresses sorted by RFC 6724's
    /// default precedence, whatever gai.conf says (::1 before 127.0.0.1).
    go_rfc6724,
};

/// The versions a row covers: min <= v < below; empty means unbounded.
struct VersionRange {
    std::string_view min;
    std::string_view below;
};

struct ClientModel {
    std::string_view id;        ///< stable: "curl", "node", ... (several rows may share one)
    VersionRange versions;      ///< the versions this row covers
    std::string_view name;      ///< for people: "curl 8.2.1 to 8.9.1"
    std::string_view algorithm; ///< for people: "Happy Eyeballs 200 ms, IPv6 first", ...
    ConnectAlgorithm kind;
    Micros delay;
    FastFail fast;
    AddressSource source;
    bool ipv6_first;            ///< reorders to try IPv6 first (curl >= 8.10)
    bool retry_refused = false; ///< connects once more after a refusal (Java HttpClient)
};

/// The clients every report lists, in a fixed order.
std::span<const ClientModel> client_models();

} // namespace loopcheck
