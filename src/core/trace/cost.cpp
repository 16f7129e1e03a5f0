// A traced group's cost on Windows and its fix (trace_cost.hpp).
#include "core/trace/cost.hpp"

#include "loopcheck/core/clients/impact.hpp"
#include "loopcheck/core/clients/table.hpp"
#include "loopcheck/core/listeners/queries.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace loopcheck {

namespace {

/// How an address answered here, as the Windows projection needs it.
/// Under --windows-timing the ports' [::1] (or 127.0.0.1) side is a tarpit
/// that stands for Windows' refusal: an attempt abandoned or timed out
/// there counts as refused.
std::optional<Outcome> answered(const TraceConnect& c, bool timing) {
    switch (c.outcome) {
    case TraceOutcome::accepted:
        return Outcome::accepted;
    case TraceOutcome::refused:
        return Outcome::refused;
    case TraceOutcome::timed_out:
    case TraceOutcome::abandoned:
        return timing ? Outcome::refused : Outcome::timeout;
    case TraceOutcome::error:
        return Outcome::error;
    case TraceOutcome::unknown:
        return std::nullopt;
    }
    return std::nullopt;
}

Observation observed(const Address& a, Outcome o, Micros took) {
    Observation obs;
    obs.address = a;
    obs.summary.outcome = o;
    obs.summary.native_name = o == Outcome::refused ? "ECONNREFUSED" : "";
    // An accept costs nothing: what a connection loses is the time before
    // it; a timeout costs what it took here.
    const Micros t = o == Outcome::timeout ? took : Micros{0};
    obs.summary.latency = {1, t, t, t, t, Micros{0}};
    return obs;
}

/// How `a` (with the group's port) answered anywhere in the run: accepted
/// wins over a failure (a server that came up during the run).
std::optional<Observation> seen(const TraceRun& run, const Address& a) {
    std::optional<Observation> out;
    for (const auto& c : run.connects) {
        if (c.destination != a)
            continue;
        const auto o = answered(c, run.windows_timing);
        if (!o)
            continue;
        const Micros took{static_cast<std::int64_t>(c.duration_ms.value_or(0) * 1000)};
        if (!out || *o == Outcome::accepted)
            out = observed(a, *o, took);
    }
    return out;
}

/// The loopback address of `f` on `port`: how it answered here, else what
/// the listener table says, else refused with `assumed` set.
Observation loopback_state(const TraceRun& run, Family f, std::uint16_t port, bool& assumed) {
    const Address a = f == Family::ipv6 ? ipv6_loopback(port) : make_ipv4(127, 0, 0, 1, port);
    if (auto o = seen(run, a))
        return *o;
    const auto on_port = listeners_on_port(run.listeners, port);
    if (!run.listeners.empty()) {
        if (const auto serves = port_serves_loopback(on_port, f))
            return observed(a, *serves ? Outcome::accepted : Outcome::refused, Micros{0});
    }
    assumed = true;
    return observed(a, Outcome::refused, Micros{0});
}

TraceFix fix_for(const TraceGroup& g, const TraceRun& run) {
    TraceFix fix;
    for (const auto& c : run.connects)
        if (c.destination.port == g.port && c.outcome == TraceOutcome::accepted) {
            fix.connect_to = c.destination;
            break;
        }
    const auto on_port = listeners_on_port(run.listeners, g.port);
    if (!fix.connect_to) {
        for (const auto& l : on_port)
            if (loopback_reachable(l)) {
                fix.connect_to = connect_address(l);
                break;
            }
    }
    bool one_socket = false;
    for (const auto& l : on_port)
        if (l.server) {
            fix.server = l.server->id;
            one_socket = l.server->one_socket;
            break;
        }
    if (fix.server.empty() && on_port.empty()) {
        if (const auto* usual = usual_server(g.port)) {
            fix.server = std::string(usual->server);
            fix.server_inferred = true;
        }
    }
    fix.server_fix = server_fix(fix.server, g.port, one_socket);
    return fix;
}

} // namespace

