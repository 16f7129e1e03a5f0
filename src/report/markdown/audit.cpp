// `loopcheck audit` as Markdown for a ticket: the same table and details
// as the text, every untrusted cell neutralised.
#include "loopcheck/core/listener_queries.hpp"
#include "loopcheck/core/text.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/report/markdown.hpp"
#include "report/audit_cells.hpp"
#include "report/finding_order.hpp"
#include "report/phrasing.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

namespace {

std::string md_cell(std::string_view s) {
    std::string out;
    for (char c : s)
        out += c == '|' ? std::string("\\|") : std::string(1, c == '\n' ? ' ' : c);
    return out;
}

} // namespace

std::string render_markdown(const AuditReport& r) {
    std::string out = fmt::format("## loopcheck audit\n\n**{}**\n\n", escape_markdown(r.summary));
    out += fmt::format(
        "- loopcheck {} on {} {}\n- command: {}\n", r.check.loopcheck_version,
        r.check.system.os_name, r.check.system.os_version,
        markdown_code(escape_controls(r.check.command_line), MarkdownPlace::inline_text));
    if (const auto line = localhost_line(r); !line.empty())
        out += fmt::format("- {}\n", escape_markdown(line));
    if (const auto note = footnote(r); !note.empty())
        out += fmt::format("- {}\n", escape_markdown(note));
    if (!r.ports.empty()) {
        out += "\n| port | listening on | process | localhost:PORT |\n|---|---|---|---|\n";
        for (const auto& p : r.ports)
            out += fmt::format("| {} | `{}` | {} | {} |\n", p.port, md_cell(bound_cell(p)),
                               escape_markdown(owner_cell(p)),
                               escape_markdown(localhost_cell(r.check.targets[p.target])));
    }
    // Ports whose details read the same share one section.
    for (const auto& group : detail_groups(r)) {
        const auto& p = r.ports[group.front()];
        out += fmt::format("\n### {}\n\n", ports_heading(r, group));
        for (const auto* f : by_severity(p.findings))
            out += fmt::format("- **{}** `{}`: {}\n", severity_name(f->severity), f->id,
                               escape_markdown(phrasing::finding(*f)));
        const auto& fixes = r.check.targets[p.target].diagnosis.fixes;
        if (p.exit_code != 0 && !fixes.empty()) {
            out += "\n**Fix**\n\n";
            for (const auto& f : fixes)
                out += fmt::format("- {}\n", escape_markdown(phrasing::fix(f)));
        }
    }
    return out;
}

} // namespace loopcheck
