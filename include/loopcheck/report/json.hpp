// The JSON renderer: every command's report value in, one JSON document
// out (src/report/json/), each with its "schema" name: "loopcheck/1"
// (docs/report.schema.json), "loopcheck-audit/1" (each port's "localhost"
// object is a "targets" entry of the check's), "loopcheck-staircase/1"
// (durations in milliseconds), "loopcheck-wait/2" (docs/wait.schema.json),
// "loopcheck-scan/1" (docs/scan.schema.json); `loopcheck listen`'s events as
// JSON Lines (docs/usage.md).
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

std::string render_json(const Report& report);
std::string render_json(const AuditReport& report);
std::string render_json(const StaircaseReport& report);
std::string render_json(const WaitReport& report);
/// "schema": "loopcheck-scan/1" (docs/scan.schema.json): every hit.
std::string render_json(const ScanResult& result);

/// `loopcheck listen --json`: one object on one line per event, so a script
/// reads each as it comes. {"event":"listening","address":...,"port":...,
/// "family":...,"v6only":...} per socket; {"event":"accepted","peer":...,
/// "on":...} per connection; {"event":"stopped","accepted":N} at the end.
std::string render_json_listening(const std::vector<ListeningSocket>& sockets);
std::string render_json_accepted(const Address& peer, const Address& on);
std::string render_json_stopped(std::size_t accepted);

/// "schema": "loopcheck-trace/1" (docs/trace.schema.json): every group and connect.
std::string render_json(const TraceReport& report);

} // namespace loopcheck
