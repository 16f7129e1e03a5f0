// `loopcheck scan`'s conclusions: what every hit costs here and on Windows,
// the ranking, the exit code and the summary (its endpoints and who serves
// them: scan_endpoints.cpp).
#include "loopcheck/core/scan/cost.hpp"

#include "core/scan/client.hpp"
#include "loopcheck/core/clients/fold.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/scan/pins.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <tuple>

namespace loopcheck {

namespace {

bool is_v4_literal(std::string_view host) noexcept {
    return host.starts_with("127.");
}

std::string url_of(std::string_view host, std::uint16_t port) {
    return host == "::1" ? fmt::format("[::1]:{}", port) : fmt::format("{}:{}", host, port);
}

std::string_view default_row(Lang lang) noexcept;

/// The client-table row that prices a hit: its client's, at its pinned
/// version; for a config value no code in the tree was found to read, the
/// language's usual client where the value sits in code (a Node.js or Go
/// program reads it with libuv or Go), else one that tries one address at
/// a time (Python's).
const ClientModel* pricing_row(const ScanHit& hit) {
    if (!hit.client.empty())
        return scan_client_row(hit.client, hit.client_version);
    if (hit.lang == Lang::javascript || hit.lang == Lang::go || hit.lang == Lang::java)
        return scan_client_row(default_row(hit.lang));
    return scan_client_row("python");
}

/// The fix for a client of `ep` that should connect to `listens`: the
/// address, then the server's own setting (check's sentence). Where that
/// sentence itself says to point the client at the same address (Ollama, LM
/// Studio have no setting for both families), it alone, said once.
std::string connect_fix(std::string_view listens, const ScanEndpoint& ep) {
    const std::string url = url_of(listens, ep.port);
    if (ep.server_fix.starts_with("Or point the client at " + url))
        return ep.server_fix_alone;
    return fmt::format("connect to {} (where the server listens). {}", url, ep.server_fix);
}

/// What a prediction costs, in a few words: "fails", "~2.00 s".
std::string cost_words(const ConnectPrediction& p) {
    return p.connected ? fmt::format("~{}", format_duration(p.time)) : std::string("fails");
}

/// A cost that makes a hit risky: a client that fails, or one that waits
/// out Windows' SYN retries (2 s) on every new connection.
bool costly(const ConnectPrediction& p) {
    return !p.connected || p.time >= std::chrono::seconds(1);
}

/// The other rows of the same client (older versions, where no version was
/// pinned) that connect but cost differently in kind from the chosen row:
/// "; Python aiohttp < 3.10: ~2.00 s". The failing ones are said apart
/// (failing_rows).
std::string other_rows(const ClientModel& chosen, const ScanHit& hit, const ScanEndpoint& ep) {
    if (!hit.client_version.empty())
        return {};
    const bool chosen_costly = costly(windows_localhost_cost(chosen, ep.v4, ep.v6));
    std::string out;
    for (const ClientModel& m : client_models()) {
        if (m.id != chosen.id || &m == &chosen)
            continue;
        const auto p = windows_localhost_cost(m, ep.v4, ep.v6);
        if (p.connected && costly(p) != chosen_costly)
            out += fmt::format("; {}: {}", m.name, cost_words(p));
    }
    return out;
}

/// Where no version was pinned, any version of the client may run the
/// hit's code: the rows of the same client that fail outright on Windows,
/// named as check's folded list names a run of them ("Node.js 17 to 19",
/// "Node.js < 17"), with the first one's algorithm; empty when none fails.
struct FailingRows {
    std::string names;
    std::string algorithm;
};
FailingRows failing_rows(const ClientModel& chosen, const ScanHit& hit, const ScanEndpoint& ep) {
    if (!hit.client_version.empty())
        return {};
    std::vector<ClientImpact> rows;
    std::string algorithm;
    for (const ClientModel& m : client_models()) {
        if (m.id != chosen.id)
            continue;
        ClientImpact c;
        c.id = m.id;
        if (!m.versions.min.empty())
            c.min_version = std::string(m.versions.min);
        if (!m.versions.below.empty())
            c.below_version = std::string(m.versions.below);
        c.client = m.name;
        c.windows = windows_localhost_cost(m, ep.v4, ep.v6);
        if (!c.windows->connected) {
            if (algorithm.empty())
                algorithm = m.algorithm;
            // Failing after 2 s (SYN retries) or 1 ms is one failure here:
            // one group, so a run of rows reads as one name.
            c.windows->time = Micros{0};
        }
        rows.push_back(std::move(c));
    }
    for (const ClientGroup& g : fold_clients(rows, FoldOn::windows))
        if (!g.connected)
            return {group_names(g), algorithm};
    return {};
}

/// A `localhost` hit whose server takes one family: the row's own
/// prediction on Windows (::1 first), as check's "on Windows" column; a
/// hit whose client fails outright on some of its versions is risky too
/// (a Node.js 17 to 19 reader never reaches a 127.0.0.1 server).
void cost_localhost_one_family(ScanHit& hit, const ScanEndpoint& ep) {
    if (hit.client == "browser") {
        hit.cost_windows = "none known: a browser races the addresses itself (Happy Eyeballs)";
        return;
    }
    const ClientModel* row = pricing_row(hit);
    if (row == nullptr) {
        hit.cost_windows = fmt::format("unknown: {} has no client-table row",
                                       hit.client_label.empty() ? hit.client : hit.client_label);
        return;
    }
    const auto p = windows_localhost_cost(*row, ep.v4, ep.v6);
    const std::string who = hit.kind == HitKind::client ? "this client "
                            : hit.consumer.empty() ? "a client that tries one address at a time "
                                                     "(Python, .NET) "
                                                   : "its reader ";
    const std::string how = fmt::format("{}: {}", row->name, row->algorithm);
    const std::string listens = ep.v4 ? "127.0.0.1" : "::1";
    const FailingRows failing = p.connected ? failing_rows(*row, hit, ep) : FailingRows{};
    hit.windows_ms = static_cast<double>(p.time.count()) / 1000.0;
    hit.fails = !p.connected || !failing.names.empty();
    if (!p.connected) {
        hit.risky = true;
        hit.cost_windows = fmt::format("{}fails: it never reaches {} ({})", who, listens, how);
    } else if (!failing.names.empty()) {
        hit.risky = true;
        hit.cost_windows = fmt::format("fails on {}: it never reaches {} ({}); {}: {} per new "
                                       "connection ({})",
                                       failing.names, listens, failing.algorithm, row->name,
                                       cost_words(p), row->algorithm);
    } else if (costly(p)) {
        hit.risky = true;
        hit.cost_windows =
            fmt::format("{}pays {} per new connection ({}): {} refused, retried, "
                        "then {}",
                        who, cost_words(p), how, ep.v4 ? "::1" : "127.0.0.1", listens);
    } else {
        hit.cost_windows = fmt::format("{} per new connection ({})", cost_words(p), how);
    }
    hit.cost_windows += other_rows(*row, hit, ep);
    if (hit.risky)
        hit.fix = connect_fix(listens, ep);
}

/// A PowerShell or batch file (not a fenced block in docs): it runs on
/// Windows, so its Windows cost is not a projection.
bool windows_script(const ScanHit& hit) {
    const std::string path = hit.path.escaped();
    for (std::string_view end : {".ps1", ".psm1", ".bat", ".cmd", ".PS1", ".BAT", ".CMD"})
        if (path.ends_with(end))
            return true;
    return false;
}

bool go_dials(const ScanHit& hit) noexcept {
    return hit.client == "go" || (hit.client.empty() && hit.lang == Lang::go);
}

void cost_hit(ScanHit& hit, const ScanEndpoint* ep, bool probed) {
    if (hit.alternatives) {
        hit.cost_windows = "none: the line lists the port on both families, so the code tries each";
        return;
    }
    if (hit.ref.host == "0.0.0.0" && go_dials(hit)) {
        // Go's Dial takes an unspecified address as the local system
        // (net.Dial's documentation), on Windows too.
        hit.cost_windows = "none: Go dials the local system for 0.0.0.0";
        return;
    }
    if (hit.ref.host == "0.0.0.0") {
        hit.risky = true;
        hit.cost_windows = "fails at once: 0.0.0.0 is not a destination on Windows";
        hit.windows_ms = 0.0;
        hit.fails = true;
        hit.fix = "connect to 127.0.0.1 (or the address the server listens on)";
        return;
    }
    if (hit.ref.host == "host.docker.internal") {
        hit.cost_windows = "from a container: the host's address (Docker Desktop)";
        return;
    }
    if (!ep || (!ep->v4 && !ep->v6)) {
        hit.cost_windows = hit.ref.port == 0 ? "unknown: no port written"
                                             : "unknown: no server seen or usual for this port";
        hit.cost_here = probed && ep ? "nothing listens" : hit.cost_here;
        return;
    }
    hit.inferred = ep->inferred;
    hit.listens = ep->server;
    // A listener seen, yet no address of the name accepted here (localhost
    // answered 127.0.0.1 alone, the server on ::1 only): every client of
    // this URL fails on this machine, whatever Windows would do.
    const bool fails_here = ep->probed && !ep->accepted_here && !ep->inferred;
    hit.cost_here = !ep->probed         ? "not probed"
                    : ep->accepted_here ? "connects"
                    : fails_here        ? "fails: no address it names accepts"
                                        : "nothing listens";
    if (hit.ref.host == "localhost") {
        if (ep->v4 && ep->v6)
            hit.cost_windows = "none: the server takes both families";
        else
            cost_localhost_one_family(hit, *ep);
        if (fails_here && !hit.risky) {
            hit.risky = true;
            if (ep->v4 != ep->v6)
                hit.fix = connect_fix(ep->v4 ? "127.0.0.1" : "::1", *ep);
        }
        return;
    }
    const bool v4 = is_v4_literal(hit.ref.host);
    if ((v4 && ep->v4) || (!v4 && ep->v6)) {
        hit.cost_windows = "none: an address literal the server listens on";
        return;
    }
    hit.risky = true;
    hit.cost_windows =
        fmt::format("refused at once: the server listens on {} only", v4 ? "IPv6" : "IPv4");
    hit.fails = true;
    hit.fix = connect_fix(v4 ? "::1" : "127.0.0.1", *ep);
}

/// The row that stands for a language's usual client when the reading file
/// imports none we know.
std::string_view default_row(Lang lang) noexcept {
    switch (lang) {
    case Lang::javascript:
        return "node";
    case Lang::go:
        return "go";
    case Lang::java:
        return "java-httpclient";
    case Lang::csharp:
    case Lang::powershell:
        return "dotnet";
    case Lang::shell:
        return "curl";
    default:
        return "python";
    }
}

/// A config hit's consumer: the first code in the tree that reads its key
/// from the environment; its client then decides the cost.
void join_consumer(ScanHit& h, std::span<const EnvRead> reads) {
    if (h.kind != HitKind::config || h.config_key.empty() || !h.client.empty())
        return;
    for (const EnvRead& read : reads) {
        if (read.key != h.config_key)
            continue;
        h.client = read.client.empty() ? std::string(default_row(read.lang)) : read.client;
        h.client_label = read.client_label;
        h.consumer =
            fmt::format("{}:{}{}", read.path.escaped(), read.line,
                        read.client_label.empty() ? std::string() : " (" + read.client_label + ")");
        return;
    }
}

int rank(const ScanHit& h) noexcept {
    if (h.risky && h.kind == HitKind::client)
        return 0;
    if (h.risky && h.kind == HitKind::config)
        return 1;
    switch (h.kind) {
    case HitKind::server:
        return 2;
    case HitKind::client:
        return 3;
    case HitKind::config:
        return 4;
    case HitKind::harmless:
        return 5;
    }
    return 5;
}

std::string thousands(std::uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace

/// Hits on one line naming one port through both families (["127.0.0.1:5173",
/// "localhost:5173"]): the code tries each address itself.
void mark_alternatives(std::vector<ScanHit>& hits) {
    for (std::size_t i = 0; i < hits.size();) {
        std::size_t j = i;
        bool v4 = false, other = false;
        while (j < hits.size() && hits[j].line == hits[i].line && hits[j].cell == hits[i].cell &&
               hits[j].path == hits[i].path && hits[j].ref.port == hits[i].ref.port) {
            (is_v4_literal(hits[j].ref.host) ? v4 : other) = true;
            ++j;
        }
        if (v4 && other && hits[i].ref.port != 0)
            for (std::size_t k = i; k < j; ++k)
                hits[k].alternatives = true;
        i = j;
    }
}

void conclude_scan(ScanResult& r) {
    bool risky_exit = false;
    mark_alternatives(r.hits);
    apply_pins(r.hits, r.pins);
    for (ScanHit& h : r.hits) {
        if (h.kind == HitKind::server) {
            const bool one_family = h.ref.host != "localhost" || h.server != "uvicorn" ||
                                    one_socket(h.server, h.text.escaped());
            if (one_family)
                h.fix = server_fix(h.server, h.ref.port, one_socket(h.server, h.text.escaped()),
                                   FixForm::alone);
            continue;
        }
        if (h.kind != HitKind::client && h.kind != HitKind::config)
            continue;
        join_consumer(h, r.env_reads);
        const ScanEndpoint* ep = nullptr;
        for (const ScanEndpoint& e : r.endpoints)
            if (e.host == h.ref.host && e.port == h.ref.port)
                ep = &e;
        cost_hit(h, ep, r.probed);
        if (windows_script(h) && !h.cost_windows.empty())
            h.cost_windows = "certain, a Windows script: " + h.cost_windows;
        if (h.risky && (h.kind == HitKind::client || r.strict))
            risky_exit = true;
    }
    // Within a rank, risky hits of one (host, port) together: they share a
    // fix, which the text report then says once.
    std::stable_sort(r.hits.begin(), r.hits.end(), [](const ScanHit& a, const ScanHit& b) {
        if (rank(a) != rank(b))
            return rank(a) < rank(b);
        if (!a.risky)
            return false;
        return std::tie(a.ref.port, a.ref.host) < std::tie(b.ref.port, b.ref.host);
    });
    r.exit_code = r.interrupted ? exit_code::interrupted : risky_exit ? 1 : 0;
}

std::string scan_summary(const ScanResult& r) {
    // Every hit is counted once: risky, or else by its kind (clients and
    // config values that cost nothing risky, server binds, harmless), so
    // the numbers add up to the total.
    std::size_t risky = 0;
    std::map<std::string_view, std::size_t> by_reason;
    std::array<std::size_t, 4> by_kind{};
    for (const ScanHit& h : r.hits) {
        if (h.risky) {
            ++risky;
            continue;
        }
        by_kind[static_cast<std::size_t>(h.kind)]++;
        if (h.kind == HitKind::harmless)
            by_reason[h.rule]++;
    }
    std::string out = fmt::format("{} risky of {} hit{} in {} file{}", thousands(risky),
                                  thousands(r.hits.size()), r.hits.size() == 1 ? "" : "s",
                                  thousands(r.files_read), r.files_read == 1 ? "" : "s");
    std::vector<std::string> fine, rest;
    if (by_kind[0])
        fine.push_back(fmt::format("{} client", thousands(by_kind[0])));
    if (by_kind[1])
        fine.push_back(fmt::format("{} config", thousands(by_kind[1])));
    if (!fine.empty())
        rest.push_back(fmt::format("{} not risky", fmt::join(fine, " and ")));
    if (by_kind[2])
        rest.push_back(
            fmt::format("{} server bind{}", thousands(by_kind[2]), by_kind[2] == 1 ? "" : "s"));
    if (!rest.empty())
        out += fmt::format("; {}", fmt::join(rest, ", "));
    std::vector<std::pair<std::size_t, std::string_view>> reasons;
    for (const auto& [rule, n] : by_reason)
        reasons.emplace_back(n, rule);
    std::sort(reasons.begin(), reasons.end(), [](auto& a, auto& b) { return a.first > b.first; });
    out += fmt::format("; {} harmless", thousands(by_kind[3]));
    for (std::size_t i = 0; i < reasons.size(); ++i)
        out += fmt::format("{} {} {}", i == 0 ? ":" : ",", thousands(reasons[i].first),
                           reasons[i].second);
    return out;
}

} // namespace loopcheck
