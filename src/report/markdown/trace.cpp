// `loopcheck trace` as Markdown for a ticket or a CI job summary: the
// verdict, what ran, a table of the groups, each group's Windows rows and
// fix. Every sentence comes from report/trace_lines.cpp (escaped once
// there) and goes through escape_markdown here.
#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/report/markdown.hpp"
#include "report/trace_lines.hpp"

#include <fmt/format.h>

namespace loopcheck {

std::string render_markdown(const TraceReport& r) {
    constexpr auto cell = MarkdownPlace::table_cell;
    std::string out = "## loopcheck trace\n\n";
    out += fmt::format("**{}**: {}\n\n", trace_verdict_word(r), escape_markdown(trace_verdict(r)));
    out += fmt::format("Traced: {} (loopcheck {}{})\n\n", escape_markdown(trace_what_ran(r)),
                       escape_markdown(r.loopcheck_version),
                       r.os.empty() ? "" : fmt::format(" on {}", escape_markdown(r.os)));
    if (!r.run.mode_reason.empty())
        out += fmt::format("Mode: {}\n\n", escape_markdown(escape_text(r.run.mode_reason)));
    if (const auto limits = trace_limits(r); !limits.empty())
        out += fmt::format("Limits: {}\n\n", escape_markdown(limits));
    if (!r.groups.empty()) {
        out += "| Runtime | Target | Connections | Refused | Lost here | On Windows |\n"
               "|---|---|---|---|---|---|\n";
        for (const auto& g : r.groups)
            out +=
                fmt::format("| {} | {} | {} | {} | {} | {} |\n", escape_markdown(group_runtime(g)),
                            markdown_code(group_target(g), cell), g.connections, g.refused,
                            format_duration(g.lost_here), escape_markdown(group_windows(g)));
        out += "\n";
    }
    for (const auto& g : r.groups) {
        if (!g.fix)
            continue;
        out += fmt::format("### {} {}\n\n", escape_markdown(group_runtime(g)),
                           markdown_code(group_target(g), MarkdownPlace::inline_text));
        if (const auto refused = group_refused(g); !refused.empty())
            out += fmt::format("- Refused: {}\n", escape_markdown(refused));
        out += fmt::format("- Here: {}\n", escape_markdown(group_here(g, r.run)));
        if (const auto measured = group_measured(g); !measured.empty())
            out += fmt::format("- Measured: {}\n", escape_markdown(measured));
        out += fmt::format("- On Windows: {}\n", escape_markdown(group_windows(g)));
        for (const auto& row : g.rows)
            out += fmt::format("  - {}\n", escape_markdown(row_cost(row)));
        out += fmt::format("- **Fix**: {}\n\n", escape_markdown(group_fix(g)));
    }
    out += escape_markdown(trace_exit_line(r)) + "\n";
    return out;
}

} // namespace loopcheck
