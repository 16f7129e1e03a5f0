// The Markdown report, made to be pasted into a GitHub or GitLab issue.
#include "loopcheck/core/client_fold.hpp"
#include "loopcheck/core/listener_queries.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/report/markdown.hpp"
#include "report/finding_order.hpp"
#include "report/phrasing.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

namespace {

/// Table cells must not break the table: escape pipes, drop newlines.
std::string cell(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n' || c == '\r')
            out += ' ';
        else
            out += c;
    }
    return out;
}

std::string latency(const Summary& s, int count) {
    if (s.count == 0)
        return "-";
    if (count <= 1)
        return format_duration(s.median);
    return format_spread(s.min, s.median, s.max);
}

std::string prediction_text(const ConnectPrediction& p) {
    const std::string bound = p.lower_bound ? ">= " : "";
    if (p.connected)
        return fmt::format("{}{} via `{}`", bound, format_duration(p.time),
                           endpoint_string(*p.via));
    return fmt::format("fails after {}{}", bound, format_duration(p.time));
}

/// Five columns at most, so the table fits a ticket's width (issue 24):
/// the outcome, the OS's error name where the outcome does not imply it,
/// and the latency share one cell.
void address_table(std::string& out, const TargetReport& t, int count) {
    // The paired column only where some address was paired (Windows).
    const bool paired = std::any_of(t.addresses.begin(), t.addresses.end(), [](auto& a) {
        return a.summary.fast_latency || a.summary.fast_option_refused;
    });
    out +=
        fmt::format("| # | address | outcome, latency{} |{} SYN rtx |\n",
                    count > 1 ? " median [min..max]" : "", paired ? " without SYN retries |" : "");
    out += paired ? "|---|---|---|---|---|\n" : "|---|---|---|---|\n";
    for (std::size_t i = 0; i < t.addresses.size(); ++i) {
        const auto& a = t.addresses[i];
        const auto& s = a.summary;
        // The paired probe's outcome only where it differs (as in the text).
        std::string fast = !s.fast_latency ? (s.fast_option_refused ? "option refused" : "-")
                           : *s.fast_outcome == s.outcome
                               ? latency(*s.fast_latency, count)
                               : fmt::format("{} {}", outcome_name(*s.fast_outcome),
                                             latency(*s.fast_latency, count));
        const std::string detail = native_name_implied(s) || s.native_name.empty()
                                       ? std::string()
                                       : fmt::format(" ({})", s.native_name);
        out +=
            fmt::format("| {} | `{}` | {}{}{} {} |{} {} |\n", i + 1, endpoint_string(a.address),
                        summary_outcome_name(s), s.mixed ? " (mixed)" : "", cell(detail),
                        latency(s.latency, count), paired ? fmt::format(" {} |", cell(fast)) : "",
                        s.syn_retransmissions ? std::to_string(*s.syn_retransmissions) : "n/a");
    }
}

/// Who listens on the target's port (platform::list_listeners).
void listener_table(std::string& out, const TargetReport& t) {
    if (!t.listeners)
        return;
    if (t.listeners->empty()) {
        out += fmt::format("\nNothing listens on port {} on this machine.\n", t.target.port);
        return;
    }
    out += fmt::format("\n**Listening on port {}**\n\n| address | process | pid | IPV6_V6ONLY |\n"
                       "|---|---|---|---|\n",
                       t.target.port);
    for (const auto& l : *t.listeners)
        out += fmt::format("| `{}` | {} | {} | {} |\n", endpoint_string(l.bound),
                           l.process.empty() ? "-" : l.process.markdown(MarkdownPlace::table_cell),
                           l.pid ? std::to_string(*l.pid) : "hidden",
                           l.v6only ? (*l.v6only ? "on" : "off") : "-");
}

void raw_samples(std::string& out, const Report& r) {
    out += "<details>\n<summary>Raw samples</summary>\n\n```\n";
    for (const auto& t : r.targets) {
        for (const auto& a : t.addresses) {
            auto dump = [&](const std::vector<Sample>& list, std::string_view kind) {
                for (std::size_t i = 0; i < list.size(); ++i) {
                    const auto& s = list[i];
                    out += fmt::format(
                        "{} {} {} round={} {} {:.3f}ms {} syn_rtx={} option={}\n", t.target.input,
                        endpoint_string(a.address), kind, i + 1, sample_outcome_name(s),
                        to_ms(s.latency), s.native_name.empty() ? "-" : s.native_name,
                        s.syn_retransmissions ? std::to_string(*s.syn_retransmissions) : "n/a",
                        option_state_name(s.option));
                }
            };
            dump(a.samples, "default");
            dump(a.fast_samples, "no-syn-retries");
        }
    }
    out += "```\n\n</details>\n";
}

