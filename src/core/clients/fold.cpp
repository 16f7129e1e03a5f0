// The client rows folded by outcome (issue 24): groups of clients that pay
// the same, each client's run of version rows named once.
#include "loopcheck/core/clients/fold.hpp"

#include "loopcheck/core/input/duration.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace loopcheck {

namespace {

/// The client's name without its version range: "Node.js 17 to 19" ->
/// "Node.js", "curl < 7.78" -> "curl", "Go net.Dial >= 1.21" -> "Go
/// net.Dial". The first word that starts a version (a digit, "<", ">=")
/// ends it.
std::string base_name(const std::string& client) {
    std::size_t pos = 0;
    while (pos < client.size()) {
        const auto space = client.find(' ', pos);
        if (space == std::string::npos)
            break;
        const char next = space + 1 < client.size() ? client[space + 1] : ' ';
        if ((next >= '0' && next <= '9') || next == '<' || next == '>')
            return client.substr(0, space);
        pos = space + 1;
    }
    return client;
}

/// "Python" of "Python aiohttp < 3.10", "Node.js" of "Node.js, autoSelectFamily:
/// false": the first word, a trailing comma dropped.
std::string first_word(const std::string& client) {
    auto word = client.substr(0, client.find(' '));
    if (!word.empty() && word.back() == ',')
        word.pop_back();
    return word;
}

bool same_outcome(const ConnectPrediction& a, const ConnectPrediction& b) {
    return a.connected == b.connected && a.lower_bound == b.lower_bound;
}

/// Within half again or 1 ms of the group's fastest: one cost to a person
/// reading a screen (200 and 300 ms; 0.2 and 0.9 ms), not 2.03 s and 3.3 s.
bool close_enough(Micros fastest, Micros t) {
    const auto slack = std::max(Micros{1'000}, fastest / 2);
    return t <= fastest + slack;
}

/// A run of rows [first, last] of one client id, as one name.
std::string run_name(std::span<const ClientImpact> rows, std::span<const std::size_t> run,
                     bool starts_id, bool ends_id) {
    const auto& first = rows[run.front()];
    const auto& last = rows[run.back()];
    if (run.size() == 1 && !(starts_id && ends_id))
        return first.client;
    const auto base = base_name(first.client);
    if (starts_id && ends_id)
        return base;
    if (starts_id && last.below_version)
        return fmt::format("{} < {}", base, *last.below_version);
    if (ends_id && first.min_version)
        return fmt::format("{} >= {}", base, *first.min_version);
    // "and", not a comma: group_names() joins names with commas.
    if (first.min_version && last.below_version)
        return fmt::format("{} >= {} and < {}", base, *first.min_version, *last.below_version);
    return fmt::format("{} ({} versions)", base, run.size());
}

/// The group's names from its members (rows indexes, any order): runs of
/// consecutive rows of one id are one name, in table order.
void name_members(std::span<const ClientImpact> rows, std::vector<std::size_t>& m, ClientGroup& g) {
    std::sort(m.begin(), m.end()); // table order
    g.rows = m.size();
    for (std::size_t s = 0; s < m.size();) {
        std::size_t e = s + 1;
        while (e < m.size() && m[e] == m[e - 1] + 1 && rows[m[e]].id == rows[m[s]].id)
            ++e;
        const auto& id = rows[m[s]].id;
        const bool starts_id = m[s] == 0 || rows[m[s] - 1].id != id;
        const bool ends_id = m[e - 1] + 1 == rows.size() || rows[m[e - 1] + 1].id != id;
        g.names.push_back(
            run_name(rows, std::span<const std::size_t>(m).subspan(s, e - s), starts_id, ends_id));
        s = e;
    }
}

const ConnectPrediction* pick(const ClientImpact& c, FoldOn on) {
    if (on == FoldOn::here)
        return &c.prediction;
    return c.windows ? &*c.windows : nullptr;
}

} // namespace

std::optional<ClientGroup> failing_clients(std::span<const ClientImpact> rows, FoldOn on) {
    std::vector<std::size_t> m;
    ClientGroup g;
    g.lower_bound = true;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto* p = pick(rows[i], on);
        if (!p || p->connected)
            continue;
        g.fastest = m.empty() ? p->time : std::min(g.fastest, p->time);
        g.slowest = std::max(g.slowest, p->time);
        g.lower_bound = g.lower_bound && p->lower_bound; // ">=" only when every time is one
        m.push_back(i);
    }
    if (m.empty())
        return std::nullopt;
    name_members(rows, m, g);
    return g;
}

std::vector<ClientGroup> fold_clients(std::span<const ClientImpact> rows, FoldOn on) {
    auto pick = [on](const ClientImpact& c) { return loopcheck::pick(c, on); };
    // Rows by outcome, then time: a group is a run of this order.
    std::vector<std::size_t> order;
    order.reserve(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (pick(rows[i]))
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto &pa = *pick(rows[a]), &pb = *pick(rows[b]);
        if (pa.connected != pb.connected)
            return !pa.connected; // failures first
        if (pa.lower_bound != pb.lower_bound)
            return pa.lower_bound;
        return pa.time < pb.time;
    });
    std::vector<std::vector<std::size_t>> members;
    std::vector<ClientGroup> groups;
    for (const auto i : order) {
        const auto& p = *pick(rows[i]);
        if (groups.empty() || !same_outcome(*pick(rows[members.back().front()]), p) ||
            !close_enough(groups.back().fastest, p.time)) {
            groups.push_back({p.connected, p.time, p.time, p.lower_bound, {}, 0});
            members.emplace_back();
        }
        groups.back().slowest = p.time;
        members.back().push_back(i);
    }
    for (std::size_t g = 0; g < groups.size(); ++g)
        name_members(rows, members[g], groups[g]);
    // Slowest first among those that connect: the cost a reader looks for.
    std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
        if (a.connected != b.connected)
            return !a.connected;
        return a.slowest > b.slowest;
    });
    return groups;
}

