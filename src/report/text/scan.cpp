// `loopcheck scan` as text: the one-line summary, the risky hits with where,
// who listens, the cost here and on Windows and the fix, the server binds,
// then counts (one screen unless -v).
#include "loopcheck/core/scan/cost.hpp"
#include "loopcheck/core/scan/gate.hpp"
#include "loopcheck/core/text/text.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/report/text.hpp"
#include "report/scan_cells.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <vector>

namespace loopcheck {

namespace {

constexpr std::size_t default_risky_shown = 12;
constexpr std::size_t default_servers_shown = 5;

std::string paint(bool color, std::string_view text, int code) {
    return color ? fmt::format("\033[{}m{}\033[0m", code, text) : std::string(text);
}

/// A detail line, wrapped at the width under its hit.
void detail(std::string& out, const std::string& text, const TextStyle& style) {
    wrap_into(out, "    ", text, 6, static_cast<std::size_t>(std::max(40, style.width)));
}

void text_details(std::string& out, const ScanHit& h, const TextStyle& style) {
    // The quoted line is the file's own text: escaped, dimmed, never wrapped
    // mid-word by the terminal.
    std::string quoted;
    wrap_into(quoted, "    ", h.text.escaped(), 6,
              static_cast<std::size_t>(std::max(40, style.width)));
    out += style.color ? paint(true, quoted.substr(0, quoted.size() - 1), 2) + "\n" : quoted;
    detail(out, h.reason, style);
    if (!h.pinned.empty())
        detail(out, fmt::format("pinned: {}", h.pinned), style);
    if (!h.consumer.empty())
        detail(out, fmt::format("read by: {}", h.consumer), style);
    if (!h.listens.empty())
        detail(out, fmt::format("listens: {}{}", h.listens, h.inferred ? " [inferred]" : ""),
               style);
    if (!h.cost_windows.empty())
        detail(out,
               fmt::format("here: {}; on Windows: {}",
                           h.cost_here.empty() ? "not probed" : h.cost_here, h.cost_windows),
               style);
}

void text_hit(std::string& out, const ScanHit& h, const TextStyle& style, bool details) {
    // A risky hit the gate holds back (a comment, the config, the baseline,
    // --since) is shown for what it is, and marked so.
    const std::string_view label = !h.risky                  ? hit_kind_name(h.kind)
                                   : h.gate == HitGate::open ? "RISKY"
                                                             : "risky";
    wrap_into(
        out,
        fmt::format("  {} ", paint(style.color, fmt::format("{:<8}", label), h.risky ? 31 : 1)),
        fmt::format("{}  {}  {}", where(h), who(h), target(h)), 11,
        static_cast<std::size_t>(std::max(40, style.width)));
    if (details)
        text_details(out, h, style);
    if (h.risky && h.gate != HitGate::open)
        detail(out, fmt::format("not failing the gate: {}", hit_gate_name(h.gate)), style);
}

} // namespace

std::string render_text(const ScanResult& r, const TextStyle& style, bool verbose) {
    const auto width = static_cast<std::size_t>(std::max(40, style.width));
    std::string summary;
    wrap_into(summary, "", scan_summary(r), 2, width);
    std::string out =
        style.color
            ? paint(true, summary.substr(0, summary.size() - 1), r.exit_code == 0 ? 32 : 33) + "\n"
            : summary;
    if (!r.probe_note.empty())
        wrap_into(out, "", r.probe_note, 2, width);
    // What the gate held back, and from which config: said once, up top.
    const std::string held = gate_summary(r);
    if (!held.empty() || !r.config_path.empty() || r.exit_zero || !r.since.empty())
        wrap_into(out, "",
                  fmt::format(
                      "gate: {}{}{}{}{}",
                      held.empty() ? "nothing held back" : held + " not failing it",
                      r.config_path.empty()
                          ? std::string()
                          : fmt::format("; config {}", Untrusted(r.config_path).escaped()),
                      r.files_excluded == 0 ? std::string()
                                            : fmt::format("; {} file{} excluded", r.files_excluded,
                                                          r.files_excluded == 1 ? "" : "s"),
                      r.since.empty() ? std::string()
                                      : fmt::format("; since {}", Untrusted(r.since).escaped()),
                      r.exit_zero ? "; --exit-zero" : ""),
                  2, width);
    std::size_t risky = 0, servers = 0, rest = 0;
    std::vector<const ScanHit*> shown;
    for (const ScanHit& h : r.hits) {
        const bool show = verbose || (h.risky && risky < default_risky_shown) ||
                          (h.kind == HitKind::server && servers < default_servers_shown);
        if (!show) {
            ++rest;
            continue;
        }
        risky += h.risky ? 1 : 0;
        servers += h.kind == HitKind::server && !h.risky ? 1 : 0;
        shown.push_back(&h);
    }
    if (!shown.empty() && !verbose)
        out += "\n";
    // Hits of one URL share one fix (conclude_scan ranks them together):
    // said once, after the last of them.
    std::size_t same_fix = 0;
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const ScanHit& h = *shown[i];
        const bool details =
            h.risky || h.kind == HitKind::server || (verbose && h.kind != HitKind::harmless);
        text_hit(out, h, style, details);
        if (!details || h.fix.empty())
            continue;
        ++same_fix;
        if (i + 1 < shown.size() && shown[i + 1]->fix == h.fix)
            continue;
        detail(out,
               same_fix == 1 ? fmt::format("fix: {}", h.fix)
                             : fmt::format("fix for the {} hits above: {}", same_fix, h.fix),
               style);
        same_fix = 0;
    }
    if (rest > 0)
        out += fmt::format("\n{} more hit{} not shown (-v shows every hit)\n", rest,
                           rest == 1 ? "" : "s");
    out += '\n';
    wrap_into(out, "", skips_line(r), 2, width);
    if (verbose)
        for (const Untrusted& name : r.skips.named)
            wrap_into(out, "  ", fmt::format("skipped or caveated: {}", name.escaped()), 4, width);
    if (r.interrupted)
        out += "interrupted: the result so far\n";
    return out;
}

} // namespace loopcheck
