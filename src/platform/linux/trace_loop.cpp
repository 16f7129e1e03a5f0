// The tracer's loop: a blocking waitpid() while only ptrace stops can
// come, else one epoll over a signalfd for SIGCHLD and the duplicates of
// non-blocking connects in flight. Every stop is resumed before the next
// wait, so no traced thread is ever left stopped by loopcheck.
#include "platform/linux/trace_session.hpp"
#include "platform/linux/trace_signals.hpp"
#include "platform/linux/trace_timing.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <sys/epoll.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

namespace loopcheck::platform::trace {

namespace {

using Clock = std::chrono::steady_clock;

void resume(int tid, bool at_exit, int signal = 0) {
    ptrace(at_exit ? PTRACE_SYSCALL : PTRACE_CONT, tid, nullptr,
           reinterpret_cast<void*>(static_cast<long>(signal)));
}

void record_exec(Session& s, int tid) {
    TraceProcess p;
    p.pid = tid;
    const auto parent = s.parents.find(tid);
    p.parent_pid = parent == s.parents.end() ? 0 : parent->second;
    p.executable = executable_of(tid);
    p.argv = argv_of(tid, 16, 256);
    s.run.processes.push_back(std::move(p));
}

// A seccomp stop: which rule, then what it needs.
bool on_seccomp(Session& s, int tid) {
    __ptrace_syscall_info info{};
    if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof info, &info) <= 0 ||
        info.op != PTRACE_SYSCALL_INFO_SECCOMP)
        return false;
    const std::uint64_t* args = info.seccomp.args;
    switch (static_cast<Trap>(info.seccomp.ret_data)) {
    case Trap::connect:
        return on_connect_entry(s, tid, args);
    case Trap::so_error:
        return on_so_error_entry(s, tid, args);
    case Trap::io_uring:
        ++s.run.io_uring_setups;
        return false;
    case Trap::self_trace: {
        const int tgid = s.threads[tid].tgid;
        auto& pids = s.run.self_tracing_pids;
        if (std::find(pids.begin(), pids.end(), tgid) == pids.end())
            pids.push_back(tgid);
        return false;
    }
    }
    return false;
}

void on_syscall_stop(Session& s, int tid) {
    __ptrace_syscall_info info{};
    if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof info, &info) > 0 &&
        info.op == PTRACE_SYSCALL_INFO_EXIT)
        on_syscall_exit(s, tid, info.exit.rval);
}

void on_new_task(Session& s, int tid, int event) {
    unsigned long child = 0;
    ptrace(PTRACE_GETEVENTMSG, tid, nullptr, &child);
    const int parent_tgid = s.threads[tid].tgid;
    Thread& t = s.threads[static_cast<int>(child)];
    t.tgid =
        event == PTRACE_EVENT_CLONE ? tgid_of(static_cast<int>(child)) : static_cast<int>(child);
    if (t.tgid == static_cast<int>(child))
        s.parents[t.tgid] = parent_tgid;
}

// After an exec the thread-group leader's id is the process's; the other
// threads are gone without a word.
void on_exec(Session& s, int tid) {
    unsigned long former = 0;
    ptrace(PTRACE_GETEVENTMSG, tid, nullptr, &former);
    for (auto it = s.threads.begin(); it != s.threads.end();)
        it = it->second.tgid == tid && it->first != tid ? s.threads.erase(it) : std::next(it);
    Thread& t = s.threads[tid];
    t.tgid = tid;
    t.started = true;
    t.pending = PendingExit{};
    s.names.erase(tid);
    record_exec(s, tid);
}

bool is_stop_signal(int sig) {
    return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

void on_stop(Session& s, int tid, int status) {
    const int sig = WSTOPSIG(status);
    const int event = status >> 16;
    auto known = s.threads.find(tid);
    if (known == s.threads.end()) // its first stop came before its parent's event
        known = s.threads.emplace(tid, Thread{tgid_of(tid), false, {}}).first;
    Thread& t = known->second;
    if (event == PTRACE_EVENT_STOP) {
        if (t.started && is_stop_signal(sig)) {
            ptrace(PTRACE_LISTEN, tid, nullptr, nullptr); // a group stop: stay stopped
            return;
        }
        t.started = true; // the attach stop of a new task
        resume(tid, false);
        return;
    }
    t.started = true;
    if (event == PTRACE_EVENT_SECCOMP)
        return resume(tid, on_seccomp(s, tid));
    if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK || event == PTRACE_EVENT_CLONE)
        on_new_task(s, tid, event);
    else if (event == PTRACE_EVENT_EXEC)
        on_exec(s, tid);
    else if (sig == (SIGTRAP | 0x80))
        on_syscall_stop(s, tid);
    else if (event == 0)
        return resume(tid, false, sig); // a signal for the program: delivered
    resume(tid, false);
}

