// The terminal report: verdict first, then per target the addresses in
// resolver order, findings, what each client pays, and the fix; system
// facts last. The addresses' and the clients' parts are in
// check_addresses.cpp and check_clients.cpp.
#include "loopcheck/core/clients/fold.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/listeners/queries.hpp"
#include "loopcheck/core/text/text.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/report/text.hpp"
#include "report/finding_order.hpp"
#include "report/phrasing.hpp"
#include "report/text/check_parts.hpp"
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
using text::address_table, text::resolution_lines, text::curl_localhost_lines, text::listener_lines,
    text::listener_table_line, text::clients_lines, text::emulation_table;

text::Tone verdict_color(int code) {
    return code == 0 ? green : (code == 1 ? yellow : red);
}

text::Tone severity_color(Severity s) {
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
    return text::Tone::none;
}

/// The findings, most severe first; info ones with -v only (one line
/// says how many were left out), but for ipv6-off, which is the reason
/// ::1 fails and replaces the resolution note that -v shows.
void findings_lines(Writer& w, const TargetReport& t, std::size_t& hidden) {
    // One screen: the info findings with -v, and a finding said of each
    // address in turn (slow-refusal) once, with how many more like it.
    std::vector<std::pair<const Finding*, std::size_t>> shown; // and its repeats
    for (const auto* f : by_severity(t.diagnosis.findings)) {
        // Each fact once: a finding another line says already (core's
        // covers relation: the verdict, the client fold, a finding beside
        // the address table) is left to -v.
        if (!w.verbose() && ((f->severity == Severity::info && f->id != finding_id::ipv6_off) ||
                             f->covered_by != CoveredBy::nothing)) {
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
        const auto message = phrasing::finding(*f);
        w.wrapped(w.paint(head, severity_color(f->severity)),
                  more == 0 ? message : fmt::format("{} (and {} more like it: -v)", message, more),
                  4);
    }
}

void target_section(Writer& w, const Report& r, const TargetReport& t, std::size_t& hidden,
                    std::size_t fold_lines) {
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
    clients_lines(w, t, fold_lines);
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
            w.wrapped("  - ", phrasing::fix(f), 4);
        return;
    }
    // One screen: the first fix, the server's own setting when the server
    // was recognised, and how many more -v shows.
    const auto& server_fix = t.diagnosis.server_fix;
    const std::size_t shown = server_fix && *server_fix < fixes.size() ? 2 : 1;
    if (shown == 2)
        w.wrapped("  Fix: ", phrasing::fix(fixes.front()), 4);
    const auto last = phrasing::fix(shown == 2 ? fixes[*server_fix] : fixes.front());
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
    wrap_into(wrapped, "", phrasing::verdict(d.verdict), 2,
              w.width()); // escapes controls: the safety net
    wrapped.pop_back();   // wrap_into's last newline
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

/// The report, the fold's costs `fold_lines` lines each at most (0: all).
std::string render_with(const Report& r, const TextStyle& style, std::size_t fold_lines) {
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
            target_section(w, r, t, hidden, fold_lines);
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
    if (style.verbose) {
        if (const std::string machine = phrasing::machine_line(r.system); !machine.empty())
            facts += fmt::format(" ({})", machine);
        for (const auto& [k, v] : r.system.proxies)
            facts += fmt::format("; {}={}", k, v);
    }
    for (const auto& [k, v] : r.system.tcp_settings)
        facts += fmt::format("; {}={}", k, v);
    facts += fmt::format("; timeout {}, threshold {}", format_duration(r.timeout),
                         format_duration(r.threshold));
    if (r.self_check && !style.verbose)
        facts += "; each probe: -v";
    w.wrapped("", facts, 2);
    return w.take();
}

} // namespace

std::string render_text(const Report& r, const TextStyle& style) {
    // One target on one 80x24 screen: when every client's name would not
    // fit, each cost of the fold gets two lines and "and N more (-v)".
    // Still too long: one line each.
    constexpr std::size_t screen_rows = 24;
    auto rows = [](const std::string& t) {
        return static_cast<std::size_t>(std::count(t.begin(), t.end(), '\n'));
    };
    auto text = render_with(r, style, 0);
    for (const std::size_t fold_lines : {2, 1})
        if (!style.verbose && r.targets.size() == 1 && rows(text) > screen_rows)
            text = render_with(r, style, fold_lines);
    return text;
}

} // namespace loopcheck
