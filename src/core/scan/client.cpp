// `loopcheck scan`'s link to the client table: a hit's row, and that row's
// cost on Windows from the same model as check's "on Windows" column.
#include "core/scan/client.hpp"

#include "loopcheck/core/clients/impact.hpp"
#include "loopcheck/core/scan/pins.hpp"

#include <vector>

namespace loopcheck {

namespace {

/// One loopback address as a probe here would see it: accepted in 0.1 ms
/// (Linux answers at once). A refusal takes windows_fast_refusal, the
/// figure check's projection assumes where no probe of it ran: scan keeps
/// no per-address times (and an inferred server was never probed), so its
/// own 0.1 ms would make a Windows refusal look faster than measured ones
/// (0.5 to 1.0 ms).
Observation loopback(Family family, bool listening) {
    Observation o;
    o.address = family == Family::ipv6 ? *parse_ip_literal("::1") : *parse_ip_literal("127.0.0.1");
    o.summary.outcome = listening ? Outcome::accepted : Outcome::refused;
    o.summary.native_name = listening ? "" : "ECONNREFUSED";
    const Micros t = listening ? Micros{100} : windows_fast_refusal;
    o.summary.latency = {1, t, t, t, t, Micros{0}};
    return o;
}

} // namespace

const ClientModel* scan_client_row(std::string_view id, std::string_view version) {
    const ClientModel* newest = nullptr;
    for (const ClientModel& m : client_models()) {
        if (m.id != id)
            continue;
        if (!version.empty() && in_version_range(m.versions, version))
            return &m;
        if (m.versions.below.empty() && !newest)
            newest = &m;
    }
    return newest;
}

ConnectPrediction windows_localhost_cost(const ClientModel& row, bool v4, bool v6) {
    const std::vector<Observation> here{loopback(Family::ipv6, v6), loopback(Family::ipv4, v4)};
    const ClientContext linux_ctx{"localhost", Os::linux_};
    const auto on_windows = as_on_windows(here, linux_ctx);
    return predict(row, on_windows, {"localhost", Os::windows, {}});
}

} // namespace loopcheck
