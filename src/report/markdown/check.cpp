// The Markdown report, made to be pasted into a GitHub or GitLab issue: a
// document (report/document.hpp) written by the Markdown back-end. The
// terminal report (report/text/check.cpp) does not use it yet.
#include "loopcheck/core/clients/fold.hpp"
#include "loopcheck/core/listeners/queries.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/report/markdown.hpp"
#include "report/document.hpp"
#include "report/finding_order.hpp"
#include "report/phrasing.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

namespace {

using namespace doc;

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

/// A Markdown cell already written (numbers, names, `code` a cell() keeps).
Cell md(std::string s) {
    return Cell{{literal(std::move(s))}};
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

/// A bold label and its note, a paragraph of its own: "**Fix**".
Paragraph label(std::string bold, std::string rest = {}) {
    return Paragraph{.body = {strong(literal(std::move(bold))), literal(std::move(rest))}};
}

List items(const std::vector<std::string>& texts) {
    List l;
    for (const auto& t : texts)
        l.items.push_back({.body = {prose(t)}});
    return l;
}

/// Five columns at most, so the table fits a ticket's width (issue 24):
/// the outcome, the OS's error name where the outcome does not imply it,
/// and the latency share one cell.
Table address_table(const TargetReport& t, int count) {
    // The paired column only where some address was paired (Windows).
    const bool paired = std::any_of(t.addresses.begin(), t.addresses.end(), [](auto& a) {
        return a.summary.fast_latency || a.summary.fast_option_refused;
    });
    Table table{.columns = {{{literal("#")}},
                            {{literal("address")}},
                            {{literal(fmt::format("outcome, latency{}",
                                                  count > 1 ? " median [min..max]" : ""))}},
                            {{literal("without SYN retries")}, paired ? Media::both : Media::text},
                            {{literal("SYN rtx")}}}};
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
        table.rows.push_back(
            {md(std::to_string(i + 1)), Cell{{code(endpoint_string(a.address))}},
             md(fmt::format("{}{}{} {}", summary_outcome_name(s), s.mixed ? " (mixed)" : "",
                            cell(detail), latency(s.latency, count))),
             md(cell(fast)),
             md(s.syn_retransmissions ? std::to_string(*s.syn_retransmissions) : "n/a")});
    }
    return table;
}

/// Who listens on the target's port (platform::list_listeners).
void listener_table(Document& d, const TargetReport& t) {
    if (!t.listeners)
        return;
    if (t.listeners->empty()) {
        d.add(Paragraph{.body = {literal(fmt::format("Nothing listens on port {} on this machine.",
                                                     t.target.port))}});
        return;
    }
    d.add(label(fmt::format("Listening on port {}", t.target.port)));
    Table table{.columns = {{{literal("address")}},
                            {{literal("process")}},
                            {{literal("pid")}},
                            {{literal("IPV6_V6ONLY")}}}};
    for (const auto& l : *t.listeners)
        table.rows.push_back({Cell{{code(endpoint_string(l.bound))}},
                              l.process.empty() ? md("-") : Cell{{untrusted(l.process)}},
                              md(l.pid ? std::to_string(*l.pid) : "hidden"),
                              md(l.v6only ? (*l.v6only ? "on" : "off") : "-")});
    d.add(std::move(table));
}

std::string raw_samples(const Report& r) {
    std::string out = "<details>\n<summary>Raw samples</summary>\n\n```\n";
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
    return out + "```\n\n</details>\n";
}

/// The verdicts, the run's settings and the self-check.
void header(Document& d, const Report& r) {
    Paragraph verdicts; // one line each, hard line breaks between
    for (const auto& t : r.targets) {
        if (!verdicts.body.empty())
            verdicts.body.push_back(literal("\n"));
        verdicts.body.insert(
            verdicts.body.end(),
            {strong(prose(phrasing::verdict(t.diagnosis.verdict))), literal("  ")});
    }
    if (r.incomplete) {
        if (!verdicts.body.empty())
            verdicts.body.push_back(literal("\n"));
        verdicts.body.insert(
            verdicts.body.end(),
            {strong(literal("INCOMPLETE: interrupted before every probe finished")),
             literal("  ")});
    }
    if (verdicts.body.empty())
        d.add(Gap{Media::markdown});
    else
        d.add(std::move(verdicts));
    if (!r.quick_note.empty())
        d.add(Paragraph{.body = {literal(r.quick_note)}});
    List facts;
    facts.items.push_back(
        {.body = {literal(fmt::format("loopcheck {} on {} {}", r.loopcheck_version,
                                      r.system.os_name, r.system.os_version))}});
    facts.items.push_back({.body = {literal("command: "), code(r.command_line)}});
    if (const std::string machine = phrasing::machine_line(r.system); !machine.empty())
        facts.items.push_back({.body = {literal("machine: "), prose(machine)}});
    for (const auto& [k, v] : r.system.proxies)
        facts.items.push_back({.body = {literal("proxy: "), code(fmt::format("{}={}", k, v))}});
    facts.items.push_back({.body = {literal(fmt::format("timeout {}, threshold {}, {} round(s)",
                                                        format_duration(r.timeout),
                                                        format_duration(r.threshold), r.count))}});
    for (const auto& [k, v] : r.system.tcp_settings)
        facts.items.push_back({.body = {code(k), literal(" = "), prose(v)}});
    if (r.listener_table.error)
        facts.items.push_back({.body = {literal("listeners: unavailable ("),
                                        prose(*r.listener_table.error), literal(")")}});
    else if (!r.listener_table.limits.empty())
        facts.items.push_back({.body = {literal("listeners: "), prose(r.listener_table.limits)}});
    d.add(std::move(facts));
    if (r.self_check) {
        d.add(Paragraph{.body = {literal("Self-check")}, .level = 3});
        d.add(items(r.self_check->statements));
    }
}

/// Where the target's addresses came from, the address table, curl's own
/// localhost probes and who listens.
void addresses_section(Document& d, const TargetReport& t, const Report& r) {
    if (t.resolve_error) {
        d.add(Paragraph{.body = {prose(t.resolve_error->message)}});
        return;
    }
    d.add(Paragraph{.body = {t.target.literal ? literal("The literal") : code(t.target.host),
                             literal(fmt::format(" resolves to {} address(es), probed in this "
                                                 "order:",
                                                 t.addresses.size()))}});
    if (t.resolution) {
        List lines;
        for (const auto& l : t.resolution->hosts_lines)
            lines.items.push_back(
                {.body = {code(r.system.hosts_file), literal(fmt::format(" line {}: ", l.number)),
                          untrusted(l.text)}});
        if (!t.resolution->note.empty())
            lines.items.push_back({.body = {prose(t.resolution->note)}});
        if (lines.items.empty())
            d.add(Gap{Media::markdown}); // a blank line of its own, as ever
        else
            d.add(std::move(lines));
    }
    d.add(address_table(t, r.count));
    for (const auto& a : t.curl_localhost)
        d.add(
            Paragraph{.body = {literal(fmt::format(
                          "Also probed for curl, which answers `{}` itself: `{}` {} {} (not in "
                          "the resolver's answer; used by the curl rows only).",
                          cell(t.target.host), endpoint_string(a.address),
                          summary_outcome_name(a.summary), latency(a.summary.latency, r.count)))}});
    listener_table(d, t);
    for (const auto& a : t.addresses) {
        if (!a.summary.fast_option_refused)
            continue;
        const auto& why = a.summary.fast_option_error;
        d.add(Paragraph{.body = {literal(fmt::format(
                            "SIO_TCP_INITIAL_RTO (no SYN retries) was refused by the OS{}: only "
                            "default probes ran.",
                            why.empty() ? "" : fmt::format(" (`{}`)", why)))}});
        break;
    }
}

/// The findings, most severe first.
void findings_section(Document& d, const TargetReport& t) {
    if (t.diagnosis.findings.empty())
        return;
    d.add(label("Findings"));
    List list;
    for (const auto* f : by_severity(t.diagnosis.findings))
        list.items.push_back(
            {.body = {strong(literal(std::string(severity_name(f->severity)))), literal(" "),
                      code(f->id),
                      literal(f->cause.empty() ? ": " : fmt::format(" ({}): ", f->cause)),
                      prose(phrasing::finding(*f))}});
    d.add(std::move(list));
}

/// A prediction as a short cell: "2.03 s", "fails at 0.700 ms".
std::string time_cell(const ConnectPrediction& p) {
    const auto t = fmt::format("{}{}", p.lower_bound ? ">= " : "", format_duration(p.time));
    return p.connected ? t : fmt::format("fails at {}", t);
}

List folded(const std::vector<ClientImpact>& clients, FoldOn on) {
    List l;
    for (const auto& g : fold_clients(clients, on))
        l.items.push_back({.body = {literal(fmt::format("{}: ", group_time(g))),
                                    prose(fmt::format("{}", fmt::join(g.names, ", ")))}});
    return l;
}

/// What each client pays: one line when every model agrees; else the rows
/// folded by outcome, and every row in a <details> table of three columns
/// (the algorithms are in the JSON and in `-v`'s text).
void clients_section(Document& d, const TargetReport& t) {
    const auto& clients = t.diagnosis.clients;
    if (clients.empty())
        return;
    if (t.diagnosis.clients_agree && t.diagnosis.clients_agree_on_windows) {
        const auto& p = clients.front().prediction;
        d.add(Paragraph{
            .body = {literal(fmt::format(
                "Every client model {}.",
                p.connected ? fmt::format("connects in about {} via `{}`", format_duration(p.time),
                                          endpoint_string(*p.via))
                            : fmt::format("fails after about {}", format_duration(p.time))))}});
        return;
    }
    const bool windows = std::any_of(clients.begin(), clients.end(),
                                     [](const auto& c) { return c.windows.has_value(); });
    d.add(label("What clients pay to connect", " (modelled from the times above)"));
    d.add(folded(clients, FoldOn::here));
    if (windows && !t.diagnosis.clients_agree_on_windows) {
        d.add(Paragraph{.body = {literal("The same set-up on Windows:")}});
        d.add(folded(clients, FoldOn::windows));
    }
    d.add(Verbatim{
        fmt::format("<details>\n<summary>Each client ({} rows)</summary>\n", clients.size())});
    Table table{.columns = {{{literal("client")}},
                            {{literal("here")}},
                            {{literal("on Windows")}, windows ? Media::both : Media::text}}};
    for (const auto& c : clients)
        table.rows.push_back({md(cell(c.client)), md(time_cell(c.prediction)),
                              md(c.windows ? time_cell(*c.windows) : "-")});
    d.add(std::move(table));
    d.add(Verbatim{"</details>\n"});
}

void emulations_section(Document& d, const TargetReport& t) {
    if (t.emulations.empty())
        return;
    d.add(label("Emulated clients", " (`--emulate`, measured here beside the model)"));
    Table table{.columns = {{{literal("strategy")}},
                            {{literal("measured (median round)")}},
                            {{literal("model")}},
                            {{literal("rounds off model")}}}};
    for (const auto& e : t.emulations)
        table.rows.push_back(
            {md(cell(e.spec.label)), md(cell(prediction_text(e.measured))),
             md(cell(prediction_text(e.predicted))),
             md(e.rounds_off_model > 0
                    ? fmt::format("**{} of {}**", e.rounds_off_model, e.rounds.size())
                    : fmt::format("0 of {}", e.rounds.size()))});
    d.add(std::move(table));
}

void fixes_section(Document& d, const TargetReport& t) {
    if (t.diagnosis.fixes.empty())
        return;
    d.add(label("Fix"));
    std::vector<std::string> fixes;
    for (const auto& f : t.diagnosis.fixes)
        fixes.push_back(phrasing::fix(f));
    d.add(items(fixes));
}

/// The self-check's probes in one table: its listener and closed ports are
/// its own, so their sections would repeat the statements (issue 24: 159
/// lines and three client tables).
Table self_check_probes(const Report& r) {
    Table table{.columns = {{{literal("probe")}},
                            {{literal("address")}},
                            {{literal("outcome, latency")}},
                            {{literal("SYN rtx")}}}};
    for (const auto& t : r.targets)
        for (const auto& a : t.addresses)
            table.rows.push_back(
                {Cell{{code(t.target.input)}}, Cell{{code(endpoint_string(a.address))}},
                 md(fmt::format("{} {}", summary_outcome_name(a.summary),
                                latency(a.summary.latency, r.count))),
                 md(a.summary.syn_retransmissions ? std::to_string(*a.summary.syn_retransmissions)
                                                  : "n/a")});
    return table;
}

Document check_markdown_document(const Report& r) {
    Document d;
    d.add(Paragraph{.body = {literal("loopcheck report")}, .level = 2});
    header(d, r);
    if (r.self_check) {
        d.add(self_check_probes(r));
    } else {
        for (const auto& t : r.targets) {
            d.add(Paragraph{.body = {code(t.target.input)}, .level = 3});
            addresses_section(d, t, r);
            findings_section(d, t);
            clients_section(d, t);
            emulations_section(d, t);
            fixes_section(d, t);
        }
    }
    d.add(Verbatim{raw_samples(r)});
    return d;
}

} // namespace

std::string render_markdown(const Report& r) {
    return to_markdown(check_markdown_document(r));
}

} // namespace loopcheck
