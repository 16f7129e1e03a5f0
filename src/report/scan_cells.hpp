// The cells `loopcheck scan` shows in both text and Markdown
// (src/report/scan_cells.cpp), so both formats say the same.
#pragma once

#include "loopcheck/core/scan/scan.hpp"

#include <string>

namespace loopcheck {

/// path:line:col, or path cell N line L:col for a notebook (escaped).
std::string where(const ScanHit& h);
/// The hit's host and port as written: "localhost:11434".
std::string target(const ScanHit& h);
/// What the hit is: the client and its row, the config key, the server
/// bound, or the harmless rule.
std::string who(const ScanHit& h);
/// What was read and what was skipped, in one line.
std::string skips_line(const ScanResult& r);

} // namespace loopcheck
