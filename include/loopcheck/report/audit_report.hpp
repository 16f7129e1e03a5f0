// The reporters of `loopcheck audit`: one AuditReport in, text out. Like
// the check's reporters they format and never compute.
#pragma once

#include "loopcheck/core/audit.hpp"
#include "loopcheck/report/render.hpp"

#include <string>

namespace loopcheck {

std::string render_audit_text(const AuditReport& report, const TextStyle& style);
/// "schema": "loopcheck-audit/1"; each port's "localhost" object is a
/// "targets" entry of the check's JSON report.
std::string render_audit_json(const AuditReport& report);
std::string render_audit_markdown(const AuditReport& report);

} // namespace loopcheck