std::vector<const ClientModel*> runtime_rows(std::string_view runtime, std::string_view version) {
    std::vector<const ClientModel*> out;
    for (const ClientModel& m : client_models()) {
        const bool own = m.id == runtime;
        const bool variant = !runtime.empty() && m.id.size() > runtime.size() &&
                             m.id.starts_with(runtime) && m.id[runtime.size()] == '-';
        if (!runtime.empty() && !own && !variant)
            continue;
        // Python's variants are libraries (asyncio, httpx, aiohttp): their
        // rows' versions are the library's, not the interpreter's.
        const bool library = runtime == "python" && !own;
        if (!runtime.empty() && !version.empty() && !library &&
            !in_version_range(m.versions, version))
            continue;
        out.push_back(&m);
    }
    return out;
}

void cost_on_windows(TraceGroup& g, std::span<const std::vector<std::size_t>> connections,
                     const TraceRun& run) {
    auto rows = runtime_rows(g.runtime, g.runtime_version);
    // A version the table has no row for (a future Node.js): every row of
    // the runtime.
    if (rows.empty())
        rows = runtime_rows(g.runtime, {});
    if (rows.empty())
        rows = runtime_rows({}, {});

    std::vector<Observation> here;
    if (windows_answers_itself(g.host)) {
        bool assumed = false;
        here.push_back(loopback_state(run, Family::ipv6, g.port, assumed));
        here.push_back(loopback_state(run, Family::ipv4, g.port, assumed));
        g.ipv6_assumed_refused = assumed;
    } else {
        // A literal or another name: the addresses it tried here, in order.
        for (const auto& conn : connections)
            for (std::size_t i : conn) {
                const Address& a = run.connects[i].destination;
                if (std::none_of(here.begin(), here.end(),
                                 [&](const Observation& o) { return o.address == a; }))
                    if (auto o = seen(run, a))
                        here.push_back(*o);
            }
    }
    const ClientContext ctx{g.host, Os::linux_};
    const auto windows = as_on_windows(here, ctx);
    g.windows_per_connection_min = Micros{std::numeric_limits<std::int64_t>::max()};
    g.windows_total_min = g.windows_per_connection_min;
    for (const ClientModel* row : rows) {
        const auto predicted = predict(*row, windows, {g.host, Os::windows, {}});
        const Micros one = here.empty() ? Micros{0} : predicted.time;
        g.windows_may_fail = g.windows_may_fail || (!here.empty() && !predicted.connected);
        g.rows.push_back({std::string(row->name), std::string(row->algorithm), one,
                          here.empty() || predicted.connected});
        const Micros all = one * static_cast<std::int64_t>(g.connections);
        g.windows_per_connection_min = std::min(g.windows_per_connection_min, one);
        g.windows_per_connection_max = std::max(g.windows_per_connection_max, one);
        g.windows_total_min = std::min(g.windows_total_min, all);
        g.windows_total_max = std::max(g.windows_total_max, all);
    }
    if (rows.empty()) {
        g.windows_per_connection_min = Micros{0};
        g.windows_total_min = Micros{0};
    }
    if (run.windows_timing && g.fallbacks > 0) {
        // Only connections that tried more than one address lost time; the
        // first-time accepts would dilute the figure.
        const Micros per = g.lost_here / static_cast<std::int64_t>(g.fallbacks + g.failures);
        g.measured_per_connection = per;
        const Micros slack = std::max(Micros{80'000}, per / 4);
        for (const auto& row : g.rows)
            if (row.connects && row.per_connection + slack >= per &&
                row.per_connection <= per + slack)
                g.matching_rows.push_back(row.client);
    }
    if (g.refused > 0 || g.failures > 0 || g.failed_otherwise > 0 ||
        g.windows_per_connection_max > Micros{10'000})
        g.fix = fix_for(g, run);
}

} // namespace loopcheck
