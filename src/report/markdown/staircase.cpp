// `loopcheck staircase` as Markdown for a ticket: one plain table per
// address (limit -> outcome, median, min, max) with the same numbers as a
// chart GitHub draws, its conclusion, and the OS and loopcheck version it
// was measured with.
#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/report/markdown.hpp"
#include "report/markdown/staircase_chart.hpp"

#include <fmt/format.h>

namespace loopcheck {

std::string render_markdown(const StaircaseReport& r) {
    std::string out = fmt::format(
        "## loopcheck staircase\n\nRefused connects with {} set to each limit, {} probe(s) per "
        "limit, timeout {}.\n\n",
        syn_limit_option(r.system.os), r.count, format_duration(r.timeout));
    if (r.incomplete)
        out += "**INCOMPLETE**: interrupted before every probe finished.\n\n";
    for (const auto& note : r.notes)
        out += fmt::format("Note: {}\n\n", escape_markdown(note));
    for (const auto& a : r.addresses) {
        out += fmt::format("### `{}`{}: {}\n\n", endpoint_string(a.address),
                           a.reserved ? " (a closed port loopcheck reserved)" : "",
                           staircase_shape_name(a.shape));
        out += "| Limit | Outcome | Median | Min | Max |\n|---|---|---|---|---|\n";
        for (const auto& s : a.steps) {
            const bool measured = s.latency.count > 0;
            out += fmt::format("| {} | {}{} | {} | {} | {} |\n", s.limit, step_outcome_name(s),
                               s.mixed ? " (mixed)" : "",
                               measured ? format_duration(s.latency.median) : "-",
                               measured ? format_duration(s.latency.min) : "-",
                               measured ? format_duration(s.latency.max) : "-");
        }
        // The picture after the numbers: where Mermaid is not rendered the
        // block is code, and the table above still says everything.
        if (auto chart = staircase_chart(a); !chart.empty())
            out += "\n" + chart;
        out += fmt::format("\n{}\n\n", escape_markdown(a.conclusion));
    }
    out += fmt::format("System: {} {}; loopcheck {}\n", escape_markdown(r.system.os_name),
                       escape_markdown(r.system.os_version), escape_markdown(r.loopcheck_version));
    return out;
}

} // namespace loopcheck
