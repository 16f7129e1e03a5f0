// `loopcheck wait` as one document (each target's timeline, the findings,
// how the wait ended), written as text and as Markdown for a ticket.
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "report/document.hpp"
#include "report/wait_lines.hpp"

#include <fmt/format.h>

namespace loopcheck {

namespace {

using namespace doc;

/// Markdown's provenance line for a ticket. "Command:" first: a line that
/// opens with a run of three backticks (a command line holding two) would
/// read as a code fence to some.
Paragraph command_line(const WaitReport& r) {
    Paragraph p{.body = {literal("Command: "), code(r.command_line), literal(" (loopcheck "),
                         prose(r.loopcheck_version)},
                .media = Media::markdown};
    if (!r.os.empty())
        p.body.insert(p.body.end(), {literal(" on "), prose(r.os)});
    p.body.insert(p.body.end(), {literal("): "), prose(ending(r)),
                                 literal(fmt::format("; exit {}", r.exit_code))});
    return p;
}

/// One row per address: its polls as runs of one outcome.
Table timelines(const WaitTarget& t) {
    Table table{.columns = {{{literal("Address")}},
                            {{literal("First accept")}, Media::markdown},
                            {{literal("Timeline")}}},
                .header = Media::markdown};
    for (const auto& a : t.addresses)
        table.rows.push_back({{{prose(ip_string(a.address))}},
                              {{literal(a.first_accept ? format_duration(*a.first_accept) : "-")}},
                              {{prose(timeline_text(a))}}});
    return table;
}

Document wait_document(const WaitReport& r) {
    Document d;
    d.add(Paragraph{.body = {literal("loopcheck wait")}, .level = 2, .media = Media::markdown});
    d.add(command_line(r));
    for (const auto& t : r.targets) {
        d.add(Paragraph{.body = {code(t.target.input), literal(": "), prose(target_headline(r, t))},
                        .level = 3});
        if (!t.addresses.empty())
            d.add(timelines(t));
    }
    if (!r.findings.empty()) {
        d.add(Paragraph{.body = {literal("Findings")}, .level = 3, .media = Media::markdown});
        List findings;
        for (const auto& f : r.findings)
            findings.items.push_back(
                {.body = {strong(literal(std::string(severity_name(f.severity)))),
                          only(Media::text, literal(":")), literal(" "), code(f.target),
                          literal(": "), prose(f.message)}});
        d.add(std::move(findings));
    } else {
        d.add(Gap{Media::markdown}); // Markdown has ended on a blank line
    }
    d.add(Paragraph{.body = {prose(ending(r)), literal(fmt::format("; exit {}", r.exit_code))},
                    .media = Media::text});
    return d;
}

} // namespace

std::string render_text(const WaitReport& r, const TextStyle& style) {
    return to_terminal(wait_document(r), style);
}

std::string render_markdown(const WaitReport& r) {
    return to_markdown(wait_document(r));
}

} // namespace loopcheck
