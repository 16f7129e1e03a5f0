// trace_command on Linux: what the run needs before the command starts
// (the filter, the shim, Windows' order, the timing mechanism, the blocked
// signals), the start, the loop, and what is left to release after it.
#include "loopcheck/platform/trace.hpp"

#include "platform/linux/trace_filter.hpp"
#include "platform/linux/trace_order.hpp"
#include "platform/linux/trace_preload.hpp"
#include "platform/linux/trace_session.hpp"
#include "platform/linux/trace_signals.hpp"
#include "platform/linux/trace_spawn.hpp"
#include "platform/linux/trace_timing.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fmt/format.h>
#include <sys/epoll.h>
#include <unistd.h>

extern char** environ; // NOLINT(readability-redundant-declaration)

namespace loopcheck::platform::trace {

namespace {

// The shim lives beside the executable (installed beside it, or in the
// build tree beside it), not embedded and written to a temporary file at
// each run: /tmp is often mounted noexec, which the dynamic loader obeys,
// and a file the package installs can be read, checked and signed like
// the binary. Where it is missing, names are left to inference.
std::string find_shim(const std::string& given) {
    if (!given.empty())
        return access(given.c_str(), R_OK) == 0 ? given : std::string();
    const std::string self = executable_of(static_cast<int>(getpid()));
    const std::size_t slash = self.rfind('/');
    if (slash == std::string::npos)
        return {};
    const std::string dir = self.substr(0, slash);
    for (const std::string& candidate :
         {dir + "/loopcheck-names.so", dir + "/../libexec/loopcheck/loopcheck-names.so"})
        if (access(candidate.c_str(), R_OK) == 0)
            return candidate;
    return {};
}

// loopcheck's environment, with the shim first in LD_PRELOAD.
std::vector<std::string> environment_with(const std::string& shim) {
    std::vector<std::string> env;
    bool preloaded = false;
    for (char** e = environ; *e != nullptr; ++e) {
        std::string entry = *e;
        if (!shim.empty() && entry.rfind("LD_PRELOAD=", 0) == 0) {
            entry = "LD_PRELOAD=" + shim + ":" + entry.substr(11);
            preloaded = true;
        }
        env.push_back(std::move(entry));
    }
    if (!shim.empty() && !preloaded)
        env.push_back("LD_PRELOAD=" + shim);
    return env;
}

// --windows-order: the files, and whether the namespace can be had here.
bool prepare_windows_order(OrderPlan& plan, TraceRun& run) {
    std::string why;
    if (prepare_order(plan, why))
        why = probe_order(plan);
    if (why.empty()) {
        run.windows_order = true;
        return true;
    }
    run.windows_order_note =
        fmt::format("Windows' order for localhost was refused here ({}); the command ran with this "
                    "machine's own /etc/hosts and /etc/gai.conf",
                    why);
    return false;
}

// --windows-timing slows a refusal by taking the refused address for a
// moment; where another socket is bound there without listening, it
// cannot, and those refusals cost here what they cost on Linux.
std::string timing_note(const Session& s) {
    std::size_t refused = 0;
    std::string example;
    for (const std::size_t i : s.not_slowed) {
        const TraceConnect& c = s.run.connects[i];
        if (c.outcome != TraceOutcome::refused)
            continue;
        ++refused;
        example = endpoint_string(c.destination);
    }
    if (refused == 0)
        return {};
    return fmt::format("{} refused connect{} (e.g. to {}) could not be slowed: a socket that does "
                       "not listen is bound to that address",
                       refused, refused == 1 ? "" : "s", example);
}

void set_mode(TraceRun& run, const Spawned& spawned, const std::string& shim, bool preload) {
    if (spawned.traced) {
        run.mode = TraceMode::seccomp_ptrace;
        run.mode_reason =
            shim.empty()
                ? "seccomp and ptrace; no name shim (loopcheck-names.so) beside loopcheck: "
                  "names are inferred"
                : "seccomp and ptrace, with the getaddrinfo shim for names";
        return;
    }
    if (preload) {
        run.mode = TraceMode::preload;
        run.mode_reason = fmt::format(
            "tracing was refused: {}; the preload shim recorded the connects of dynamically "
            "linked programs (statically linked ones, such as Go's, were not seen)",
            spawned.not_traced);
        return;
    }
    run.mode = TraceMode::none;
    run.mode_reason =
        fmt::format("tracing was refused: {}; the command ran untraced{}", spawned.not_traced,
                    shim.empty() ? " (and no preload shim beside loopcheck)" : "");
}

} // namespace

} // namespace loopcheck::platform::trace

namespace loopcheck::platform {

Result<TraceRun> trace_command(const TraceOptions& options) {
    using namespace trace;
    if (options.command.empty())
        return usage_error("trace: no command to run");
    Session s;
    s.run.command = options.command;
    OrderPlan order;
    const bool order_ok = options.windows_order && prepare_windows_order(order, s.run);
    TimingPtr timing(nullptr, [](Timing*) {});
    if (options.windows_timing) {
        timing = start_timing();
        s.timing = timing.get();
        s.run.windows_timing = true;
    }
    const std::string shim = find_shim(options.name_shim);
    const auto filter = connect_filter();
    const SignalGuard signals;
    const PreloadLog preload_log;
    SpawnPlan plan{options.command, environment_with(shim),      {},
                   &filter,         order_ok ? &order : nullptr, &signals};
    if (!shim.empty() && !preload_log.path().empty()) {
        plan.preload_environment = plan.environment;
        plan.preload_environment.push_back("LOOPCHECK_TRACE_LOG=" + preload_log.path());
    }
    std::string error;
    s.t0 = std::chrono::steady_clock::now();
    const Spawned spawned = spawn_traced(plan, error);
    if (spawned.pid < 0) {
        cleanup_order(order);
        return system_error("trace: " + error);
    }
    s.main_pid = spawned.pid;
    forward_to(spawned.pid);
    s.threads[spawned.pid] = Thread{spawned.pid, true, {}};
    const bool preload = !spawned.traced && !plan.preload_environment.empty();
    set_mode(s.run, spawned, shim, preload);
    if (!spawned.order_error.empty()) {
        s.run.windows_order = false;
        s.run.windows_order_note = "Windows' order for localhost failed (" + spawned.order_error +
                                   "); the command ran with this machine's own files";
    }
    s.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    serve(s, signals.child_fd(), spawned.seized);
    close(s.epoll_fd);
    for (const auto& [tgid, pidfd] : s.pidfds)
        close(pidfd);
    cleanup_order(order);
    if (preload)
        s.run.connects = read_preload_log(preload_log.path(), s.t0);
    if (options.windows_timing && !spawned.traced) {
        s.run.windows_timing = false;
        s.run.windows_timing_note = "not applied: slowing a refusal needs the tracer, which was "
                                    "refused";
    } else {
        s.run.windows_timing_note = timing_note(s);
    }
    if (!spawned.exec_error.empty())
        return usage_error(fmt::format("trace: cannot run {}", spawned.exec_error));
    return std::move(s.run);
}

} // namespace loopcheck::platform
