// `loopcheck trace -- COMMAND` as a request and what its run observed
// (src/run/trace.cpp). The analysis of the TraceRun is core's.
#pragma once

#include "loopcheck/core/result.hpp"
#include "loopcheck/core/input/redact.hpp"
#include "loopcheck/core/trace/trace.hpp"

#include <string>
#include <vector>

namespace loopcheck {

struct TraceRequest {
    std::vector<std::string> command; ///< the command and its arguments, as given after --
    bool windows_order = false;       ///< --windows-order
    bool windows_timing = false;      ///< --windows-timing
    /// The getaddrinfo preload shim; empty: loopcheck-names.so beside the
    /// loopcheck executable (tests give the build tree's).
    std::string name_shim;
    /// Secrets::redact: credential values in the command's and each
    /// process's arguments are "***" in the run returned (`--token X`,
    /// `API_KEY=X`, a URL's query) once the runtimes are named.
    Secrets secrets = Secrets::redact;
};

/// Runs the command under the tracer and returns what it observed: every
/// loopback TCP connect, every exec, the mode that ran and why, the
/// command's exit status or signal. SIGINT and SIGQUIT from the terminal
/// reach the command directly (it stays in loopcheck's process group);
/// SIGTERM and SIGHUP sent to loopcheck are forwarded; no traced process
/// is left stopped. Returns when the command and every process it started
/// have exited. Errors: ErrorKind::usage when the command cannot be run or
/// the OS has no tracer ("not available on this OS yet"); ErrorKind::system
/// when fork or pipe fails.
Result<TraceRun> run_trace(const TraceRequest& request);

} // namespace loopcheck
