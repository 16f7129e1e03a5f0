// `loopcheck audit` as text: a summary line, one row per port (who listens
// where, and what localhost:PORT costs), then every port with something to say.
#include "loopcheck/report/text.hpp"

#include "loopcheck/core/listener_queries.hpp"
#include "loopcheck/core/text.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "report/audit_cells.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

namespace {

std::string paint(bool color, std::string_view text, int code) {
    return color ? fmt::format("\033[{}m{}\033[0m", code, text) : std::string(text);
}

} // namespace

std::string render_text(const AuditReport& r, const TextStyle& style) {
    const std::size_t width = static_cast<std::size_t>(std::max(40, style.width));
    std::string out;
    const int summary_color = r.exit_code == 0 ? 32 : (r.exit_code == 1 ? 33 : 31);
    out += paint(style.color, r.summary, summary_color) + "\n";
    if (const auto line = localhost_line(r); !line.empty())
        wrap_into(out, "", line, 2, width);
    if (!r.ports.empty()) {
        std::array<std::string, 4> head{"port", "listening on", "process", "localhost:PORT"};
        std::vector<std::array<std::string, 4>> rows{head};
        for (const auto& p : r.ports)
            rows.push_back({std::to_string(p.port), bound_cell(p), owner_cell(p),
                            localhost_cell(r.check.targets[p.target])});
        // Widths in characters, not bytes: a process name may be UTF-8.
        std::array<std::size_t, 4> w{};
        for (const auto& row : rows)
            for (std::size_t c = 0; c < row.size(); ++c)
                w[c] = std::max(w[c], columns(row[c]));
        out += "\n";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            std::string line;
            for (std::size_t c = 0; c + 1 < rows[i].size(); ++c) {
                line += "  ";
                append_padded(line, rows[i][c], w[c]);
            }
            line += "  " + rows[i].back();
            out += (i == 0 ? paint(style.color, line, 2) : line) + "\n";
        }
    }
    for (const auto& p : r.ports) {
        if (!has_details(p))
            continue;
        out += fmt::format("\n{}\n", paint(style.color, fmt::format("Port {}", p.port), 1));
        for (const auto& f : p.findings) {
            const int color = f.severity == Severity::error     ? 31
                              : f.severity == Severity::warning ? 33
                                                                : 2;
            wrap_into(out,
                      paint(style.color,
                            fmt::format("  {:<8} {}: ", severity_name(f.severity), f.id), color),
                      f.message, 4, width);
        }
        const auto& fixes = r.check.targets[p.target].diagnosis.fixes;
        if (p.exit_code != 0 && !fixes.empty()) {
            out += "  Fix\n";
            for (const auto& f : fixes)
                wrap_into(out, "  - ", f, 4, width);
        }
    }
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
