// The client-impact model: given what each address costs, what does a
// client that uses a given connect algorithm wait before it is connected
// (or gives up)? One row per client and version range whose behaviour
// differs. Pure functions; docs/diagnosis.md names the source of every row,
// algorithm and constant.
#pragma once

#include "loopcheck/core/address.hpp"
#include "loopcheck/core/client_table.hpp"
#include "loopcheck/core/connect_algorithms.hpp"
#include "loopcheck/core/duration.hpp"
#include "loopcheck/core/machine.hpp"
#include "loopcheck/core/observation.hpp"
#include "loopcheck/core/sample.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

/// RFC 6724 section 2.1's default policy table: the precedence of `a`
/// (::1 50, ::/0 40, IPv4 as ::ffff:0:0/96 35, 2002::/16 30, 2001::/32 5,
/// fc00::/7 3, ::/96, fec0::/10 and 3ffe::/16 1).
int rfc6724_precedence(const Address& a) noexcept;

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
    std::vector<std::string> libraries; ///< ClientModel::libraries, one name each
    Reuse reuse = Reuse::per_call;
    std::string reuse_note;
    ConnectPrediction prediction;
    /// Off Windows: what the same set-up costs this client on Windows.
    std::optional<ConnectPrediction> windows;
};

std::vector<ClientImpact> predict_clients(std::span<const Observation> obs,
                                          const ClientContext& ctx);

} // namespace loopcheck
