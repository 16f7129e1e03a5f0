// `loopcheck wait` as Markdown for a ticket.
#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/report/markdown.hpp"
#include "report/wait_lines.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

std::string render_markdown(const WaitReport& r) {
    // Every piece goes through core/untrusted.hpp's neutraliser, as in the
    // main report and audit's: findings quote process names and the
    // command line quotes what was typed (issue 28).
    constexpr auto inline_text = MarkdownPlace::inline_text;
    std::string out = "## loopcheck wait\n\n";
    // "Command:" first: a line that opens with a run of three backticks
    // (a command line holding two) would read as a code fence to some.
    out += fmt::format("Command: {} (loopcheck {}{}): {}; exit {}\n\n",
                       markdown_code(escape_controls(r.command_line), inline_text),
                       escape_markdown(r.loopcheck_version),
                       r.os.empty() ? "" : fmt::format(" on {}", escape_markdown(r.os)),
                       escape_markdown(ending(r)), r.exit_code);
    for (const auto& t : r.targets) {
        out += fmt::format("### {}: {}\n\n", markdown_code(t.target.input, inline_text),
                           escape_markdown(target_headline(r, t)));
        if (t.addresses.empty())
            continue;
        out += "| Address | First accept | Timeline |\n|---|---|---|\n";
        for (const auto& a : t.addresses)
            out += fmt::format("| {} | {} | {} |\n", escape_markdown(ip_string(a.address)),
                               a.first_accept ? format_duration(*a.first_accept) : "-",
                               escape_markdown(timeline_text(a)));
        out += "\n";
    }
    if (!r.findings.empty()) {
        out += "### Findings\n\n";
        for (const auto& f : r.findings)
            out += fmt::format("- **{}** {}: {}\n", severity_name(f.severity),
                               markdown_code(f.target, inline_text), escape_markdown(f.message));
    }
    return out;
}

} // namespace loopcheck
