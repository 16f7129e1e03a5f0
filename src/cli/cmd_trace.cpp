// `loopcheck trace [OPTIONS] -- COMMAND [ARGS...]`: its options, the
// request, the analysis and the report (the tracing itself is
// src/run/trace.cpp and the platform's tracer).
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "loopcheck/core/trace/report.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "loopcheck/run/trace.hpp"
#include "loopcheck/run/version.hpp"

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>

namespace loopcheck {

namespace {

// trace's own options, in one place (the shared ones are options.cpp's).
struct TraceArgs {
    std::vector<std::string> command;
    CommonArgs common;
    bool windows_order = false;
    bool windows_timing = false;
};

int run(const TraceArgs& args) {
    auto common = validate_common(args.common);
    if (!common)
        return usage_failure(common.error().message);
    if (args.command.empty())
        return usage_failure("trace: no command to run (give it after --)");
    // No CommandSetup: its Ctrl-C handler would stop loopcheck, while a
    // terminal's SIGINT belongs to the traced command (run_trace forwards
    // SIGTERM and SIGHUP itself).
    TraceRequest request;
    request.command = args.command;
    request.windows_order = args.windows_order;
    request.windows_timing = args.windows_timing;
    request.secrets = common->redaction.secrets;
    auto traced = run_trace(request);
    if (!traced)
        return run_failure(traced.error());
    TraceReport r = analyze_trace(std::move(*traced), common->threshold);
    r.loopcheck_version = std::string(version());
    const auto facts = platform::system_facts();
    r.os = facts.os_name + " " + facts.os_version;
    const bool verbose = common->verbosity > 0;
    return write_report(common->output(),
                        {[&] { return render_text(r, text_style(common->color, verbose)); },
                         [&] { return render_json(r); }, [&] { return render_markdown(r); }},
                        r.exit_code);
}

std::function<int()> declare(CLI::App& sub, std::vector<std::string> /*after_dashes*/) {
    auto args = std::make_shared<TraceArgs>();
    constexpr Command c = Command::trace;
    add_table_option(sub, c, "command", args->command);
    add_common_options(sub, args->common, c);
    add_table_option(sub, c, "--windows-order", args->windows_order);
    add_table_option(sub, c, "--windows-timing", args->windows_timing);
    return [args] { return run(*args); };
}

} // namespace

const CommandEntry trace_command{
    "trace", "run a command and show which loopback connects it paid for, here and on Windows",
    R"(Runs COMMAND (with its own stdin, stdout, stderr and environment) under a
seccomp filter and ptrace that stop it only at connect(), follows every
process and thread it starts, and records each TCP connect to a loopback
address: when, which process and runtime, the address, the name asked for,
and how it ended. Then groups them per runtime and host:port: the connects,
the refusals followed by a fallback, the time lost here, what the same
connects cost on Windows by the client table's rows for that runtime (a
range where the table cannot tell the library), and the fix.

--windows-order gives the command Windows' answer for localhost (::1, then
127.0.0.1) in a private mount namespace, unprivileged where the kernel
allows user namespaces; where it is refused, the report says what ran
instead. --windows-timing also slows refusals on the command's ports to
Windows' ~2 s on real packets, so the time lost here is the command's own
algorithm, measured. Both are undone on every exit path.

Linux only (x86-64, aarch64); elsewhere trace exits 2. Connects made through
io_uring, and programs that trace themselves (gdb, rr, LeakSanitizer), are
detected and said, not seen.

Exit codes:
  N  the command's own non-zero status; 128+S when signal S ended it
  0  nothing over --threshold
  1  the run lost more than --threshold to loopback connects here, or
     would on Windows (the most its runtime's client rows say)
  2  usage error (no command), or not available on this OS
  5  loopcheck could not start the tracer

Examples:
  loopcheck trace --windows-order -- python3 app.py
  loopcheck trace --windows-order --windows-timing -- npm test
  loopcheck trace --json -- sh -c 'pytest -q >&2' >trace.json
    (the command shares stdout with the report: keep its output apart))",
    declare};

} // namespace loopcheck
