// The Markdown renderer: a report value in, Markdown for a bug ticket out
// (src/report/markdown/); every untrusted text neutralised (core/untrusted).
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

std::string render_markdown(const Report& report);
std::string render_markdown(const AuditReport& report);
std::string render_markdown(const WaitReport& report);
std::string render_markdown(const ScanResult& result);
/// A plain table per address: limit -> outcome, median, min, max; then the
/// OS and loopcheck's version.
std::string render_markdown(const StaircaseReport& report);

/// `loopcheck listen --markdown`: the listening sockets as a table (written
/// at once), and the closing line; accepted connections stay on stderr.
std::string render_markdown_listening(const std::vector<ListeningSocket>& sockets);
std::string render_markdown_stopped(std::size_t accepted);

/// The verdict, what ran, a table of the groups, each slow group's rows and fix.
std::string render_markdown(const TraceReport& report);

} // namespace loopcheck
