// The reporters of `loopcheck audit`: a summary line, one row per port
// (who listens where, and what localhost:PORT costs), then the details of
// every port with something to say. Text, JSON and Markdown show the same.
#include "loopcheck/report/audit_report.hpp"

#include "report/json_writer.hpp"
#include "loopcheck/core/listener_queries.hpp"
#include "loopcheck/core/text.hpp"
#include "loopcheck/core/untrusted.hpp"

#include <algorithm>
#include <array>
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

std::string bound_cell(const AuditPort& p) {
    return joined(p.listeners, [](const Listener& l) { return bound_string(l); });
}

std::string owner_cell(const AuditPort& p) {
    return joined(p.listeners, [](const Listener& l) { return owner_string(l); });
}

/// "OK 0.050 ms via 127.0.0.1", "SLOW 0.26 s to 2.03 s (slowest: .NET HttpClient)",
/// "DOWN not reached: 127.0.0.1 refused".
std::string localhost_cell(const TargetReport& t) {
    if (t.resolve_error)
        return "localhost did not resolve";
    const auto& d = t.diagnosis;
    const auto word = d.verdict.substr(0, d.verdict.find(':'));
    const bool connected = std::any_of(d.clients.begin(), d.clients.end(),
                                       [](const auto& c) { return c.prediction.connected; });
    if (!connected) {
        std::vector<std::string> parts;
        for (const auto& a : t.addresses)
            parts.push_back(
                fmt::format("{} {}", ip_string(a.address), outcome_name(a.summary.outcome)));
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

// --- Text. ----------------------------------------------------------------

std::string paint(bool color, std::string_view text, int code) {
    return color ? fmt::format("\033[{}m{}\033[0m", code, text) : std::string(text);
}

} // namespace

std::string render_audit_text(const AuditReport& r, const TextStyle& style) {
    const std::size_t width = static_cast<std::size_t>(std::max(40, style.width));
    std::string out;
    const int summary_color = r.exit_code == 0 ? 32 : (r.exit_code == 1 ? 33 : 31);
    out += paint(style.color, r.summary, summary_color) + "\n";
    if (const auto line = localhost_line(r); !line.empty())
        wrap_into(out, "", line, 2, width);
    if (!r.ports.empty()) {
        std::array<std::string, 4> head{"port", "listening on", "process", "localhost:PORT"};
        std::vector<std::array<std::string, 4>> rows{head};
        for (const auto& p : r.ports)
            rows.push_back({std::to_string(p.port), bound_cell(p), owner_cell(p),
                            localhost_cell(r.check.targets[p.target])});
        // Widths in characters, not bytes: a process name may be UTF-8.
        std::array<std::size_t, 4> w{};
        for (const auto& row : rows)
            for (std::size_t c = 0; c < row.size(); ++c)
                w[c] = std::max(w[c], columns(row[c]));
        out += "\n";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            std::string line;
            for (std::size_t c = 0; c + 1 < rows[i].size(); ++c) {
                line += "  ";
                append_padded(line, rows[i][c], w[c]);
            }
            line += "  " + rows[i].back();
            out += (i == 0 ? paint(style.color, line, 2) : line) + "\n";
        }
    }
    for (const auto& p : r.ports) {
        if (!has_details(p))
            continue;
        out += fmt::format("\n{}\n", paint(style.color, fmt::format("Port {}", p.port), 1));
        for (const auto& f : p.findings) {
            const int color = f.severity == Severity::error     ? 31
                              : f.severity == Severity::warning ? 33
                                                                : 2;
            wrap_into(out,
                      paint(style.color,
                            fmt::format("  {:<8} {}: ", severity_name(f.severity), f.id), color),
                      f.message, 4, width);
        }
        const auto& fixes = r.check.targets[p.target].diagnosis.fixes;
        if (p.exit_code != 0 && !fixes.empty()) {
            out += "  Fix\n";
            for (const auto& f : fixes)
                wrap_into(out, "  - ", f, 4, width);
        }
    }
    out += "\n";
    if (const auto note = footnote(r); !note.empty())
        wrap_into(out, "", note, 2, width);
    wrap_into(out, "",
              fmt::format("System: {} {}; timeout {}, threshold {}", r.check.system.os_name,
                          r.check.system.os_version, format_duration(r.check.timeout),
                          format_duration(r.check.threshold)),
              2, width);
    return out;
}

