// The tracer's state while a command runs: the threads it follows, the
// connects whose outcome it still waits for, the names the shim reported.
// Shared by trace_loop.cpp (the stops), trace_connects.cpp (what a connect
// stop does) and trace.cpp (start and end).
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/trace/trace.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace loopcheck::platform::trace {

/// Which rule of the seccomp filter stopped a thread (SECCOMP_RET_DATA).
enum class Trap : std::uint16_t {
    connect = 1,
    so_error = 2,   ///< getsockopt(SOL_SOCKET, SO_ERROR)
    io_uring = 3,   ///< io_uring_setup: its connects are invisible here
    self_trace = 4, ///< ptrace: the program traces itself or another
};

/// What a thread stopped at its seccomp stop waits for at its syscall exit.
struct PendingExit {
    enum class Kind : std::uint8_t { none, connect, so_error } kind = Kind::none;
    std::size_t connect = 0;  ///< index into TraceRun::connects
    int fd = -1;              ///< the program's descriptor
    int dup = -1;             ///< the tracer's duplicate of it (connect)
    std::uint64_t optval = 0; ///< where getsockopt writes SO_ERROR
    bool restarting = false;  ///< interrupted by a signal; the kernel restarts it
};

struct Thread {
    int tgid = 0;
    bool started = false; ///< its first (attach) stop was seen
    PendingExit pending;
};

/// A non-blocking connect in flight: the tracer's duplicate of the socket,
/// watched in its own epoll for TCP_INFO only.
struct Watch {
    std::size_t connect = 0;
    int tgid = 0;
    int fd = -1;             ///< the program's descriptor number
    std::uint64_t inode = 0; ///< the socket's inode, to notice a close
};

/// A name the shim saw resolved, and the addresses it gave.
struct ResolvedName {
    std::string name;
    std::vector<Address> addresses; ///< ports zero
};

struct Timing; // trace_timing.hpp

struct Session {
    TraceRun run;
    std::chrono::steady_clock::time_point t0;
    int main_pid = 0;
    bool main_exited = false;
    int epoll_fd = -1;
    std::unordered_map<int, Thread> threads;                  ///< by tid
    std::unordered_map<int, int> pidfds;                      ///< by tgid
    std::unordered_map<int, int> parents;                     ///< tgid -> parent tgid
    std::unordered_map<int, Watch> watches;                   ///< by the tracer's duplicate fd
    std::unordered_map<int, std::vector<ResolvedName>> names; ///< by tgid
    /// The last connect on each (tgid, fd), for the program's SO_ERROR.
    std::unordered_map<std::uint64_t, std::size_t> last_connect;
    Timing* timing = nullptr;            ///< --windows-timing, else null
    std::vector<std::size_t> not_slowed; ///< connects --windows-timing could not slow

    [[nodiscard]] double ms_since_start(std::chrono::steady_clock::time_point t) const {
        return std::chrono::duration<double, std::milli>(t - t0).count();
    }
};

// trace_connects.cpp: what each seccomp stop and syscall exit does. Each
// returns true when the thread must stop again at the syscall's exit
// (PTRACE_SYSCALL), false when it may run on (PTRACE_CONT).
bool on_connect_entry(Session& s, int tid, const std::uint64_t args[6]);
bool on_so_error_entry(Session& s, int tid, const std::uint64_t args[6]);
void on_syscall_exit(Session& s, int tid, std::int64_t rval);
/// A watched duplicate became readable, writable or failed.
void on_watch_event(Session& s, int dup_fd);
/// Ends the watches whose socket the program closed or whose process
/// exited (abandoned while SYN_SENT, or the outcome TCP_INFO shows).
void sweep_watches(Session& s, bool all);
/// The process `tgid` is gone: its pidfd and names are released.
void forget_process(Session& s, int tgid);

// trace_loop.cpp: serves every stop of every traced thread, the watched
// sockets (with SIGCHLD read from `child_fd`) and the signals loopcheck
// caught, until the command and every process it started have exited.
void serve(Session& s, int child_fd, bool seized);

// trace_tracee.cpp: reading a tracee.
/// Up to `max` bytes of the tracee's memory at `address` (process_vm_readv).
std::vector<std::uint8_t> read_memory(int tid, std::uint64_t address, std::size_t max);
/// /proc/PID/exe, or "" when it cannot be read.
std::string executable_of(int pid);
/// The first `max_args` arguments of PID, each cut at `max_chars`.
std::vector<std::string> argv_of(int pid, std::size_t max_args, std::size_t max_chars);
/// The thread-group id of `tid` from /proc/TID/status; `tid` when unknown.
int tgid_of(int tid);
/// pidfd_open() and pidfd_getfd() through syscall(): glibc declares them
/// only from 2.36, and then without C linkage for C++.
int open_pidfd(int pid);
int take_fd(int pidfd, int fd);
/// The socket inode /proc/PID/fd/FD names, or 0.
std::uint64_t fd_inode(int pid, int fd);

} // namespace loopcheck::platform::trace
