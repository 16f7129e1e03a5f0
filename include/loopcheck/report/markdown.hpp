// The Markdown renderer: a report value in, Markdown for a bug ticket out
// (src/report/markdown/); every untrusted text neutralised (core/untrusted).
#pragma once

#include "loopcheck/core/audit.hpp"
#include "loopcheck/core/report.hpp"
#include "loopcheck/core/scan.hpp"
#include "loopcheck/core/wait.hpp"

#include <string>

namespace loopcheck {

std::string render_markdown(const Report& report);
std::string render_markdown(const AuditReport& report);
std::string render_markdown(const WaitReport& report);
std::string render_markdown(const ScanResult& result);

} // namespace loopcheck
