// The client-impact model: given what each address costs, what does a
// client that uses a given connect algorithm wait before it is connected
// (or gives up)? One row per client and version range whose behaviour
// differs. Pure functions; docs/diagnosis.md names the source of every row,
// algorithm and constant.
#pragma once

#include "loopcheck/core/address.hpp"
#include "loopcheck/core/duration.hpp"
#include "loopcheck/core/observation.hpp"
#include "loopcheck/core/sample.hpp"
#include "loopcheck/core/machine.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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

/// RFC 6724 section 2.1's default policy table: the precedence of `a`
/// (::1 50, ::/0 40, IPv4 as ::ffff:0:0/96 35, 2002::/16 30, 2001::/32 5,
/// fc00::/7 3, ::/96, fec0::/10 and 3ffe::/16 1).
int rfc6724_precedence(const Address& a) noexcept;

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

/// Whether `host` is a name curl >= 7.78 answers itself ("localhost" or a
/// name ending in ".localhost", any case, a trailing dot ignored).
bool curl_answers_itself(std::string_view host) noexcept;

/// What the target is, as the models need it.
struct ClientContext {
    std::string_view host; ///< the name the client is given ("localhost"); a literal for literals
    Os os = Os::other;     ///< where the observations were measured
    /// Probes of the loopback addresses of curl's own localhost answer that
    /// the resolver did not give (TargetReport::curl_localhost).
    std::span<const Observation> curl_localhost = {};
};

/// The order in which a client tries `addresses` (indexes into it): the
/// resolver's order, IPv6 or IPv4 first where the client does that, and
/// families alternating where the client interleaves them (RFC 8305
/// section 4; Node.js autoSelectFamily).
std::vector<std::size_t> attempt_order(const ClientModel& client,
                                       std::span<const Address> addresses);

/// The attempts a client makes: its address list (the resolver's, or
/// curl's own for localhost, restricted to addresses that were probed) in
/// its order, each address's cost from the default probe, or, on Windows,
/// from the no-retry probe where the client turns retries off for that
/// address and the probe exists.
std::vector<Attempt> attempts_for(const ClientModel& client, std::span<const Observation> obs,
                                  const ClientContext& ctx);

/// Runs a client's model: its attempts, its algorithm, its retry.
ConnectPrediction predict(const ClientModel& client, std::span<const Observation> obs,
                          const ClientContext& ctx);

/// What a refusal costs on Windows beyond what it costs where refusals
/// are not retried: MaxSynRetransmissions (4) retries about 500 ms apart,
/// measured as 2.02 to 2.10 s in total.
inline constexpr Micros windows_refusal_retries{2'000'000};

/// The observations as Windows would make them with the same set-up (the
/// same addresses in the same order, each answering the same way): a
/// refusal costs windows_refusal_retries more by default and what it
/// costs here without SYN retries. For a report made on Linux or macOS.
std::vector<Observation> as_on_windows(std::span<const Observation> obs);

struct ClientImpact {
    std::string id;
    std::optional<std::string> min_version;   ///< VersionRange::min, when bounded
    std::optional<std::string> below_version; ///< VersionRange::below, when bounded
    std::string client;
    std::string algorithm;
    ConnectPrediction prediction;
    /// Off Windows: what the same set-up costs this client on Windows.
    std::optional<ConnectPrediction> windows;
};

std::vector<ClientImpact> predict_clients(std::span<const Observation> obs,
                                          const ClientContext& ctx);

} // namespace loopcheck
