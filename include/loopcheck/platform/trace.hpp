// The platform's tracer: runs a command and watches its TCP connects to
// loopback (src/platform/linux/trace*.cpp; elsewhere an error saying it is
// not available). The run layer's run_trace() is its one caller.
#pragma once

#include "loopcheck/core/result.hpp"
#include "loopcheck/core/trace/trace.hpp"

#include <string>
#include <vector>

namespace loopcheck::platform {

/// What to run and how.
struct TraceOptions {
    std::vector<std::string> command; ///< argv; argv[0] is looked up in PATH
    bool windows_order = false;       ///< ::1 first for localhost (mount namespace)
    bool windows_timing = false;      ///< refusals slowed to Windows' ~2 s on real packets
    /// The getaddrinfo shim to preload; empty: the one beside the running
    /// executable (loopcheck-names.so). Missing: names are left to inference.
    std::string name_shim;
};

/// Runs options.command with loopcheck's stdin, stdout, stderr and
/// environment, follows every process and thread it starts until the last
/// one exits, and returns what it saw. Tracing that the system refuses is
/// not an error: the command still runs, with TraceRun::mode `none` (or
/// `preload`) and the reason in mode_reason. Errors: ErrorKind::usage when
/// the command cannot be run (not found, not executable) or the OS has no
/// tracer ("not available on this OS yet"); ErrorKind::system when a call
/// the tracer needs before the command starts fails (fork, pipe).
Result<TraceRun> trace_command(const TraceOptions& options);

} // namespace loopcheck::platform
