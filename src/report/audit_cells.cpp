// `loopcheck audit`'s cells and lines, shared by its text and Markdown.
#include "report/audit_cells.hpp"

#include "loopcheck/core/listener_queries.hpp"
#include "loopcheck/core/text.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "report/phrasing.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

namespace {

/// Distinct values in first-seen order, joined with ", ".
template <class F>
std::string joined(const std::vector<Listener>& listeners, F to_text) {
    std::vector<std::string> seen;
    for (const auto& l : listeners) {
        auto s = to_text(l);
        if (std::find(seen.begin(), seen.end(), s) == seen.end())
            seen.push_back(std::move(s));
    }
    return fmt::format("{}", fmt::join(seen, ", "));
}

} // namespace

std::string bound_cell(const AuditPort& p) {
    return joined(p.listeners, [](const Listener& l) { return bound_string(l); });
}

std::string owner_cell(const AuditPort& p) {
    return joined(p.listeners, [](const Listener& l) { return owner_string(l); });
}

std::string localhost_cell(const TargetReport& t) {
    if (t.resolve_error)
        return "localhost did not resolve";
    const auto& d = t.diagnosis;
    const auto word = d.verdict.word;
    const bool connected = std::any_of(d.clients.begin(), d.clients.end(),
                                       [](const auto& c) { return c.prediction.connected; });
    if (!connected) {
        std::vector<std::string> parts;
        for (const auto& a : t.addresses)
            parts.push_back(
                fmt::format("{} {}", ip_string(a.address), summary_outcome_name(a.summary)));
        return fmt::format("{} not reached: {}", word, fmt::join(parts, ", "));
    }
    if (d.clients_agree) {
        const auto& p = d.clients.front().prediction;
        return fmt::format("{} {} via {}", word, format_duration(p.time), ip_string(*p.via));
    }
    // The spread of the rows that connect; rows that fail are counted.
    std::vector<const ClientImpact*> ok;
    for (const auto& c : d.clients)
        if (c.prediction.connected)
            ok.push_back(&c);
    const auto [fast, slow] = std::minmax_element(ok.begin(), ok.end(), [](auto* a, auto* b) {
        return a->prediction.time < b->prediction.time;
    });
    const auto failing = d.clients.size() - ok.size();
    return fmt::format("{} {} to {} (slowest: {}){}", word,
                       format_duration((*fast)->prediction.time),
                       format_duration((*slow)->prediction.time), (*slow)->client,
                       failing > 0 ? fmt::format("; {} client row(s) fail", failing) : "");
}

std::string localhost_line(const AuditReport& r) {
    if (r.ports.empty())
        return {};
    const auto& t = r.check.targets[r.ports.front().target];
    if (t.resolve_error)
        return t.resolve_error->message;
    std::vector<std::string> ips;
    for (const auto& a : t.addresses)
        ips.push_back(ip_string(a.address));
    return fmt::format("localhost resolves to {} here (in this order).", fmt::join(ips, ", "));
}

std::string footnote(const AuditReport& r) {
    std::vector<std::string> notes;
    const auto& s = r.check.listener_table;
    if (!s.limits.empty())
        notes.push_back(s.limits);
    if (r.not_loopback > 0)
        notes.push_back(fmt::format("{} listener(s) on other addresses were not audited (no "
                                    "loopback client reaches them)",
                                    r.not_loopback));
    return notes.empty() ? std::string() : fmt::format("Listeners: {}.", fmt::join(notes, "; "));
}

bool has_details(const AuditPort& p) {
    return !p.findings.empty();
}

namespace {

/// What a port's paragraph says, as one string to compare.
std::string details_key(const AuditReport& r, const AuditPort& p) {
    std::string key;
    // Ports whose paragraphs read the same share one: the words compared
    // are the ones the paragraph shows.
    for (const auto& f : p.findings)
        key += fmt::format("{}\x1f{}\x1f{}\x1e", severity_name(f.severity), f.id,
                           phrasing::finding(f));
    if (p.exit_code != 0)
        for (const auto& fix : r.check.targets[p.target].diagnosis.fixes)
            key += phrasing::fix(fix) + "\x1e";
    return key;
}

} // namespace

std::vector<std::vector<std::size_t>> detail_groups(const AuditReport& r) {
    std::vector<std::vector<std::size_t>> groups;
    std::vector<std::string> keys;
    for (std::size_t i = 0; i < r.ports.size(); ++i) {
        if (!has_details(r.ports[i]))
            continue;
        auto key = details_key(r, r.ports[i]);
        const auto at = std::find(keys.begin(), keys.end(), key);
        if (at == keys.end()) {
            keys.push_back(std::move(key));
            groups.push_back({i});
        } else {
            groups[static_cast<std::size_t>(at - keys.begin())].push_back(i);
        }
    }
    return groups;
}

std::string ports_heading(const AuditReport& r, const std::vector<std::size_t>& group) {
    if (group.size() == 1)
        return fmt::format("Port {}", r.ports[group.front()].port);
    std::string out = "Ports ";
    for (std::size_t i = 0; i < group.size(); ++i) {
        if (i > 0)
            out += i + 1 == group.size() ? " and " : ", ";
        out += std::to_string(r.ports[group[i]].port);
    }
    return out;
}

// --- Text. ----------------------------------------------------------------

} // namespace loopcheck
