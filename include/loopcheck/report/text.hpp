// The text renderer: every command's report value in, terminal text out
// (src/report/text/). It formats and never computes: every number,
// sentence and decision comes from the value (core).
#pragma once

#include "loopcheck/core/audit.hpp"
#include "loopcheck/core/report.hpp"
#include "loopcheck/core/scan.hpp"
#include "loopcheck/core/staircase.hpp"
#include "loopcheck/core/wait.hpp"

#include <string>

namespace loopcheck {

struct TextStyle {
    bool color = false;
    int width = 100; ///< columns to wrap prose at
    /// Pictures (the staircase's bars) in ASCII, not Unicode blocks:
    /// --ascii, or a locale that is not UTF-8.
    bool ascii = false;
};

std::string render_text(const Report& report, const TextStyle& style);
std::string render_text(const AuditReport& report, const TextStyle& style);
std::string render_text(const StaircaseReport& report);
/// With a bar per limit fitted to `style.width`, in ASCII with `style.ascii`.
std::string render_text(const StaircaseReport& report, const TextStyle& style);
std::string render_text(const WaitReport& report);
/// The summary, the risky hits and server binds in detail (every hit with
/// `verbose`), then what was read and skipped.
std::string render_text(const ScanResult& result, const TextStyle& style, bool verbose);

} // namespace loopcheck
