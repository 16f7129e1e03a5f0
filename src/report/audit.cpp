// `loopcheck audit` as one document: a summary, one row per port (who
// listens where, and what localhost:PORT costs), then every port with
// something to say, ports that say the same together; written as text and
// as Markdown for a ticket.
#include "loopcheck/core/listeners/queries.hpp"
#include "loopcheck/core/text/text.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "report/document.hpp"
#include "report/finding_order.hpp"
#include "report/phrasing.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

namespace {

using namespace doc;

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

/// Where a port's listeners are bound: "127.0.0.1, [::1]".
std::string bound_cell(const AuditPort& p) {
    return joined(p.listeners, [](const Listener& l) { return bound_string(l); });
}

/// Who listens: "python3 (pid 4242)".
std::string owner_cell(const AuditPort& p) {
    return joined(p.listeners, [](const Listener& l) { return owner_string(l); });
}

/// "OK 0.050 ms via 127.0.0.1", "SLOW 0.26 s to 2.03 s (slowest: .NET HttpClient)",
/// "DOWN not reached: 127.0.0.1 refused".
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

/// What localhost resolves to here, in one line.
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

/// What the table could not show, or "" when nothing.
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

/// Whether a port has findings or fixes to list below the table.
bool has_details(const AuditPort& p) {
    return !p.findings.empty();
}

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

/// Ports whose details read the same (the same findings, the same fixes):
/// one paragraph for all of them, in the table's order. Each group holds
/// indices into AuditReport::ports; ports without details are left out.
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

/// "Port 8000", "Ports 8000, 8080 and 9000".
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

/// One row per port: who listens where, and what localhost:PORT costs.
Table port_table(const AuditReport& r) {
    Table t{.columns = {{{literal("port")}},
                        {{literal("listening on")}},
                        {{literal("process")}},
                        {{literal("localhost:PORT")}}}};
    t.rows.reserve(r.ports.size());
    for (const auto& p : r.ports)
        t.rows.push_back({Cell{{literal(std::to_string(p.port))}}, Cell{{code(bound_cell(p))}},
                          Cell{{prose(owner_cell(p))}},
                          Cell{{prose(localhost_cell(r.check.targets[p.target]))}}});
    return t;
}

Tone severity_tone(Severity s) {
    return s == Severity::error ? Tone::red : s == Severity::warning ? Tone::yellow : Tone::dim;
}

/// Every port with something to say; ports whose details read the same
/// share one paragraph.
void detail_sections(Document& d, const AuditReport& r) {
    for (const auto& group : detail_groups(r)) {
        const auto& p = r.ports[group.front()];
        d.add(Gap{});
        d.add(
            Paragraph{.body = {literal(ports_heading(r, group))}, .level = 3, .tone = Tone::bold});
        List findings;
        for (const auto* f : by_severity(p.findings)) {
            const std::string severity(severity_name(f->severity));
            findings.items.push_back(
                {.lead = {only(Media::text, literal("  ")), strong(literal(severity)),
                          only(Media::text,
                               literal(std::string(severity.size() < 8 ? 8 - severity.size() : 0,
                                                   ' '))),
                          literal(" "), code(f->id), literal(": ")},
                 .body = {prose(phrasing::finding(*f))},
                 .hang = 4,
                 .lead_tone = severity_tone(f->severity)});
        }
        d.add(std::move(findings));
        const auto& fixes = r.check.targets[p.target].diagnosis.fixes;
        if (p.exit_code != 0 && !fixes.empty()) {
            d.add(Paragraph{.body = {only(Media::text, literal("  ")), strong(literal("Fix"))},
                            .wrap = false});
            List list;
            for (const auto& f : fixes)
                list.items.push_back({.lead = {only(Media::text, literal("  - "))},
                                      .body = {prose(phrasing::fix(f))},
                                      .hang = 4});
            d.add(std::move(list));
        }
    }
}

Document audit_document(const AuditReport& r) {
    Document d;
    d.add(Paragraph{.body = {literal("loopcheck audit")}, .level = 2, .media = Media::markdown});
    d.add(Paragraph{.body = {strong(prose(r.summary))},
                    .tone = r.exit_code == 0   ? Tone::green
                            : r.exit_code == 1 ? Tone::yellow
                                               : Tone::red});
    // Markdown's provenance for a ticket, with what localhost resolves to
    // and the table's footnote; the terminal shows those two as paragraphs.
    const auto& sys = r.check.system;
    List about{
        .items = {{.body = {literal(fmt::format("loopcheck {} on {} {}", r.check.loopcheck_version,
                                                sys.os_name, sys.os_version))},
                   .media = Media::markdown},
                  {.body = {literal("command: "), code(r.check.command_line)},
                   .media = Media::markdown}}};
    if (const auto line = localhost_line(r); !line.empty())
        about.items.push_back({.body = {prose(line)}});
    const auto note = footnote(r);
    if (!note.empty())
        about.items.push_back({.body = {prose(note)}, .media = Media::markdown});
    d.add(std::move(about));
    if (!r.ports.empty()) {
        d.add(Gap{});
        d.add(port_table(r));
    }
    detail_sections(d, r);
    d.add(Gap{});
    if (!note.empty())
        d.add(Paragraph{.body = {prose(note)}, .media = Media::text});
    d.add(Paragraph{.body = {prose(fmt::format(
                        "System: {} {}; timeout {}, threshold {}", sys.os_name, sys.os_version,
                        format_duration(r.check.timeout), format_duration(r.check.threshold)))},
                    .media = Media::text});
    return d;
}

} // namespace

std::string render_text(const AuditReport& r, const TextStyle& style) {
    return to_terminal(audit_document(r), style);
}

std::string render_markdown(const AuditReport& r) {
    return to_markdown(audit_document(r));
}

} // namespace loopcheck
