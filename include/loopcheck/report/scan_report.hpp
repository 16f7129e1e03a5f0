// The reporters of `loopcheck scan` (src/report/scan_report.cpp): one
// ScanResult in, text out. They format and never compute.
#pragma once

#include "loopcheck/core/scan.hpp"
#include "loopcheck/report/render.hpp"

#include <string>
#include <string_view>

namespace loopcheck {

/// The summary, the risky hits and server binds in detail (every hit with
/// `verbose`), then what was read and skipped.
std::string render_scan_text(const ScanResult& result, const TextStyle& style, bool verbose);
/// "schema": "loopcheck-scan/1" (docs/scan.schema.json): every hit.
std::string render_scan_json(const ScanResult& result, std::string_view version);
/// Client, config and server hits as a table, for a ticket.
std::string render_scan_markdown(const ScanResult& result);

} // namespace loopcheck