/// The verdicts, the run's settings and the self-check.
void header(std::string& out, const Report& r) {
    for (const auto& t : r.targets)
        out += fmt::format("**{}**  \n", escape_markdown(phrasing::verdict(t.diagnosis.verdict)));
    if (r.incomplete)
        out += "**INCOMPLETE: interrupted before every probe finished**  \n";
    if (!r.quick_note.empty())
        out += fmt::format("\n{}\n", r.quick_note);
    out += fmt::format("\n- loopcheck {} on {} {}\n- command: {}\n- timeout {}, threshold {}, "
                       "{} round(s)\n",
                       r.loopcheck_version, r.system.os_name, r.system.os_version,
                       markdown_code(escape_controls(r.command_line), MarkdownPlace::inline_text),
                       format_duration(r.timeout), format_duration(r.threshold), r.count);
    for (const auto& [k, v] : r.system.tcp_settings)
        out += fmt::format("- {} = {}\n", markdown_code(k, MarkdownPlace::inline_text),
                           escape_markdown(v));
    if (r.listener_table.error)
        out += fmt::format("- listeners: unavailable ({})\n",
                           escape_markdown(*r.listener_table.error));
    else if (!r.listener_table.limits.empty())
        out += fmt::format("- listeners: {}\n", escape_markdown(r.listener_table.limits));
    if (r.self_check) {
        out += "\n### Self-check\n\n";
        for (const auto& s : r.self_check->statements)
            out += fmt::format("- {}\n", escape_markdown(s));
    }
}

/// Where the target's addresses came from, the address table, curl's own
/// localhost probes and who listens.
void addresses_section(std::string& out, const TargetReport& t, const Report& r) {
    if (t.resolve_error) {
        out += fmt::format("{}\n", escape_markdown(t.resolve_error->message));
    } else {
        out += fmt::format("{} resolves to {} address(es), probed in this order:\n\n",
                           t.target.literal ? "The literal" : fmt::format("`{}`", t.target.host),
                           t.addresses.size());
        if (t.resolution) {
            for (const auto& l : t.resolution->hosts_lines)
                out += fmt::format("- {} line {}: {}\n",
                                   markdown_code(r.system.hosts_file, MarkdownPlace::inline_text),
                                   l.number, l.text.markdown(MarkdownPlace::inline_text));
            if (!t.resolution->note.empty())
                out += fmt::format("- {}\n", escape_markdown(t.resolution->note));
            out += "\n";
        }
        address_table(out, t, r.count);
        for (const auto& a : t.curl_localhost)
            out +=
                fmt::format("\nAlso probed for curl, which answers `{}` itself: `{}` {} "
                            "{} (not in the resolver's answer; used by the curl rows "
                            "only).\n",
                            cell(t.target.host), endpoint_string(a.address),
                            summary_outcome_name(a.summary), latency(a.summary.latency, r.count));
        listener_table(out, t);
        for (const auto& a : t.addresses) {
            if (!a.summary.fast_option_refused)
                continue;
            const auto& why = a.summary.fast_option_error;
            out += fmt::format("\nSIO_TCP_INITIAL_RTO (no SYN retries) was refused by the "
                               "OS{}: only default probes ran.\n",
                               why.empty() ? "" : fmt::format(" (`{}`)", why));
            break;
        }
    }
}

/// The findings, most severe first.
void findings_section(std::string& out, const TargetReport& t) {
    if (!t.diagnosis.findings.empty()) {
        out += "\n**Findings**\n\n";
        for (const auto* f : by_severity(t.diagnosis.findings))
            out += fmt::format("- **{}** `{}`{}: {}\n", severity_name(f->severity), f->id,
                               f->cause.empty() ? "" : fmt::format(" ({})", f->cause),
                               escape_markdown(phrasing::finding(*f)));
    }
}

/// A prediction as a short cell: "2.03 s", "fails at 0.700 ms".
std::string time_cell(const ConnectPrediction& p) {
    const auto t = fmt::format("{}{}", p.lower_bound ? ">= " : "", format_duration(p.time));
    return p.connected ? t : fmt::format("fails at {}", t);
}

