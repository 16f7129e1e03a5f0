// `loopcheck wait` as text: each target's timeline, the findings, the end.
#include "loopcheck/core/text.hpp"
#include "loopcheck/report/text.hpp"
#include "report/text/table.hpp"
#include "report/wait_lines.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace loopcheck {

std::string render_text(const WaitReport& r, const TextStyle& style) {
    const auto width = static_cast<std::size_t>(std::max(40, style.width));
    std::string out;
    for (const auto& t : r.targets) {
        wrap_into(out, "", fmt::format("{}: {}", t.target.input, target_headline(r, t)), 2, width);
        text::Table table;
        for (const auto& a : t.addresses)
            table.rows.push_back({ip_string(a.address), timeline_text(a)});
        for (const auto& line : text::table_lines(table, width))
            out += line + "\n";
    }
    for (const auto& f : r.findings)
        wrap_into(out, "", fmt::format("{}: {}: {}", severity_name(f.severity), f.target, f.message),
                  2, width);
    wrap_into(out, "", fmt::format("{}; exit {}", ending(r), r.exit_code), 2, width);
    return out;
}

} // namespace loopcheck