void on_exit(Session& s, int tid, int status) {
    if (tid == s.main_pid) {
        s.main_exited = true;
        s.run.wall_ms = s.ms_since_start(Clock::now());
        if (WIFEXITED(status))
            s.run.exit_status = WEXITSTATUS(status);
        else
            s.run.exit_signal = WTERMSIG(status);
    }
    const auto it = s.threads.find(tid);
    const bool leader = it == s.threads.end() || it->second.tgid == tid;
    if (it != s.threads.end()) {
        if (it->second.pending.dup >= 0) // died inside a connect: outcome unknown
            close(it->second.pending.dup);
        s.threads.erase(it);
    }
    if (leader)
        forget_process(s, tid);
}

void on_wait_status(Session& s, pid_t tid, int status) {
    if (WIFSTOPPED(status))
        on_stop(s, tid, status);
    else if (WIFEXITED(status) || WIFSIGNALED(status))
        on_exit(s, tid, status);
    if (s.main_exited)
        command_exited();
}

void nothing_left(Session& s) {
    s.threads.clear(); // ECHILD: nothing left to wait for
    s.main_exited = true;
}

void drain_waits(Session& s, int flags) {
    int status = 0;
    pid_t tid = 0;
    while ((tid = waitpid(-1, &status, WNOHANG | flags)) > 0)
        on_wait_status(s, tid, status);
    if (tid < 0 && errno == ECHILD)
        nothing_left(s);
}

// Signals caught while nothing could take them (before the command was
// known, or after it exited): to the command, or to what it left running.
void pass_on_signals(Session& s) {
    const unsigned pending = take_signals();
    for (int sig = 1; sig < 32; ++sig) {
        if ((pending & (1U << static_cast<unsigned>(sig))) == 0)
            continue;
        if (!s.main_exited) {
            kill(s.main_pid, sig);
            continue;
        }
        for (const auto& [tid, t] : s.threads)
            if (t.tgid == tid)
                kill(tid, sig);
    }
}

int wait_timeout(Session& s) {
    int timeout = s.watches.empty() ? -1 : 20; // a closed socket is noticed by polling
    if (s.timing != nullptr) {
        const int due = timing_tick(*s.timing, s.run);
        if (due >= 0 && (timeout < 0 || due < timeout))
            timeout = due;
    }
    return timeout;
}

// Nothing but stops to wait for: one blocking waitpid() per stop. A caught
// signal ends it with EINTR.
void wait_for_stop(Session& s, int flags) {
    int status = 0;
    const pid_t tid = waitpid(-1, &status, flags);
    if (tid > 0)
        on_wait_status(s, tid, status);
    else if (errno == ECHILD)
        nothing_left(s);
}

// Sockets in flight or tarpits to remove: epoll over them and SIGCHLD.
void wait_for_any(Session& s, int child_fd, int timeout, int flags) {
    epoll_event events[16];
    const int n = epoll_wait(s.epoll_fd, events, 16, timeout);
    for (int i = 0; i < n; ++i) {
        if (events[i].data.fd == child_fd) {
            signalfd_siginfo info[8];
            (void)!read(child_fd, info, sizeof info);
        } else {
            on_watch_event(s, events[i].data.fd);
        }
    }
    if (!s.watches.empty())
        sweep_watches(s, false);
    drain_waits(s, flags);
}

} // namespace

void serve(Session& s, int child_fd, bool seized) {
    const int flags = seized ? __WALL : 0;
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = child_fd;
    epoll_ctl(s.epoll_fd, EPOLL_CTL_ADD, child_fd, &ev);
    drain_waits(s, flags);
    while (!(s.main_exited && s.threads.empty())) {
        pass_on_signals(s);
        const int timeout = wait_timeout(s);
        if (timeout < 0)
            wait_for_stop(s, flags);
        else
            wait_for_any(s, child_fd, timeout, flags);
    }
    sweep_watches(s, true);
}

} // namespace loopcheck::platform::trace