// --- JSON. ----------------------------------------------------------------

std::string render_audit_json(const AuditReport& r) {
    JsonWriter w;
    w.begin_object();
    w.key("schema").value("loopcheck-audit/1");
    w.key("loopcheck_version").value(r.check.loopcheck_version);
    w.key("command_line").value(r.check.command_line);
    w.key("system");
    json_system(w, r.check.system);
    w.key("settings").begin_object();
    w.key("timeout_ms").number(to_ms(r.check.timeout), 3);
    w.key("threshold_ms").number(to_ms(r.check.threshold), 3);
    w.end_object();
    w.key("listener_table");
    json_listener_table(w, r.check.listener_table);
    w.key("filtered").value(r.filtered);
    w.key("not_audited").value(static_cast<std::int64_t>(r.not_loopback));
    w.key("summary").value(r.summary);
    w.key("incomplete").value(r.check.incomplete);
    w.key("ports").begin_array();
    for (const auto& p : r.ports) {
        w.begin_object();
        w.key("port").value(static_cast<int>(p.port));
        w.key("exit_code").value(p.exit_code);
        w.key("listeners").begin_array();
        for (const auto& l : p.listeners)
            json_listener(w, l);
        w.end_array();
        w.key("findings").begin_array();
        for (const auto& f : p.findings) {
            w.begin_object();
            w.key("id").value(f.id);
            w.key("severity").value(severity_name(f.severity));
            w.key("message").value(f.message);
            w.key("address");
            f.address ? w.value(endpoint_string(*f.address)) : w.null();
            w.end_object();
        }
        w.end_array();
        w.key("localhost");
        json_target(w, r.check.targets[p.target]);
        w.end_object();
    }
    w.end_array();
    w.key("exit_code").value(r.exit_code);
    w.end_object();
    return w.str();
}

// --- Markdown. ------------------------------------------------------------

namespace {

std::string md_cell(std::string_view s) {
    std::string out;
    for (char c : s)
        out += c == '|' ? std::string("\\|") : std::string(1, c == '\n' ? ' ' : c);
    return out;
}

} // namespace

std::string render_audit_markdown(const AuditReport& r) {
    std::string out = fmt::format("## loopcheck audit\n\n**{}**\n\n", escape_markdown(r.summary));
    out += fmt::format(
        "- loopcheck {} on {} {}\n- command: {}\n", r.check.loopcheck_version, r.check.system.os_name,
        r.check.system.os_version,
        markdown_code(escape_controls(r.check.command_line), MarkdownPlace::inline_text));
    if (const auto line = localhost_line(r); !line.empty())
        out += fmt::format("- {}\n", escape_markdown(line));
    if (const auto note = footnote(r); !note.empty())
        out += fmt::format("- {}\n", escape_markdown(note));
    if (!r.ports.empty()) {
        out += "\n| port | listening on | process | localhost:PORT |\n|---|---|---|---|\n";
        for (const auto& p : r.ports)
            out += fmt::format("| {} | `{}` | {} | {} |\n", p.port, md_cell(bound_cell(p)),
                               escape_markdown(owner_cell(p)),
                               escape_markdown(localhost_cell(r.check.targets[p.target])));
    }
    for (const auto& p : r.ports) {
        if (!has_details(p))
            continue;
        out += fmt::format("\n### Port {}\n\n", p.port);
        for (const auto& f : p.findings)
            out += fmt::format("- **{}** `{}`: {}\n", severity_name(f.severity), f.id,
                               escape_markdown(f.message));
        const auto& fixes = r.check.targets[p.target].diagnosis.fixes;
        if (p.exit_code != 0 && !fixes.empty()) {
            out += "\n**Fix**\n\n";
            for (const auto& f : fixes)
                out += fmt::format("- {}\n", escape_markdown(f));
        }
    }
    return out;
}

} // namespace loopcheck
