// `loopcheck wait` as text: each target's timeline, the findings, the end.
#include "loopcheck/report/text.hpp"

#include "report/wait_lines.hpp"

#include <fmt/format.h>

namespace loopcheck {

std::string render_text(const WaitReport& r) {
    std::string out;
    for (const auto& t : r.targets) {
        out += fmt::format("{}: {}\n", t.target.input, target_headline(r, t));
        for (const auto& a : t.addresses)
            out += fmt::format("  {:<16} {}\n", ip_string(a.address), timeline_text(a));
    }
    for (const auto& f : r.findings)
        out += fmt::format("{}: {}: {}\n", severity_name(f.severity), f.target, f.message);
    out += fmt::format("{}; exit {}\n", ending(r), r.exit_code);
    return out;
}

} // namespace loopcheck
