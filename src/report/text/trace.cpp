// `loopcheck trace` as text: the verdict line, what ran, then per runtime
// and host:port what was refused, what it cost here and on Windows, and the
// fix; one screen (80x24) unless -v, which adds every group, every client
// row and every connect.
#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/report/text.hpp"
#include "report/text/table.hpp"
#include "report/text/writer.hpp"
#include "report/trace_lines.hpp"

#include <cstdint>
#include <fmt/format.h>

namespace loopcheck {

namespace {

/// Groups shown in full on one screen; the rest get one line each.
constexpr std::size_t groups_in_full = 2;
constexpr std::size_t groups_listed = 4;

bool slow(const TraceGroup& g) {
    return g.fix.has_value();
}

void group_lines(text::Writer& w, const TraceGroup& g, const TraceRun& run) {
    w.wrapped("",
              fmt::format("{}  {}  {}", w.paint(group_runtime(g), text::colors::bold),
                          group_target(g),
                          fmt::format("{} connection{}, {} connect{}", g.connections,
                                      g.connections == 1 ? "" : "s", g.connects,
                                      g.connects == 1 ? "" : "s")),
              2);
    if (const auto refused = group_refused(g); !refused.empty())
        w.wrapped("  refused  ", refused, 11);
    if (g.refused > 0 || g.failures > 0 || run.windows_timing)
        w.wrapped("  here     ", group_here(g, run), 11);
    if (const auto measured = group_measured(g); !measured.empty())
        w.wrapped("  measured ", measured, 11);
    w.wrapped("  Windows  ", group_windows(g), 11);
    if (g.windows_per_connection_min != g.windows_per_connection_max || w.verbose()) {
        // The cheapest and the dearest row; every row with -v.
        const TraceRowCost* lo = nullptr;
        const TraceRowCost* hi = nullptr;
        for (const auto& row : g.rows) {
            if (w.verbose())
                w.wrapped("           ", row_cost(row), 13);
            if (!lo || row.per_connection < lo->per_connection)
                lo = &row;
            if (!hi || row.per_connection > hi->per_connection)
                hi = &row;
        }
        if (!w.verbose() && lo && hi) {
            w.wrapped("           ", row_cost(*hi), 13);
            w.wrapped("           ", row_cost(*lo), 13);
        }
    }
    if (const auto fix = group_fix(g); !fix.empty())
        w.wrapped(w.paint("  fix      ", text::colors::green), fix, 11);
}

void connect_table(text::Writer& w, const TraceReport& r) {
    text::Table t;
    t.header = {"at", "pid", "runtime", "to", "name", "outcome", "took", "program read"};
    for (std::size_t i = 0; i < r.run.connects.size(); ++i) {
        const auto& c = r.run.connects[i];
        t.rows.push_back(
            {format_duration(Micros{static_cast<std::int64_t>(c.start_ms * 1000)}),
             std::to_string(c.pid), i < r.connect_runtimes.size() ? r.connect_runtimes[i] : "",
             endpoint_string(c.destination),
             c.name.empty()
                 ? ""
                 : fmt::format("{} ({})", escape_text(c.name), name_source_name(c.name_source)),
             std::string(trace_outcome_name(c.outcome)),
             c.duration_ms
                 ? format_duration(Micros{static_cast<std::int64_t>(*c.duration_ms * 1000)})
                 : "?",
             c.program_errno
                 ? (*c.program_errno == 0 ? "0" : fmt::format("errno {}", *c.program_errno))
                 : ""});
    }
    text::write_table(w, t);
}

} // namespace

std::string render_text(const TraceReport& r, const TextStyle& style) {
    text::Writer w(style);
    const auto word = trace_verdict_word(r);
    const bool ok = word == "OK";
    w.wrapped(w.paint(fmt::format("{}: ", word), ok ? text::colors::green : text::colors::yellow),
              trace_verdict(r), 2);
    w.wrapped("traced: ", trace_what_ran(r), 2);
    if (!r.run.mode_reason.empty() && r.run.mode != TraceMode::none)
        w.wrapped("mode: ", escape_text(r.run.mode_reason), 2);
    if (const auto limits = trace_limits(r); !limits.empty())
        w.wrapped(w.paint("limits: ", text::colors::yellow), limits, 2);

    std::size_t shown = 0, listed = 0;
    for (const auto& g : r.groups) {
        if (w.verbose() || (slow(g) && shown < groups_in_full)) {
            w.blank();
            group_lines(w, g, r.run);
            ++shown;
        } else if (listed < groups_listed) {
            if (listed == 0)
                w.blank();
            w.wrapped("",
                      fmt::format(
                          "{}  {}  {} connection{}; {}", group_runtime(g), group_target(g),
                          g.connections, g.connections == 1 ? "" : "s",
                          g.windows_total_max.count() == 0 && g.lost_here.count() == 0
                              ? std::string("nothing lost, here or on Windows")
                              : fmt::format("{} on Windows", format_duration(g.windows_total_max))),
                      2);
            ++listed;
        }
    }
    if (!w.verbose() && shown + listed < r.groups.size())
        w.line(fmt::format("... {} more (-v lists them)", r.groups.size() - shown - listed));
    if (w.verbose() && !r.run.connects.empty()) {
        w.blank();
        w.line(w.paint("every loopback connect", text::colors::bold));
        connect_table(w, r);
    }
    if (r.run.other_connects > 0)
        w.line(fmt::format("{} other connect(s) (not loopback TCP) counted, not shown",
                           r.run.other_connects));
    w.blank();
    w.line(trace_exit_line(r));
    return w.take();
}

} // namespace loopcheck
