// The terminal report: verdict first, then per target the addresses in
// resolver order, findings, what each client pays, and the fix; system
// facts last.
#include "loopcheck/core/listener_queries.hpp"
#include "loopcheck/core/text.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/report/text.hpp"
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

/// One row of the address table, every cell as text.
struct Row {
    std::string n, address, outcome, latency, fast, rtx, native;
};

/// The table's rows, each column as wide as its widest cell; an empty
/// column is left out; the header row dimmed.
void print_rows(Writer& w, const std::vector<Row>& rows) {
    std::array<std::size_t, 7> widths{};
    for (const auto& r : rows) {
        const std::array<const std::string*, 7> cells{&r.n,    &r.address, &r.outcome, &r.latency,
                                                      &r.fast, &r.rtx,     &r.native};
        for (std::size_t c = 0; c < cells.size(); ++c)
            widths[c] = std::max(widths[c], columns(*cells[c]));
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        std::string line = "  ";
        const std::array<const std::string*, 7> cells{&r.n,    &r.address, &r.outcome, &r.latency,
                                                      &r.fast, &r.rtx,     &r.native};
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (widths[c] == 0)
                continue;
            append_padded(line, *cells[c], widths[c]);
            line += "  ";
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        w.line(i == 0 ? w.paint(line, dim) : line);
    }
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

void address_table(Writer& w, const TargetReport& t, int count) {
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
    std::vector<Row> rows;
    rows.push_back({"#", "address", "outcome", count > 1 ? "latency median [min..max]" : "latency",
                    any_fast ? "without SYN retries" : "", any_rtx ? "SYN rtx" : "",
                    any_detail ? "detail" : ""});
    for (std::size_t i = 0; i < t.addresses.size(); ++i) {
        const auto& a = t.addresses[i];
        rows.push_back(
            {std::to_string(i + 1), endpoint_string(a.address), outcome_cell(a.summary),
             latency_cell(a.summary.latency, count), any_fast ? fast_cell(a.summary, count) : "",
             a.summary.syn_retransmissions ? std::to_string(*a.summary.syn_retransmissions)
                                           : (any_rtx ? "n/a" : ""),
             detail(a.summary)});
    }
    print_rows(w, rows);
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

void client_table(Writer& w, const TargetReport& t) {
    const auto& clients = t.diagnosis.clients;
    // Off Windows, a last column says what the same set-up costs there.
    const bool windows = std::any_of(clients.begin(), clients.end(),
                                     [](const auto& c) { return c.windows.has_value(); });
    std::vector<std::string> here;
    here.reserve(clients.size());
    std::size_t name_w = 0, algo_w = 0, here_w = 0;
    for (const auto& c : clients) {
        here.push_back(prediction_cell(c.prediction));
        name_w = std::max(name_w, columns(c.client));
        algo_w = std::max(algo_w, columns(c.algorithm));
        here_w = std::max(here_w, columns(here.back()));
    }
    const auto row = [&](std::string_view client, std::string_view algorithm,
                         std::string_view here_cell, std::string_view windows_cell) {
        std::string line = "  ";
        append_padded(line, client, name_w);
        line += "  ";
        append_padded(line, algorithm, algo_w);
        line += "  ";
        append_padded(line, here_cell, windows ? here_w : 0);
        if (!windows_cell.empty()) {
            line += "  ";
            line += windows_cell;
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        return line;
    };
    if (windows)
        w.line(w.paint(row("client", "algorithm", "here", "on Windows"), dim));
    for (std::size_t i = 0; i < clients.size(); ++i) {
        const auto& c = clients[i];
        w.line(row(c.client, c.algorithm, here[i], c.windows ? prediction_cell(*c.windows) : ""));
    }
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

/// The measured cell: the median round, with the spread when several ran.
std::string measured_cell(const EmulationResult& e) {
    auto cell = prediction_cell(e.measured);
    if (e.rounds.size() > 1) {
        const auto [lo, hi] =
            std::minmax_element(e.rounds.begin(), e.rounds.end(),
                                [](const auto& a, const auto& b) { return a.time < b.time; });
        cell += fmt::format(" [{}..{}]", format_duration(lo->time), format_duration(hi->time));
    }
    return cell;
}

void emulation_table(Writer& w, const TargetReport& t) {
    std::vector<std::string> measured;
    measured.reserve(t.emulations.size());
    std::size_t label_w = 0, measured_w = 0;
    for (const auto& e : t.emulations) {
        measured.push_back(measured_cell(e));
        label_w = std::max(label_w, columns(e.spec.label));
        measured_w = std::max(measured_w, columns(measured.back()));
    }
    for (std::size_t i = 0; i < t.emulations.size(); ++i) {
        const auto& e = t.emulations[i];
        std::string line = "  ";
        append_padded(line, e.spec.label, label_w);
        line += "  measured ";
        append_padded(line, measured[i], measured_w);
        line += "  model ";
        line += prediction_cell(e.predicted);
        if (e.rounds_off_model > 0)
            line += w.paint(fmt::format("  OFF MODEL in {} of {} round(s)", e.rounds_off_model,
                                        e.rounds.size()),
                            yellow);
        w.line(line);
    }
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

/// Who listens on the target's port (platform::list_listeners).
void listener_lines(Writer& w, const TargetReport& t) {
    if (!t.listeners)
        return;
    w.line();
    if (t.listeners->empty()) {
        w.line(fmt::format("  Nothing listens on port {} on this machine.", t.target.port));
        return;
    }
    w.line(fmt::format("  Listening on port {}:", t.target.port));
    std::size_t width = 0;
    for (const auto& l : *t.listeners)
        width = std::max(width, columns(bound_string(l)));
    for (const auto& l : *t.listeners) {
        std::string line = "    ";
        append_padded(line, bound_string(l), width);
        line += "  ";
        line += owner_string(l);
        w.line(line);
    }
}

/// What the listener table could not show, or why there is none.
void listener_table_line(Writer& w, const ListenerTableStatus& s) {
    if (s.error)
        w.wrapped("", fmt::format("Listeners: unavailable ({}).", *s.error), 2);
    else if (!s.limits.empty())
        w.wrapped("", fmt::format("Listeners: {}.", s.limits), 2);
}

void target_section(Writer& w, const Report& r, const TargetReport& t) {
    w.line();
    const auto& tg = t.target;
    w.line(w.paint(fmt::format("{}  (port {})", tg.input, tg.port), bold));
    if (t.resolve_error) {
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
        if (t.resolution)
            resolution_lines(w, r, *t.resolution);
        address_table(w, t, r.count);
        curl_localhost_lines(w, t, r.count);
        listener_lines(w, t);
    }
    if (!t.diagnosis.findings.empty()) {
        w.line();
        w.line("  Findings");
        for (const auto& f : t.diagnosis.findings) {
            std::string head = "  ";
            append_padded(head, severity_name(f.severity), 8);
            head +=
                fmt::format(" {}{}: ", f.id, f.cause.empty() ? "" : fmt::format(" ({})", f.cause));
            w.wrapped(w.paint(head, severity_color(f.severity)), f.message, 4);
        }
    }
    if (!t.diagnosis.clients.empty()) {
        w.line();
        if (t.diagnosis.clients_agree && t.diagnosis.clients_agree_on_windows) {
            const auto& p = t.diagnosis.clients.front().prediction;
            w.wrapped("  ",
                      p.connected ? fmt::format("Every client model connects in about {} via {}.",
                                                format_duration(p.time), endpoint_string(*p.via))
                                  : fmt::format("Every client model fails after about {}.",
                                                format_duration(p.time)),
                      2);
        } else {
            w.line("  What each client pays to connect (modelled from the times above)");
            client_table(w, t);
        }
    }
    if (!t.emulations.empty()) {
        w.line();
        w.line("  Emulated clients (--emulate): measured here, beside the model");
        emulation_table(w, t);
    }
    if (!t.diagnosis.fixes.empty()) {
        w.line();
        w.line("  Fix");
        for (const auto& f : t.diagnosis.fixes)
            w.wrapped("  - ", f, 4);
    }
}

} // namespace

std::string render_text(const Report& r, const TextStyle& style) {
    Writer w(style);
    for (const auto& t : r.targets) // a verdict may quote the resolver: the safety net
        w.line(w.paint(escape_controls(t.diagnosis.verdict), verdict_color(t.diagnosis.exit_code)));
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
    for (const auto& t : r.targets)
        target_section(w, r, t);
    w.line();
    listener_table_line(w, r.listener_table);
    std::string facts = fmt::format("System: {} {}", r.system.os_name, r.system.os_version);
    for (const auto& [k, v] : r.system.tcp_settings)
        facts += fmt::format("; {}={}", k, v);
    facts += fmt::format("; timeout {}, threshold {}", format_duration(r.timeout),
                         format_duration(r.threshold));
    w.wrapped("", facts, 2);
    return w.take();
}

} // namespace loopcheck
