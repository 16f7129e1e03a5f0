// run_trace: the request as the platform's tracer options, and the run it
// returns. The only caller of platform::trace_command.
#include "loopcheck/run/trace.hpp"

#include "loopcheck/platform/trace.hpp"

namespace loopcheck {

Result<TraceRun> run_trace(const TraceRequest& request) {
    if (request.command.empty())
        return usage_error("trace: no command to run (give it after --)");
    platform::TraceOptions options;
    options.command = request.command;
    options.windows_order = request.windows_order;
    options.windows_timing = request.windows_timing;
    options.name_shim = request.name_shim;
    return platform::trace_command(options);
}

} // namespace loopcheck
