// `loopcheck scan` as Markdown for a ticket: client, config and server hits
// as a table.
#include "loopcheck/core/scan/cost.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/report/markdown.hpp"
#include "report/scan_cells.hpp"

#include <fmt/format.h>

namespace loopcheck {

std::string render_markdown(const ScanResult& r) {
    std::string out = "## loopcheck scan\n\n" + escape_markdown(scan_summary(r)) + "\n\n";
    if (!r.loopcheck_version.empty())
        out += fmt::format("loopcheck {}{}\n\n", escape_markdown(r.loopcheck_version),
                           r.os.empty() ? "" : " on " + escape_markdown(r.os));
    // Five columns (issue 24): who and the target share one.
    out += "| | where | who, target | on Windows | fix |\n|---|---|---|---|---|\n";
    std::size_t rows = 0;
    for (const ScanHit& h : r.hits) {
        if (h.kind == HitKind::harmless)
            continue;
        ++rows;
        out += fmt::format(
            "| {} | {} | {} `{}` | {} | {} |\n", h.risky ? "**risky**" : hit_kind_name(h.kind),
            markdown_code(where(h), MarkdownPlace::table_cell), escape_markdown(who(h)), target(h),
            escape_markdown(h.cost_windows), escape_markdown(h.fix));
    }
    if (rows == 0)
        out += "| | no client, config or server hits | | | |\n";
    out += '\n';
    out += escape_markdown(skips_line(r));
    out += '\n';
    return out;
}

} // namespace loopcheck
