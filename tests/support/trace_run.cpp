// loopcheck_trace_run [--windows-order] [--windows-timing] -- COMMAND...:
// run_trace's TraceRun as plain lines, for bench/trace and for trying the
// engine on real clients by hand. Not the `loopcheck trace` command (its
// report is core's and the CLI's); a test tool.
#include "loopcheck/core/trace/trace.hpp"
#include "loopcheck/run/trace.hpp"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

const char* outcome_name(loopcheck::TraceOutcome o) {
    switch (o) {
    case loopcheck::TraceOutcome::accepted:
        return "accepted";
    case loopcheck::TraceOutcome::refused:
        return "refused";
    case loopcheck::TraceOutcome::timed_out:
        return "timed_out";
    case loopcheck::TraceOutcome::abandoned:
        return "abandoned";
    case loopcheck::TraceOutcome::error:
        return "error";
    case loopcheck::TraceOutcome::unknown:
        return "unknown";
    }
    return "?";
}

} // namespace

int main(int argc, char** argv) {
    loopcheck::TraceRequest request;
    int i = 1;
    for (; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
        request.windows_order =
            request.windows_order || std::strcmp(argv[i], "--windows-order") == 0;
        request.windows_timing =
            request.windows_timing || std::strcmp(argv[i], "--windows-timing") == 0;
    }
    for (++i; i < argc; ++i)
        request.command.emplace_back(argv[i]);
    request.name_shim = LOOPCHECK_NAME_SHIM;
    const auto run = loopcheck::run_trace(request);
    if (!run.ok()) {
        std::fprintf(stderr, "trace_run: %s\n", run.error().message.c_str());
        return 2;
    }
    std::fprintf(stderr, "mode: %s\n", run->mode_reason.c_str());
    if (!run->windows_order_note.empty())
        std::fprintf(stderr, "order: %s\n", run->windows_order_note.c_str());
    if (!run->windows_timing_note.empty())
        std::fprintf(stderr, "timing: %s\n", run->windows_timing_note.c_str());
    for (const auto& c : run->connects)
        std::fprintf(stderr,
                     "connect %8.1f ms pid %d %s %s%s%s %s %.1f ms syn-retx %u program-errno %d\n",
                     c.start_ms, c.pid, loopcheck::endpoint_string(c.destination).c_str(),
                     c.name.empty() ? "" : "name ", c.name.c_str(),
                     c.nonblocking ? " nonblocking" : "", outcome_name(c.outcome),
                     c.duration_ms.value_or(-1), c.syn_retransmits, c.program_errno.value_or(-1));
    for (const auto& p : run->processes)
        std::fprintf(stderr, "exec pid %d parent %d %s\n", p.pid, p.parent_pid,
                     p.executable.c_str());
    std::fprintf(stderr,
                 "other %llu io_uring %llu self-tracing %zu wall %.1f ms exit %d signal %d\n",
                 static_cast<unsigned long long>(run->other_connects),
                 static_cast<unsigned long long>(run->io_uring_setups),
                 run->self_tracing_pids.size(), run->wall_ms, run->exit_status, run->exit_signal);
    return run->exit_signal != 0 ? 128 + run->exit_signal : run->exit_status;
}
