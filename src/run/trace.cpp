// run_trace: the request as the platform's tracer options, and the run it
// returns. The only caller of platform::trace_command.
#include "loopcheck/run/trace.hpp"

#include "loopcheck/core/input/redact.hpp"

#include "loopcheck/core/trace/runtime.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/platform/trace.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace loopcheck {

namespace {

/// Each process's runtime and version from its executable: the names, then
/// bounded reads of the file (identify_runtime keeps to its own budget).
void identify_runtimes(TraceRun& run) {
    const FileReader read = [](std::string_view path, std::uint64_t offset, std::size_t length) {
        return platform::read_file_range(std::string(path), offset, length);
    };
    for (TraceProcess& p : run.processes) {
        if (!p.runtime.empty() || p.executable.empty())
            continue;
        const RuntimeId id = identify_runtime(p.executable, p.argv, read);
        p.runtime = id.runtime;
        p.runtime_version = id.version;
    }
}

/// Who listens on the ports the command connected to, once it has ended
/// (a server the command started and stopped itself is gone by then): the
/// fix then names the real server instead of the port's usual one.
void attach_listeners(TraceRun& run) {
    std::set<std::uint16_t> ports;
    for (const TraceConnect& c : run.connects)
        ports.insert(c.destination.port);
    if (ports.empty())
        return;
    const std::vector<std::uint16_t> sorted(ports.begin(), ports.end());
    const auto only = sorted.size() == 1 ? std::optional(sorted.front()) : std::nullopt;
    auto table = platform::list_listeners(only, sorted);
    if (!table)
        return; // no table: the fix says its server is assumed from the port
    for (Listener& l : table->listeners)
        if (ports.count(l.bound.port) != 0)
            run.listeners.push_back(std::move(l));
}

/// Each argument as a report may show it: a credential after "--token", in
/// "API_KEY=..." or a URL's query becomes "***".
void redact_arguments(std::vector<std::string>& args) {
    std::string previous;
    for (std::string& a : args) {
        std::string shown = redact_argument(a, previous);
        previous = std::move(a);
        a = std::move(shown);
    }
}

} // namespace

Result<TraceRun> run_trace(const TraceRequest& request) {
    if (request.command.empty())
        return usage_error("trace: no command to run (give it after --)");
    platform::TraceOptions options;
    options.command = request.command;
    options.windows_order = request.windows_order;
    options.windows_timing = request.windows_timing;
    options.name_shim = request.name_shim;
    auto run = platform::trace_command(options);
    if (!run)
        return run;
    identify_runtimes(*run);
    attach_listeners(*run);
    if (request.secrets == Secrets::redact) {
        redact_arguments(run->command);
        for (TraceProcess& p : run->processes)
            redact_arguments(p.argv);
    }
    return run;
}

} // namespace loopcheck
