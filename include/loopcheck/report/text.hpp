// The text renderer: every command's report value in, terminal text out
// (src/report/text/). It formats and never computes: every number,
// sentence and decision comes from the value (core).
#pragma once

#include "loopcheck/core/diagnose/audit.hpp"
#include "loopcheck/core/input/listen_spec.hpp"
#include "loopcheck/core/measure/staircase.hpp"
#include "loopcheck/core/measure/wait.hpp"
#include "loopcheck/core/report.hpp"
#include "loopcheck/core/scan/scan.hpp"
#include "loopcheck/core/trace/report.hpp"

#include <string>

namespace loopcheck {

struct TextStyle {
    bool color = false;
    int width = 100; ///< columns every line fits in: prose wraps, tables narrow
    /// Everything: every client row, the resolution detail, every finding
    /// and fix, each target in full (`-v`). Off: one screen.
    bool verbose = false;
    /// Pictures (the staircase's bars) in ASCII, not Unicode blocks:
    /// --ascii, or a locale that is not UTF-8.
    bool ascii = false;
};

/// With more targets than this, the text report is one line per target and
/// a count (as nmap prints one line per port); TextStyle::verbose gives each
/// in full. The cli keeps no client rows for such a run.
inline constexpr std::size_t text_full_reports_up_to = 3;

std::string render_text(const Report& report, const TextStyle& style);
std::string render_text(const AuditReport& report, const TextStyle& style);
/// With a bar per limit fitted to `style.width`, in ASCII with `style.ascii`.
std::string render_text(const StaircaseReport& report, const TextStyle& style = {});
std::string render_text(const WaitReport& report, const TextStyle& style = {});
/// The summary, the risky hits and server binds in detail (every hit with
/// `verbose`), then what was read and skipped.
std::string render_text(const ScanResult& result, const TextStyle& style, bool verbose);
/// `loopcheck listen`: one "listening on ADDRESS" line per socket, never
/// wrapped (a script reads them), the address in bold with colour on.
std::string render_text_listening(const std::vector<ListeningSocket>& sockets,
                                  const TextStyle& style);

/// The verdict line, what ran, then per runtime and host:port what was
/// refused, its cost here and on Windows and the fix (one screen at 80x24);
/// every group, client row and connect with `style.verbose`.
std::string render_text(const TraceReport& report, const TextStyle& style);

} // namespace loopcheck
