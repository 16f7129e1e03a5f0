// `loopcheck scan` as text: the one-line summary, the risky hits with where,
// who listens, the cost here and on Windows and the fix, the server binds,
// then counts (one screen unless -v).
#include "loopcheck/report/text.hpp"

#include "loopcheck/core/scan_cost.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "report/scan_cells.hpp"

#include <fmt/format.h>

namespace loopcheck {

namespace {

constexpr std::size_t default_risky_shown = 12;
constexpr std::size_t default_servers_shown = 5;

std::string paint(bool color, std::string_view text, int code) {
    return color ? fmt::format("\033[{}m{}\033[0m", code, text) : std::string(text);
}

void text_details(std::string& out, const ScanHit& h, const TextStyle& style) {
    out += fmt::format("    {}\n", paint(style.color, h.text.escaped(), 2));
    out += fmt::format("    {}\n", h.reason);
    if (!h.pinned.empty())
        out += fmt::format("    pinned: {}\n", h.pinned);
    if (!h.consumer.empty())
        out += fmt::format("    read by: {}\n", h.consumer);
    if (!h.listens.empty())
        out += fmt::format("    listens: {}{}\n", h.listens, h.inferred ? " [inferred]" : "");
    if (!h.cost_windows.empty())
        out += fmt::format("    here: {}; on Windows: {}\n",
                           h.cost_here.empty() ? "not probed" : h.cost_here, h.cost_windows);
    if (!h.fix.empty())
        out += fmt::format("    fix: {}\n", h.fix);
}

void text_hit(std::string& out, const ScanHit& h, const TextStyle& style, bool details) {
    const std::string_view label = h.risky ? "RISKY" : hit_kind_name(h.kind);
    out += fmt::format("  {} {}  {}  {}\n",
                       paint(style.color, fmt::format("{:<8}", label), h.risky ? 31 : 1), where(h),
                       who(h), target(h));
    if (details)
        text_details(out, h, style);
}

} // namespace

std::string render_text(const ScanResult& r, const TextStyle& style, bool verbose) {
    std::string out = paint(style.color, scan_summary(r), r.exit_code == 0 ? 32 : 33) + "\n";
    if (!r.probe_note.empty())
        out += r.probe_note + "\n";
    std::size_t risky = 0, servers = 0, rest = 0;
    for (const ScanHit& h : r.hits) {
        const bool show = verbose || (h.risky && risky < default_risky_shown) ||
                          (h.kind == HitKind::server && servers < default_servers_shown);
        if (!show) {
            ++rest;
            continue;
        }
        if (risky + servers == 0 && !verbose)
            out += "\n";
        risky += h.risky ? 1 : 0;
        servers += h.kind == HitKind::server && !h.risky ? 1 : 0;
        text_hit(out, h, style,
                 h.risky || h.kind == HitKind::server || (verbose && h.kind != HitKind::harmless));
    }
    if (rest > 0)
        out += fmt::format("\n{} more hits not shown (-v shows every hit)\n", rest);
    out += '\n';
    out += skips_line(r);
    out += '\n';
    if (verbose)
        for (const Untrusted& name : r.skips.named)
            out += fmt::format("  skipped or caveated: {}\n", name.escaped());
    if (r.interrupted)
        out += "interrupted: the result so far\n";
    return out;
}

} // namespace loopcheck
