// `loopcheck audit` as a request and its report (src/run/audit.cpp).
#pragma once

#include "loopcheck/core/diagnose/audit.hpp"
#include "loopcheck/core/result.hpp"
#include "loopcheck/run/progress.hpp"

#include <string>
#include <vector>

namespace loopcheck {

struct AuditRequest {
    std::vector<PortRange> ranges; ///< empty: every port
    Micros timeout{5'000'000};
    Micros threshold{100'000};
    bool no_pair = false;
    std::string command_line; ///< as the report shows it
};

/// Reads the listener table once, keeps every listener a loopback client
/// can reach, and checks localhost:PORT for all their ports at once; the
/// report's exit_code is set. An Error (ErrorKind::system) when the OS
/// gives no listener table: without it there is nothing to audit.
Result<AuditReport> run_audit(const AuditRequest& request, const ProgressFn& progress = {});

} // namespace loopcheck
