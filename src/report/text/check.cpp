// The terminal report: verdict first, then per target the addresses in
// resolver order, findings, what each client pays, and the fix; system
// facts last.
#include "loopcheck/core/client_fold.hpp"
#include "loopcheck/core/exit_codes.hpp"
#include "loopcheck/core/listener_queries.hpp"
#include "loopcheck/core/text.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/report/text.hpp"
#include "report/finding_order.hpp"
#include "report/text/table.hpp"
#include "report/text/writer.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <string_view>

namespace loopcheck {

namespace {

using text::Writer;
using namespace text::colors;

std::string_view verdict_color(int code) {
    return code == 0 ? green : (code == 1 ? yellow : red);
}

std::string_view severity_color(Severity s) {
    switch (s) {
    case Severity::ok:
        return green;
    case Severity::info:
        return dim;
    case Severity::warning:
        return yellow;
    case Severity::error:
        return red;
    }
    return reset;
}

std::string latency_cell(const Summary& s, int count) {
    if (s.count == 0)
        return "-";
    if (count <= 1)
        return format_duration(s.median);
    return format_spread(s.min, s.median, s.max);
}

std::string fast_cell(const AddressSummary& s, int count) {
    // The outcome is named only where it differs from the default probe's.
    if (s.fast_latency && *s.fast_outcome == s.outcome)
        return latency_cell(*s.fast_latency, count);
    if (s.fast_latency)
        return fmt::format("{} {}", outcome_name(*s.fast_outcome),
                           latency_cell(*s.fast_latency, count));
    if (s.fast_option_refused)
        return "option refused";
    return "";
}

std::string outcome_cell(const AddressSummary& s) {
    std::string out(summary_outcome_name(s));
    if (s.mixed)
        out += " (mixed)";
    return out;
}

/// Wine rejects the ioctl (docs/windows.md), as may old Windows builds:
/// said once; the default probes are still the measurement that matters.
void option_refused_line(Writer& w, const TargetReport& t) {
    const auto refused = std::find_if(t.addresses.begin(), t.addresses.end(),
                                      [](auto& a) { return a.summary.fast_option_refused; });
    if (refused != t.addresses.end()) {
        const auto& why = refused->summary.fast_option_error;
        w.line(fmt::format("  SIO_TCP_INITIAL_RTO (no SYN retries) refused by the OS{}: default "
                           "probes only.",
                           why.empty() ? "" : fmt::format(" ({})", why)));
    }
}

void address_table(Writer& w, const TargetReport& t, int full_count) {
    // One screen: the medians; -v the spread of every round too.
    const int count = w.verbose() ? full_count : 1;
    const bool any_fast = std::any_of(t.addresses.begin(), t.addresses.end(), [](auto& a) {
        return a.summary.fast_latency || a.summary.fast_option_refused;
    });
    const bool any_rtx = std::any_of(t.addresses.begin(), t.addresses.end(), [](auto& a) {
        return a.summary.syn_retransmissions.has_value();
    });
    // The OS's error name only where the outcome does not already say it
    // (the JSON and Markdown reports always carry it).
    auto detail = [](const AddressSummary& s) {
        return native_name_implied(s) ? std::string() : s.native_name;
    };
    const bool any_detail = std::any_of(t.addresses.begin(), t.addresses.end(),
                                        [&](auto& a) { return !detail(a.summary).empty(); });
    text::Table table;
    // Resolver order is the rows' order (the line above says it): no "#".
    table.header = {"address",
                    "outcome",
                    full_count > 1 ? (count > 1 ? "median [min..max]" : "median") : "latency",
                    any_fast ? "without SYN retries" : "",
                    any_rtx ? "SYN rtx" : "",
                    any_detail ? "detail" : ""};
    table.rows.reserve(t.addresses.size());
    for (std::size_t i = 0; i < t.addresses.size(); ++i) {
        const auto& a = t.addresses[i];
        table.rows.push_back(
            {endpoint_string(a.address), outcome_cell(a.summary),
             latency_cell(a.summary.latency, count), any_fast ? fast_cell(a.summary, count) : "",
             a.summary.syn_retransmissions ? std::to_string(*a.summary.syn_retransmissions)
                                           : (any_rtx ? "n/a" : ""),
             detail(a.summary)});
    }
    text::write_table(w, table);
    option_refused_line(w, t);
}

void resolution_lines(Writer& w, const Report& r, const Resolution& res) {
    if (!res.hosts_file_readable)
        w.wrapped("  ", fmt::format("({} could not be read)", r.system.hosts_file), 4);
    for (const auto& l : res.hosts_lines)
        w.wrapped("  ",
                  fmt::format("{} line {}: {}", r.system.hosts_file, l.number, l.text.escaped()),
                  4);
    if (!res.note.empty())
        w.wrapped("  ", res.note, 2);
}

std::string prediction_cell(const ConnectPrediction& p) {
    const std::string bound = p.lower_bound ? ">= " : "";
    if (p.connected)
        return fmt::format("{}{} via {}", bound, format_duration(p.time), endpoint_string(*p.via));
    return fmt::format("fails after {}{}", bound, format_duration(p.time));
}

/// Every client row (-v): what it pays here and, off Windows, there.
void client_table(Writer& w, const TargetReport& t) {
    const auto& clients = t.diagnosis.clients;
    const bool windows = std::any_of(clients.begin(), clients.end(),
                                     [](const auto& c) { return c.windows.has_value(); });
    text::Table table;
    // The header says which addresses the Windows column assumed.
    std::vector<std::string> assumed;
    for (const auto& a : t.diagnosis.windows.addresses)
        assumed.push_back(ip_string(a));
    if (windows)
        table.header = {"client", "algorithm", "here",
                        fmt::format("on Windows ({})", fmt::join(assumed, " then "))};
    table.rows.reserve(clients.size());
    for (const auto& c : clients)
        table.rows.push_back({c.client, c.algorithm, prediction_cell(c.prediction),
                              c.windows ? prediction_cell(*c.windows) : ""});
    text::write_table(w, table);
    // Which libraries each client is, and whether a second request pays
    // again: once per id, since a client's rows share both.
    w.line(w.paint("  Libraries, and whether a second request reuses the connection", dim));
    std::vector<std::string_view> said;
    for (const auto& c : clients) {
        if (c.libraries.empty() || std::find(said.begin(), said.end(), c.id) != said.end())
            continue;
        said.push_back(c.id);
        w.wrapped(fmt::format("  {}: ", c.id),
                  fmt::format("{}. Reuse: {}.", fmt::join(c.libraries, ", "), c.reuse_note), 4);
    }
}

/// The rows folded by outcome (core/client_fold): a line or two per cost,
/// "2.03 s: Python requests / urllib / socket.create_connection, wget".
void client_fold(Writer& w, const TargetReport& t, FoldOn on) {
    for (const auto& g : fold_clients(t.diagnosis.clients, on))
        w.wrapped("    ", fmt::format("{}: {}", group_time(g), group_names(g)), 6);
}

/// " [2.03 s..2.04 s]": the spread of the rounds, when several ran.
std::string round_spread(const EmulationResult& e) {
    if (e.rounds.size() < 2)
        return {};
    const auto [lo, hi] =
        std::minmax_element(e.rounds.begin(), e.rounds.end(),
                            [](const auto& a, const auto& b) { return a.time < b.time; });
    return fmt::format(" [{}..{}]", format_duration(lo->time), format_duration(hi->time));
}

/// The measured time alone (one screen): the median round, with the spread.
std::string measured_time(const EmulationResult& e) {
    const auto time = format_duration(e.measured.time);
    return (e.measured.connected ? time : "fails after " + time) + round_spread(e);
}

/// The measured cell (-v): the median round and its address, with the spread.
std::string measured_cell(const EmulationResult& e) {
    return prediction_cell(e.measured) + round_spread(e);
}

void emulation_table(Writer& w, const TargetReport& t) {
    if (!w.verbose()) { // one screen: a sentence each
        for (const auto& e : t.emulations)
            w.wrapped("  ",
                      fmt::format("Emulated {}: {} measured; the model: {}{}.", e.spec.label,
                                  measured_time(e), format_duration(e.predicted.time),
                                  e.rounds_off_model > 0
                                      ? fmt::format("; OFF MODEL in {} of {} round(s)",
                                                    e.rounds_off_model, e.rounds.size())
                                      : ""),
                      4);
        return;
    }
    text::Table table;
    table.header = {"client", "measured here", "model"};
    for (const auto& e : t.emulations)
        table.rows.push_back({e.spec.label, measured_cell(e), prediction_cell(e.predicted),
                              e.rounds_off_model > 0
                                  ? fmt::format("OFF MODEL in {} of {} round(s)",
                                                e.rounds_off_model, e.rounds.size())
                                  : ""});
    text::write_table(w, table);
    const bool any_off = std::any_of(t.emulations.begin(), t.emulations.end(),
                                     [](const auto& e) { return e.rounds_off_model > 0; });
    if (any_off)
        w.wrapped("  ",
                  fmt::format("OFF MODEL: {}; see the findings (accept-queue-full, slow-accept) "
                              "for why.",
                              off_model_rule()),
                  2);
}

/// The loopback addresses probed for curl's own localhost answer only.
void curl_localhost_lines(Writer& w, const TargetReport& t, int count) {
    for (const auto& a : t.curl_localhost)
        w.wrapped("  ",
                  fmt::format("Also probed for curl, which answers {} itself: {} {} {} (not in "
                              "the resolver's answer; used by the curl rows only).",
                              t.target.host, endpoint_string(a.address), outcome_cell(a.summary),
                              latency_cell(a.summary.latency, count)),
                  4);
}

/// Who listens on the target's port (platform::list_listeners). "Nothing
/// listens" is the down finding's own sentence: said here with -v only.
void listener_lines(Writer& w, const TargetReport& t) {
    if (!t.listeners || (t.listeners->empty() && !w.verbose()))
        return;
    // One screen: where an address accepted, the table says where and the
    // fix names the process; the listeners are the clue only when none did.
    const bool accepted =
        std::any_of(t.addresses.begin(), t.addresses.end(),
                    [](const AddressReport& a) { return a.summary.outcome == Outcome::accepted; });
    if (!w.verbose() && accepted)
        return;
    if (t.listeners->empty()) {
        w.wrapped("  ", fmt::format("Nothing listens on port {} on this machine.", t.target.port),
                  2);
        return;
    }
    w.line(fmt::format("  Listening on port {}:", t.target.port));
    text::Table table;
    table.indent = 4;
    for (const auto& l : *t.listeners)
        table.rows.push_back({bound_string(l), owner_string(l)});
    text::write_table(w, table);
}

/// What the listener table could not show, or why there is none.
void listener_table_line(Writer& w, const ListenerTableStatus& s) {
    if (s.error)
        w.wrapped("", fmt::format("Listeners: unavailable ({}).", *s.error), 2);
    else if (!s.limits.empty())
        w.wrapped("", fmt::format("Listeners: {}.", s.limits), 2);
}

bool said_in_verdict(const Finding& f, std::string_view verdict) {
    std::string_view m = f.message;
    while (!m.empty() && (m.back() == '.' || m.back() == ' '))
        m.remove_suffix(1);
    return m.size() >= 20 && verdict.find(m) != std::string_view::npos;
}

/// Whether another line of the one-screen view already says what `f`
/// says: the client fold (or its one-line "every client" form) names every
/// row clients-fail and clients-slow list, with its cost; a fallback-penalty
/// or server-down finding times the slow refusal of the address it names,
/// and the address table holds that refusal's retries and its time without
/// them.
bool said_elsewhere_on_screen(const Finding& f, const TargetReport& t) {
    if (f.id == finding_id::clients_fail || f.id == finding_id::clients_slow)
        return !t.diagnosis.clients.empty();
    // decide_verdict words a fallback penalty as "every new connection to
    // X waits T before Y accepts"; the resolves line and the table say why.
    if (f.id == finding_id::fallback_penalty)
        return t.diagnosis.verdict.find("every new connection to ") != std::string::npos;
    if (f.id != finding_id::slow_refusal || !f.address)
        return false;
    return std::any_of(
        t.diagnosis.findings.begin(), t.diagnosis.findings.end(), [&](const Finding& o) {
            return (o.id == finding_id::fallback_penalty || o.id == finding_id::server_down) &&
                   o.message.find(endpoint_string(*f.address)) != std::string::npos;
        });
}

/// The findings, most severe first; info ones with -v only (one line
/// says how many were left out), but for ipv6-off, which is the reason
/// ::1 fails and replaces the resolution note that -v shows.
void findings_lines(Writer& w, const TargetReport& t, std::size_t& hidden) {
    // One screen: the info findings with -v, and a finding said of each
    // address in turn (slow-refusal) once, with how many more like it.
    std::vector<std::pair<const Finding*, std::size_t>> shown; // and its repeats
    for (const auto* f : by_severity(t.diagnosis.findings)) {
        if (!w.verbose() && ((f->severity == Severity::info && f->id != finding_id::ipv6_off) ||
                             said_elsewhere_on_screen(*f, t))) {
            ++hidden;
            continue;
        }
        // Each fact once: a finding the verdict already says in full (an
        // unresolved name's message) is left to -v.
        if (!w.verbose() && said_in_verdict(*f, t.diagnosis.verdict)) {
            ++hidden;
            continue;
        }
        if (!w.verbose() && !shown.empty() && shown.back().first->id == f->id &&
            shown.back().first->severity == f->severity) {
            ++shown.back().second;
            ++hidden;
            continue;
        }
        shown.emplace_back(f, 0);
    }
    if (shown.empty())
        return;
    w.blank();
    for (const auto& [f, more] : shown) {
        std::string head = "  ";
        append_padded(head, severity_name(f->severity), 8);
        head +=
            fmt::format(" {}{}: ", f->id, f->cause.empty() ? "" : fmt::format(" ({})", f->cause));
        w.wrapped(w.paint(head, severity_color(f->severity)),
                  more == 0 ? f->message
                            : fmt::format("{} (and {} more like it: -v)", f->message, more),
                  4);
    }
}

/// What the clients pay: one line per cost by default (the rows folded by
/// outcome), every row with -v.
/// "On Windows these fail after 2.00 s: Node.js 17 to 19, curl and 6 more
/// (-v).": two lines at most, the rest of the names with -v (the fold above
/// already named them all once).
void windows_line(Writer& w, std::string_view what, const ClientGroup& g) {
    ClientGroup shown = g;
    constexpr std::size_t names_shown = 3;
    std::string more;
    if (shown.names.size() > names_shown + 1) {
        more = fmt::format(" and {} more (-v)", shown.names.size() - names_shown);
        shown.names.resize(names_shown);
    }
    w.wrapped("  ", fmt::format("{} {}: {}{}.", what, group_span(g), group_names(shown), more), 4);
}

void clients_lines(Writer& w, const TargetReport& t) {
    const auto& d = t.diagnosis;
    if (d.clients.empty())
        return;
    if (w.verbose())
        w.line();
    if (d.clients_agree && d.clients_agree_on_windows) {
        const auto& p = d.clients.front().prediction;
        w.wrapped("  ",
                  p.connected ? fmt::format("Every client model connects in about {} via {}.",
                                            format_duration(p.time), endpoint_string(*p.via))
                              : fmt::format("Every client model fails after about {}.",
                                            format_duration(p.time)),
                  2);
        return;
    }
    if (w.verbose()) {
        w.line("  What each client pays to connect (modelled from the times above)");
        client_table(w, t);
        return;
    }
    const bool windows = std::any_of(d.clients.begin(), d.clients.end(),
                                     [](const auto& c) { return c.windows.has_value(); });
    if (d.clients_agree) {
        const auto& p = d.clients.front().prediction;
        w.wrapped("  ",
                  p.connected ? fmt::format("Every client model connects in about {} here.",
                                            format_duration(p.time))
                              : fmt::format("Every client model fails after about {} here.",
                                            format_duration(p.time)),
                  2);
    } else {
        w.line("  What clients pay to connect (modelled; -v: each client)");
        client_fold(w, t, FoldOn::here);
    }
    // Off Windows, the projection in a line or two: the clients that fail
    // there while others connect, then the costliest that connect (or, when
    // none does, the first that fail).
    if (windows && !d.clients_agree_on_windows) {
        const auto groups = fold_clients(d.clients, FoldOn::windows);
        const auto connects =
            std::find_if(groups.begin(), groups.end(), [](const auto& g) { return g.connected; });
        if (connects != groups.end() && !groups.front().connected)
            windows_line(w, "On Windows these fail after", groups.front());
        const auto& g = connects != groups.end() ? *connects : groups.front();
        windows_line(w,
                     g.connected ? "On Windows the costliest connect in"
                                 : "On Windows the costliest fail after",
                     g);
    }
}

void target_section(Writer& w, const Report& r, const TargetReport& t, std::size_t& hidden) {
    w.blank();
    const auto& tg = t.target;
    // One target: the verdict named it.
    if (w.verbose() || r.targets.size() > 1)
        w.line(w.paint(fmt::format("{}  (port {})", tg.input, tg.port), bold));
    if (t.resolve_error) {
        // The verdict and the finding say why: the resolver's words once.
        if (w.verbose())
            w.wrapped("  ", t.resolve_error->message, 2);
    } else {
        std::vector<std::string> ips;
        for (const auto& a : t.addresses)
            ips.push_back(ip_string(a.address));
        w.wrapped("  ",
                  tg.literal ? fmt::format("address literal {}, not resolved", ips.front())
                             : fmt::format("{} resolves to {} (in this order)", tg.host,
                                           fmt::format("{}", fmt::join(ips, ", "))),
                  2);
        if (t.resolution && w.verbose())
            resolution_lines(w, r, *t.resolution);
        address_table(w, t, r.count);
        if (w.verbose())
            curl_localhost_lines(w, t, r.count);
        listener_lines(w, t);
    }
    findings_lines(w, t, hidden);
    clients_lines(w, t);
    if (!t.emulations.empty()) {
        if (w.verbose()) {
            w.line();
            w.line("  Emulated clients (--emulate): measured here, beside the model");
        }
        emulation_table(w, t);
    }
    const auto& fixes = t.diagnosis.fixes;
    if (fixes.empty())
        return;
    if (w.verbose()) {
        w.line();
        w.line("  Fix");
        for (const auto& f : fixes)
            w.wrapped("  - ", f, 4);
        return;
    }
    // One screen: the first fix, the server's own setting when the server
    // was recognised, and how many more -v shows.
    const auto& server_fix = t.diagnosis.server_fix;
    const std::size_t shown = server_fix && *server_fix < fixes.size() ? 2 : 1;
    if (shown == 2)
        w.wrapped("  Fix: ", fixes.front(), 4);
    const auto& last = shown == 2 ? fixes[*server_fix] : fixes.front();
    w.wrapped(shown == 2 ? "  " : "  Fix: ",
              fixes.size() == shown ? last
                                    : fmt::format("{} ({} more: -v)", last, fixes.size() - shown),
              4);
    hidden += fixes.size() - shown;
}

/// The verdict, wrapped at the width, in the verdict's colour (one colour
/// span however many lines it takes).
void verdict_lines(Writer& w, const Diagnosis& d) {
    std::string wrapped;
    wrap_into(wrapped, "", d.verdict, 2, w.width()); // escapes controls: the safety net
    wrapped.pop_back();                              // wrap_into's last newline
    w.line(w.paint(wrapped, verdict_color(d.exit_code)));
}

void summary_line(Writer& w, const Report& r) {
    std::size_t ok = 0, slow = 0, partial = 0, down = 0, unresolved = 0, other = 0;
    for (const auto& t : r.targets) {
        switch (t.diagnosis.exit_code) {
        case 0:
            ++ok;
            break;
        case 1:
            ++slow;
            break;
        case 3:
            ++down;
            break;
        case exit_code::partial:
            ++partial;
            break;
        case 4:
            ++unresolved;
            break;
        default:
            ++other;
        }
    }
    std::string line = fmt::format("{} targets: {} healthy, {} slow, ", r.targets.size(), ok, slow);
    if (partial > 0) // a word only where it happened: most runs have none
        line += fmt::format("{} partial, ", partial);
    line += fmt::format("{} down, {} unresolved", down, unresolved);
    if (other > 0)
        line += fmt::format(", {} other", other);
    line += " (each in full: -v)";
    w.wrapped("", line, 2);
}

} // namespace

std::string render_text(const Report& r, const TextStyle& style) {
    Writer w(style);
    for (const auto& t : r.targets)
        verdict_lines(w, t.diagnosis);
    if (r.incomplete)
        w.line(w.paint("INCOMPLETE: interrupted before every probe finished", red));
    if (!r.quick_note.empty()) {
        w.line();
        w.wrapped("", r.quick_note, 2);
    }
    if (r.self_check) {
        w.line();
        w.line(w.paint("Self-check of this machine", bold));
        for (const auto& s : r.self_check->statements)
            w.wrapped("  - ", s, 4);
    }
    // The self-check's probes are its own throwaway listeners and ports:
    // its statements are the conclusions, their sections detail (-v).
    std::size_t hidden = 0;
    const bool one_line_each = r.targets.size() > text_full_reports_up_to;
    if (style.verbose || (!r.self_check && !one_line_each)) {
        for (const auto& t : r.targets)
            target_section(w, r, t, hidden);
    } else if (one_line_each) {
        w.line();
        summary_line(w, r);
    }
    // One screen for a few targets: the verdict, table, findings, clients
    // and fix; the machine's facts are the self-check's, -v's and the
    // one-line-per-target report's.
    if (!style.verbose && !r.self_check && !one_line_each) {
        if (r.listener_table.error || !r.listener_table.limits.empty()) {
            w.line();
            listener_table_line(w, r.listener_table);
        }
        return w.take();
    }
    w.line();
    if (style.verbose || !one_line_each)
        listener_table_line(w, r.listener_table);
    std::string facts = fmt::format("System: {} {}", r.system.os_name, r.system.os_version);
    for (const auto& [k, v] : r.system.tcp_settings)
        facts += fmt::format("; {}={}", k, v);
    facts += fmt::format("; timeout {}, threshold {}", format_duration(r.timeout),
                         format_duration(r.threshold));
    if (r.self_check && !style.verbose)
        facts += "; each probe: -v";
    w.wrapped("", facts, 2);
    return w.take();
}

} // namespace loopcheck
