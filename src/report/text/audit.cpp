// `loopcheck audit` as text: a summary line, one row per port (who listens
// where, and what localhost:PORT costs), then every port with something to say.
#include "loopcheck/core/listener_queries.hpp"
#include "loopcheck/core/text.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/report/text.hpp"
#include "report/audit_cells.hpp"
#include "report/finding_order.hpp"
#include "report/phrasing.hpp"
#include "report/text/table.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

namespace {

std::string paint(bool color, std::string_view text, int code) {
    return color ? fmt::format("\033[{}m{}\033[0m", code, text) : std::string(text);
}

} // namespace

namespace {

/// One row per port: who listens where, and what localhost:PORT costs.
void port_table(std::string& out, const AuditReport& r, std::size_t width, bool color) {
    text::Table table;
    table.header = {"port", "listening on", "process", "localhost:PORT"};
    table.rows.reserve(r.ports.size());
    for (const auto& p : r.ports)
        table.rows.push_back({std::to_string(p.port), bound_cell(p), owner_cell(p),
                              localhost_cell(r.check.targets[p.target])});
    out += "\n";
    std::size_t header_lines = 0;
    const auto lines = text::table_lines(table, width, &header_lines);
    std::string head; // dimmed as one block, however many lines it took
    for (std::size_t i = 0; i < header_lines; ++i)
        head += (i > 0 ? "\n" : "") + lines[i];
    if (header_lines > 0)
        out += paint(color, head, 2) + "\n";
    for (std::size_t i = header_lines; i < lines.size(); ++i)
        out += lines[i] + "\n";
}

/// Every port with something to say; ports whose details read the same
/// share one paragraph.
void detail_paragraphs(std::string& out, const AuditReport& r, std::size_t width, bool color) {
    for (const auto& group : detail_groups(r)) {
        const auto& p = r.ports[group.front()];
        out += "\n";
        std::string heading;
        wrap_into(heading, "", ports_heading(r, group), 2, width);
        heading.pop_back(); // wrap_into's newline: the colour ends before it
        out += paint(color, heading, 1) + "\n";
        for (const auto* f : by_severity(p.findings)) {
            const int code = f->severity == Severity::error     ? 31
                             : f->severity == Severity::warning ? 33
                                                                : 2;
            wrap_into(
                out,
                paint(color, fmt::format("  {:<8} {}: ", severity_name(f->severity), f->id), code),
                phrasing::finding(*f), 4, width);
        }
        const auto& fixes = r.check.targets[p.target].diagnosis.fixes;
        if (p.exit_code != 0 && !fixes.empty()) {
            out += "  Fix\n";
            for (const auto& f : fixes)
                wrap_into(out, "  - ", phrasing::fix(f), 4, width);
        }
    }
}

} // namespace

std::string render_text(const AuditReport& r, const TextStyle& style) {
    const std::size_t width = static_cast<std::size_t>(std::max(40, style.width));
    std::string out;
    const int summary_color = r.exit_code == 0 ? 32 : (r.exit_code == 1 ? 33 : 31);
    std::string summary;
    wrap_into(summary, "", r.summary, 2, width);
    summary.pop_back();
    out += paint(style.color, summary, summary_color) + "\n";
    if (const auto line = localhost_line(r); !line.empty())
        wrap_into(out, "", line, 2, width);
    if (!r.ports.empty())
        port_table(out, r, width, style.color);
    detail_paragraphs(out, r, width, style.color);
    out += "\n";
    if (const auto note = footnote(r); !note.empty())
        wrap_into(out, "", note, 2, width);
    wrap_into(out, "",
              fmt::format("System: {} {}; timeout {}, threshold {}", r.check.system.os_name,
                          r.check.system.os_version, format_duration(r.check.timeout),
                          format_duration(r.check.threshold)),
              2, width);
    return out;
}

// --- JSON. ----------------------------------------------------------------

} // namespace loopcheck
