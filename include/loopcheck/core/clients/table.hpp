// The clients loopcheck speaks for: one row per client and version range
// whose connect behaviour differs (its algorithm, its address list, whether
// it turns SYN retries off on Windows). docs/diagnosis.md ("The client
// table") gives the source of every row.
#pragma once

#include "loopcheck/core/clients/algorithms.hpp"
#include "loopcheck/core/input/duration.hpp"

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
    /// anyio's connect_tcp (httpx.AsyncClient): the resolver's addresses
    /// with the first IPv6 one moved to the front and the first IPv4 one
    /// after it second, whatever gai.conf says; the rest keep their order.
    anyio_ipv6_first,
};

/// Whether a second request to the same server reuses the first one's
/// connection, so a slow connect is paid once, not on every call.
enum class Reuse : std::uint8_t {
    per_call, ///< every request (or every call of the raw API) opens a new connection
    pooled,   ///< one client object keeps its connections: paid once per client
    depends,  ///< some of the row's APIs pool and some do not (ClientModel::reuse_note)
};

/// The versions a row covers: min <= v < below; empty means unbounded.
struct VersionRange {
    std::string_view min;
    std::string_view below;
};

/// Dotted version numbers compared part by part ("3.9" < "3.10"); a part's
/// digits only, saturating instead of wrapping ("4294967296" is large, not 0).
bool version_less(std::string_view a, std::string_view b) noexcept;

/// Whether `version` lies in [min, below): a pinned or detected version's row.
bool in_version_range(const VersionRange& r, std::string_view version) noexcept;

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
    /// The libraries and SDKs a user knows that connect this way, ", "
    /// between them: "openai (OpenAI), ollama (Client), ...".
    std::string_view libraries = {};
    Reuse reuse = Reuse::per_call;
    std::string_view reuse_note = {}; ///< for people: which calls reuse and which do not
    /// On Windows the row's algorithm is not built in and the client tries
    /// the resolver's addresses one after another (Ruby >= 3.4).
    bool sequential_on_windows = false;
};

/// "per_call", "pooled", "depends": the JSON report's words.
std::string_view reuse_name(Reuse r) noexcept;

/// The clients every report lists, in a fixed order.
std::span<const ClientModel> client_models();

} // namespace loopcheck
