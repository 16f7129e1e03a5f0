// The lines `loopcheck wait` shows in both text and Markdown
// (src/report/wait_lines.cpp), so both formats say the same.
#pragma once

#include "loopcheck/core/measure/wait.hpp"

#include <string>
#include <string_view>

namespace loopcheck {

/// "refused x40 (0.1 ms..1.00 s)" or "accepted at 1.02 s".
std::string run_text(const WaitRun& run);
/// An address's polls as runs of one outcome: "refused x40 (...), accepted at 1.02 s".
std::string timeline_text(const WaitAddress& a);

/// "up on 127.0.0.1 after 1.02 s", "down after 0.3 s", "not up", "did not resolve".
std::string target_headline(const WaitReport& r, const WaitTarget& t);
/// "warning" or "error".
std::string_view severity_name(WaitSeverity s);
/// How the wait ended: "done after 1.02 s", "--for ran out after 30.0 s".
std::string ending(const WaitReport& r);

} // namespace loopcheck
