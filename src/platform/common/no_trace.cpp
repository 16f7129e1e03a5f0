// trace_command where loopcheck has no tracer yet (macOS, Windows, other
// POSIX systems): the Linux one rests on seccomp and ptrace, which only
// Linux has. docs/windows.md gives the design of a Windows version.
#include "loopcheck/platform/trace.hpp"

namespace loopcheck::platform {

Result<TraceRun> trace_command(const TraceOptions& /*options*/) {
    return usage_error("trace: not available on this OS yet (it needs Linux's seccomp and "
                       "ptrace to see a program's connects)");
}

} // namespace loopcheck::platform
