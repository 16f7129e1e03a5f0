// Fork, seize, filter, exec. The child waits on a pipe until the parent
// has seized it, so that the exec and everything after it is traced, and is
// told whether to install the filter: a seccomp filter that returns
// SECCOMP_RET_TRACE with no tracer attached fails those syscalls with
// ENOSYS, so it goes in only when the tracer holds. The child reports
// failures on a close-on-exec pipe, which the exec closes.
#include "platform/linux/trace_spawn.hpp"

#include "platform/linux/trace_filter.hpp"
#include "platform/linux/trace_session.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

namespace loopcheck::platform::trace {

namespace {

constexpr long seize_options = PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
                               PTRACE_O_TRACEEXEC | PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL |
                               PTRACE_O_TRACESYSGOOD;

// A tagged line for the parent: 'E' exec failed, 'O' windows order
// failed, 'S' the filter failed. Async-signal-safe.
void report(int fd, char tag, const char* step, int err) noexcept {
    char line[256];
    line[0] = tag;
    std::size_t n = 1;
    const char* parts[] = {step, ": ", strerror(err), "\n"};
    for (const char* p : parts)
        for (; *p != '\0' && n < sizeof line - 1; ++p)
            line[n++] = *p;
    (void)!write(fd, line, n);
}

[[noreturn]] void child(const SpawnPlan& plan, char* const argv[], char* const envp[],
                        char* const preload_envp[], int go, int back) noexcept {
    // Every signal held until the exec: a stopped child (a ptrace
    // signal-delivery stop) would leave the parent reading its pipe.
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, nullptr);
    // Untraced (ptrace refused), PTRACE_O_EXITKILL does not hold: a
    // loopcheck killed outright takes the command with it all the same.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    char mode = 0;
    if (read(go, &mode, 1) != 1)
        _exit(127); // the parent is gone
    if (plan.order != nullptr) {
        const char* step = "";
        if (const int err = enter_order(*plan.order, step))
            report(back, 'O', step, err);
    }
    if (mode == 'T') {
        if (const int err = install_filter(*plan.filter))
            report(back, 'S', "seccomp", err);
    }
    // The mask last: a signal that comes before the exec waits for the
    // program, so the parent is never left reading this pipe from a child
    // stopped at a signal.
    plan.signals->restore_in_child();
    execvpe(argv[0], argv, mode == 'T' || preload_envp[0] == nullptr ? envp : preload_envp);
    report(back, 'E', argv[0], errno);
    _exit(127);
}

// Can the tracer take a duplicate of the child's descriptors? Docker's
// default seccomp profile, for one, allows ptrace but not pidfd_getfd
// without CAP_SYS_PTRACE. "" or why not.
std::string check_pidfd_getfd(int pid, int fd_in_child) {
    const int pidfd = open_pidfd(pid);
    if (pidfd < 0)
        return fmt::format("pidfd_open() was refused ({})", std::strerror(errno));
    const int dup = take_fd(pidfd, fd_in_child);
    const int err = errno;
    close(pidfd);
    if (dup < 0)
        return fmt::format("pidfd_getfd() was refused ({})", std::strerror(err));
    close(dup);
    return {};
}

void read_reports(int fd, Spawned& s) {
    std::string text;
    char buffer[512];
    ssize_t n = 0;
    while ((n = read(fd, buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0)
            text.append(buffer, static_cast<std::size_t>(n));
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos)
            end = text.size();
        const std::string line = text.substr(at + 1, end - at - 1);
        if (text[at] == 'E')
            s.exec_error = line;
        else if (text[at] == 'O')
            s.order_error = line;
        else if (text[at] == 'S') {
            s.traced = false;
            s.not_traced = "the seccomp filter was refused (" + line + ")";
        }
        at = end + 1;
    }
}

} // namespace

Spawned spawn_traced(const SpawnPlan& plan, std::string& error) {
    std::vector<char*> argv;
    for (const auto& a : plan.command)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char*> envp;
    for (const auto& e : plan.environment)
        envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    std::vector<char*> preload_envp;
    for (const auto& e : plan.preload_environment)
        preload_envp.push_back(const_cast<char*>(e.c_str()));
    preload_envp.push_back(nullptr);
    int go[2];
    int back[2];
    if (pipe2(go, O_CLOEXEC) != 0 || pipe2(back, O_CLOEXEC) != 0) {
        error = fmt::format("pipe: {}", std::strerror(errno));
        return {};
    }
    Spawned s;
    s.pid = fork();
    if (s.pid == 0)
        child(plan, argv.data(), envp.data(), preload_envp.data(), go[0], back[1]);
    close(back[1]);
    if (s.pid < 0) {
        error = fmt::format("fork: {}", std::strerror(errno));
        close(go[0]), close(go[1]), close(back[0]);
        return s;
    }
    if (plan.filter == nullptr || plan.filter->empty()) {
        s.not_traced = "loopcheck knows no syscall table for this processor";
    } else if (ptrace(PTRACE_SEIZE, s.pid, nullptr, seize_options) != 0) {
        s.not_traced = fmt::format("ptrace() was refused ({}); see "
                                   "/proc/sys/kernel/yama/ptrace_scope",
                                   std::strerror(errno));
    } else {
        s.seized = true;
        s.not_traced = check_pidfd_getfd(s.pid, go[0]);
        s.traced = s.not_traced.empty();
    }
    close(go[0]);
    const char mode = s.traced ? 'T' : 'N';
    (void)!write(go[1], &mode, 1);
    close(go[1]);
    read_reports(back[0], s);
    close(back[0]);
    return s;
}

} // namespace loopcheck::platform::trace
