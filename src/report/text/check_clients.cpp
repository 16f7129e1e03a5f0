// The terminal report's clients: what each client pays, folded by outcome
// (every row with -v) and projected on Windows, and --emulate's measured
// clients beside the model.
#include "loopcheck/core/clients/fold.hpp"
#include "loopcheck/core/text/text.hpp"
#include "report/text/check_parts.hpp"
#include "report/text/table.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <string_view>

namespace loopcheck::text {

using namespace colors;

namespace {

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

/// How many lines `text` takes wrapped at the writer's width.
std::size_t wrapped_lines(const Writer& w, std::string_view first, std::string_view text,
                          std::size_t indent) {
    std::string out;
    wrap_into(out, first, text, indent, w.width());
    return static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n'));
}

/// `say(names)` for the group's names, as many as keep it within
/// `most_lines` lines wrapped as the caller writes it (after `first`, the
/// rest indented by `indent`; 0 lines: every name), the rest "and N more
/// (-v)".
template <typename Say>
std::string fitted(const Writer& w, std::string_view first, std::size_t indent,
                   const ClientGroup& g, std::size_t most_lines, Say say) {
    auto text = say(group_names(g));
    for (std::size_t keep = g.names.size() - 1;
         most_lines > 0 && keep > 0 && wrapped_lines(w, first, text, indent) > most_lines; --keep) {
        ClientGroup shown = g;
        shown.names.resize(keep);
        text = say(fmt::format("{} and {} more (-v)", group_names(shown), g.names.size() - keep));
    }
    return text;
}

/// The rows folded by outcome (core/client_fold): a line or two per cost,
/// "2.03 s: Python requests / urllib / socket.create_connection, wget".
/// With `most_lines`, each cost takes that many lines at most, then "and 4
/// more (-v)": the one screen's budget when the whole list would not fit;
/// at one line, costs that all fail are one line.
void client_fold(Writer& w, const TargetReport& t, FoldOn on, std::size_t most_lines) {
    const auto groups = fold_clients(t.diagnosis.clients, on);
    const bool none_connects = std::none_of(groups.begin(), groups.end(),
                                            [](const ClientGroup& g) { return g.connected; });
    if (most_lines == 1 && none_connects && groups.size() > 1) {
        ClientGroup all = groups.front();
        for (const auto& g : groups) {
            all.fastest = std::min(all.fastest, g.fastest);
            all.slowest = std::max(all.slowest, g.slowest);
            all.lower_bound = all.lower_bound || g.lower_bound;
        }
        // Timed out: each fails after at least its own time, so the line
        // gives the least of them (">= 1.50 s" is true of every client).
        if (all.lower_bound)
            all.slowest = all.fastest;
        w.wrapped("    ", fmt::format("{}: every client (-v: each)", group_time(all)), 6);
        return;
    }
    for (const auto& g : groups)
        w.wrapped("    ",
                  fitted(w, "    ", 6, g, most_lines,
                         [&](const std::string& names) {
                             return fmt::format("{}: {}", group_time(g), names);
                         }),
                  6);
}

/// Whether a finding the one screen shows already gives what every client
/// pays here: the healthy finding (the accept's time) or server-down (the
/// time a client spends to find nothing accepts).
bool timed_by_a_finding(const Diagnosis& d) {
    return std::any_of(d.findings.begin(), d.findings.end(), [](const Finding& f) {
        return f.id == finding_id::healthy || f.id == finding_id::server_down;
    });
}

/// Whether every client pays on Windows what it pays here (no address was
/// refused, so the projection changed nothing): the fold above says it.
bool windows_as_here(const Diagnosis& d) {
    return std::all_of(d.clients.begin(), d.clients.end(), [](const ClientImpact& c) {
        return !c.windows ||
               (c.windows->connected == c.prediction.connected &&
                c.windows->lower_bound == c.prediction.lower_bound &&
                std::chrono::abs(c.windows->time - c.prediction.time) < Micros{1'000});
    });
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

/// What the clients pay: one line per cost by default (the rows folded by
/// outcome), every row with -v.
/// "On Windows these fail after 2.00 s: Node.js 17 to 19, curl and 6 more
/// (-v).": two lines at most, the rest of the names with -v (the fold above
/// already named them all once).
void windows_line(Writer& w, std::string_view what, const ClientGroup& g, std::size_t most_lines) {
    ClientGroup shown = g;
    constexpr std::size_t names_shown = 3;
    std::string more;
    if (shown.names.size() > names_shown + 1) {
        more = fmt::format(" and {} more (-v)", shown.names.size() - names_shown);
        shown.names.resize(names_shown);
    }
    auto text = fmt::format("{} {}: {}{}.", what, group_span(g), group_names(shown), more);
    if (most_lines > 0 && wrapped_lines(w, "  ", text, 4) > most_lines)
        text = fitted(w, "  ", 4, g, most_lines, [&](const std::string& names) {
            return fmt::format("{} {}: {}.", what, group_span(g), names);
        });
    w.wrapped("  ", text, 4);
}

} // namespace

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

void clients_lines(Writer& w, const TargetReport& t, std::size_t fold_lines) {
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
        // Said already by the healthy finding ("... accepts in T") or the
        // server-down one ("pays T per connection attempt"): each once.
        const auto& p = d.clients.front().prediction;
        if (!timed_by_a_finding(d))
            w.wrapped("  ",
                      p.connected ? fmt::format("Every client model connects in about {} here.",
                                                format_duration(p.time))
                                  : fmt::format("Every client model fails after about {} here.",
                                                format_duration(p.time)),
                      2);
    } else {
        w.line("  What clients pay to connect (modelled; -v: each client)");
        client_fold(w, t, FoldOn::here, fold_lines);
    }
    // Off Windows, the projection in a line or two: while others connect,
    // every client that fails there whatever its time (not only those that
    // fail alike: "these fail" must not read as "only these"); then the
    // costliest that connect (or, when none does, the costliest failures).
    if (windows && !d.clients_agree_on_windows && !windows_as_here(d)) {
        const auto groups = fold_clients(d.clients, FoldOn::windows);
        const auto connects =
            std::find_if(groups.begin(), groups.end(), [](const auto& g) { return g.connected; });
        if (const auto failing = failing_clients(d.clients, FoldOn::windows);
            failing && connects != groups.end())
            windows_line(w, "On Windows these fail after", *failing, fold_lines);
        const auto& g = connects != groups.end() ? *connects : groups.front();
        windows_line(w,
                     g.connected ? "On Windows the costliest connect in"
                                 : "On Windows the costliest fail after",
                     g, fold_lines);
    }
}

} // namespace loopcheck::text