/// What each client pays: one line when every model agrees; else the rows
/// folded by outcome, and every row in a <details> table of three columns
/// (the algorithms are in the JSON and in `-v`'s text).
void clients_section(std::string& out, const TargetReport& t) {
    const auto& clients = t.diagnosis.clients;
    if (clients.empty())
        return;
    if (t.diagnosis.clients_agree && t.diagnosis.clients_agree_on_windows) {
        const auto& p = clients.front().prediction;
        out +=
            fmt::format("\nEvery client model {}.\n",
                        p.connected ? fmt::format("connects in about {} via `{}`",
                                                  format_duration(p.time), endpoint_string(*p.via))
                                    : fmt::format("fails after about {}", format_duration(p.time)));
        return;
    }
    const bool windows = std::any_of(clients.begin(), clients.end(),
                                     [](const auto& c) { return c.windows.has_value(); });
    out += "\n**What clients pay to connect** (modelled from the times above)\n\n";
    for (const auto& g : fold_clients(clients, FoldOn::here))
        out += fmt::format("- {}: {}\n", group_time(g),
                           escape_markdown(fmt::format("{}", fmt::join(g.names, ", "))));
    if (windows && !t.diagnosis.clients_agree_on_windows) {
        out += "\nThe same set-up on Windows:\n\n";
        for (const auto& g : fold_clients(clients, FoldOn::windows))
            out += fmt::format("- {}: {}\n", group_time(g),
                               escape_markdown(fmt::format("{}", fmt::join(g.names, ", "))));
    }
    out += fmt::format("\n<details>\n<summary>Each client ({} rows)</summary>\n\n", clients.size());
    out += windows ? "| client | here | on Windows |\n|---|---|---|\n"
                   : "| client | here |\n|---|---|\n";
    for (const auto& c : clients) {
        out += fmt::format("| {} | {} |", cell(c.client), time_cell(c.prediction));
        if (windows)
            out += fmt::format(" {} |", c.windows ? time_cell(*c.windows) : "-");
        out += "\n";
    }
    out += "\n</details>\n";
}

void emulations_section(std::string& out, const TargetReport& t) {
    if (!t.emulations.empty()) {
        out += "\n**Emulated clients** (`--emulate`, measured here beside the model)\n\n";
        out += "| strategy | measured (median round) | model | rounds off model |\n"
               "|---|---|---|---|\n";
        for (const auto& e : t.emulations)
            out +=
                fmt::format("| {} | {} | {} | {} |\n", cell(e.spec.label),
                            cell(prediction_text(e.measured)), cell(prediction_text(e.predicted)),
                            e.rounds_off_model > 0
                                ? fmt::format("**{} of {}**", e.rounds_off_model, e.rounds.size())
                                : fmt::format("0 of {}", e.rounds.size()));
    }
}

void fixes_section(std::string& out, const TargetReport& t) {
    if (!t.diagnosis.fixes.empty()) {
        out += "\n**Fix**\n\n";
        for (const auto& f : t.diagnosis.fixes)
            out += fmt::format("- {}\n", escape_markdown(phrasing::fix(f)));
    }
}

/// The self-check's probes in one table: its listener and closed ports are
/// its own, so their sections would repeat the statements (issue 24: 159
/// lines and three client tables).
void self_check_probes(std::string& out, const Report& r) {
    out += "\n| probe | address | outcome, latency | SYN rtx |\n|---|---|---|---|\n";
    for (const auto& t : r.targets)
        for (const auto& a : t.addresses)
            out += fmt::format("| {} | `{}` | {} {} | {} |\n",
                               markdown_code(t.target.input, MarkdownPlace::table_cell),
                               endpoint_string(a.address), summary_outcome_name(a.summary),
                               latency(a.summary.latency, r.count),
                               a.summary.syn_retransmissions
                                   ? std::to_string(*a.summary.syn_retransmissions)
                                   : "n/a");
}

} // namespace

std::string render_markdown(const Report& r) {
    std::string out = "## loopcheck report\n\n";
    header(out, r);
    if (r.self_check) {
        self_check_probes(out, r);
        out += "\n";
        raw_samples(out, r);
        return out;
    }
    for (const auto& t : r.targets) {
        out +=
            fmt::format("\n### {}\n\n", markdown_code(t.target.input, MarkdownPlace::inline_text));
        addresses_section(out, t, r);
        findings_section(out, t);
        clients_section(out, t);
        emulations_section(out, t);
        fixes_section(out, t);
    }
    out += "\n";
    raw_samples(out, r);
    return out;
}

} // namespace loopcheck
