// The client-impact model: given what each address costs, what does a
// client that uses a given connect algorithm wait before it is connected
// (or gives up)? One row per client and version range whose behaviour
// differs. Pure functions; docs/diagnosis.md names the source of every row,
// algorithm and constant.
#pragma once

#include "loopcheck/core/clients/algorithms.hpp"
#include "loopcheck/core/clients/table.hpp"
#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/input/machine.hpp"
#include "loopcheck/core/measure/observation.hpp"
#include "loopcheck/core/measure/sample.hpp"

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
    /// Off: predict_clients fills each row's id, name and prediction here
    /// only (no texts, no "on Windows" projection), for a caller that keeps
    /// no rows (the many-targets text report): the findings and the verdict
    /// need no more. The rest was most of such a run's allocations.
    bool full_rows = true;
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

/// What a refused address costs on Windows, in place of what it cost here:
/// Max SYN Retransmissions retries about 500 ms apart, with the 4 retries a
/// default install has (2.0 s; measured 2.02 to 2.10 s, docs/diagnosis.md).
inline constexpr Micros windows_refusal_retries{2'000'000};

/// A refused loopback address on Windows with SYN retries off (libuv,
/// Go >= 1.21, curl >= 8.22, Java >= 16): 0.5 to 1.0 ms measured on
/// Windows 11 by curl's author
/// (https://daniel.haxx.se/blog/2024/08/14/slow-tcp-connect-on-windows);
/// 1 ms assumed, the top of that range. The projection off Windows uses it
/// whatever a refusal cost here (docs/windows.md, "localhost on Windows").
inline constexpr Micros windows_fast_refusal{1'000};

/// Whether Windows' resolver answers `host` itself, whatever the hosts
/// file says: "localhost" (any case, a trailing dot ignored), answered
/// ::1 then 127.0.0.1 (docs/windows.md, "localhost on Windows").
bool windows_answers_itself(std::string_view host) noexcept;

/// What the "on Windows" predictions assumed: the addresses in the order
/// Windows would try them, and the assumption in words, for the reports.
struct WindowsProjection {
    std::vector<Address> addresses;
    std::string assumed;
};

/// The observations as Windows would make them: for a name Windows answers
/// itself, its own answer (::1 then 127.0.0.1, each answering as it did
/// here, or from curl's side probe; ::1 unreachable here, IPv6 off, is
/// taken as refused: Windows always has ::1); for other names this
/// machine's order. A refused address costs windows_refusal_retries in
/// place of its cost here, and without SYN retries windows_fast_refusal,
/// whatever it cost here. For a report made on Linux or macOS.
std::vector<Observation> as_on_windows(std::span<const Observation> obs, const ClientContext& ctx,
                                       WindowsProjection* projection = nullptr);

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

/// Every row's prediction here, and off Windows its "on Windows" one
/// (as_on_windows); `projection`, when given, gets what that assumed.
std::vector<ClientImpact> predict_clients(std::span<const Observation> obs,
                                          const ClientContext& ctx,
                                          WindowsProjection* projection = nullptr);

} // namespace loopcheck