std::string group_span(const ClientGroup& g) {
    const std::string bound = g.lower_bound ? ">= " : "";
    // A range only where the members' times read differently; the unit once
    // where both ends share it ("200 to 300 ms").
    const auto lo = format_duration(g.fastest), hi = format_duration(g.slowest);
    std::string t;
    if (lo == hi || g.lower_bound) {
        t = fmt::format("{}{}", bound, hi);
    } else {
        const auto lo_space = lo.rfind(' '), hi_space = hi.rfind(' ');
        const bool same_unit = lo_space != std::string::npos && hi_space != std::string::npos &&
                               lo.substr(lo_space) == hi.substr(hi_space);
        t = same_unit ? fmt::format("{} to {}", lo.substr(0, lo_space), hi)
                      : fmt::format("{} to {}", lo, hi);
    }
    return t;
}

std::string group_time(const ClientGroup& g) {
    return g.connected ? group_span(g) : fmt::format("fails after {}", group_span(g));
}

std::string group_names(const ClientGroup& g) {
    std::string out;
    std::string previous_base;
    std::string previous_word;
    for (const auto& name : g.names) {
        const auto base = base_name(name);
        const auto word = first_word(name);
        if (!out.empty())
            out += ", ";
        // "curl 7.78.0 to 8.2.0, >= 8.22": a client's name once in a row;
        // "Python requests / urllib, aiohttp < 3.10": a language once too,
        // but not before a name of its own ("Java java.net.Socket, Java
        // HttpClient": a bare "HttpClient" would read as .NET's).
        const auto rest = name.size() > word.size() + 1 ? name.substr(word.size() + 1) : "";
        if (base == previous_base && name.size() > base.size())
            out += name.substr(base.size() + 1);
        else if (word == previous_word && !rest.empty() && !rest.starts_with("with ") &&
                 !(rest[0] >= 'A' && rest[0] <= 'Z'))
            out += rest;
        else
            out += name;
        previous_base = base;
        previous_word = word;
    }
    return out;
}

} // namespace loopcheck
