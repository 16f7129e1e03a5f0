// The cells and lines `loopcheck audit` shows in both text and Markdown
// (src/report/audit_cells.cpp), so both formats say the same.
#pragma once

#include "loopcheck/core/audit.hpp"

#include <string>
#include <vector>

namespace loopcheck {

/// Where a port's listeners are bound: "127.0.0.1, [::1]".
std::string bound_cell(const AuditPort& p);
/// Who listens: "python3 (pid 4242)".
std::string owner_cell(const AuditPort& p);
/// "OK 0.050 ms via 127.0.0.1", "SLOW 0.26 s to 2.03 s (slowest: .NET HttpClient)",
/// "DOWN not reached: 127.0.0.1 refused".
std::string localhost_cell(const TargetReport& t);
/// What localhost resolves to here, in one line.
std::string localhost_line(const AuditReport& r);
/// What the table could not show, or "" when nothing.
std::string footnote(const AuditReport& r);
/// Whether a port has findings or fixes to list below the table.
bool has_details(const AuditPort& p);

/// Ports whose details read the same (the same findings, the same fixes):
/// one paragraph for all of them, in the table's order. Each group holds
/// indices into AuditReport::ports; ports without details are left out.
std::vector<std::vector<std::size_t>> detail_groups(const AuditReport& r);
/// "Port 8000", "Ports 8000, 8080 and 9000".
std::string ports_heading(const AuditReport& r, const std::vector<std::size_t>& group);

} // namespace loopcheck
