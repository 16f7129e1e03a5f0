// `loopcheck wait` as Markdown for a ticket.
#include "loopcheck/report/markdown.hpp"

#include "report/wait_lines.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

std::string render_markdown(const WaitReport& r) {
    std::string out = "## loopcheck wait\n\n";
    out += fmt::format("`{}` (loopcheck {}): {}; exit {}\n\n", r.command_line, r.loopcheck_version,
                       ending(r), r.exit_code);
    for (const auto& t : r.targets) {
        out += fmt::format("### {}: {}\n\n", t.target.input, target_headline(r, t));
        if (t.addresses.empty())
            continue;
        out += "| Address | First accept | Timeline |\n|---|---|---|\n";
        for (const auto& a : t.addresses)
            out += fmt::format("| {} | {} | {} |\n", ip_string(a.address),
                               a.first_accept ? format_duration(*a.first_accept) : "-",
                               timeline_text(a));
        out += "\n";
    }
    if (!r.findings.empty()) {
        out += "### Findings\n\n";
        for (const auto& f : r.findings)
            out += fmt::format("- **{}** {}: {}\n", severity_name(f.severity), f.target, f.text);
    }
    return out;
}

} // namespace loopcheck
