// The tracer's signals (trace_signals.cpp): SIGCHLD blocked and read
// through a signalfd when the loop must also wait on sockets; SIGINT,
// SIGQUIT, SIGTERM and SIGHUP caught and passed on to the command.
#pragma once

#include <csignal>

namespace loopcheck::platform::trace {

/// Installed for one run; everything restored when it goes.
class SignalGuard {
public:
    SignalGuard();
    ~SignalGuard();
    SignalGuard(const SignalGuard&) = delete;
    SignalGuard& operator=(const SignalGuard&) = delete;

    /// SIGCHLD as a readable descriptor (for epoll); -1 when none.
    [[nodiscard]] int child_fd() const noexcept { return child_fd_; }
    /// In the child before exec: loopcheck's own mask and dispositions back,
    /// so a SIGINT that the shell ignored for a background job stays
    /// ignored for the command. Async-signal-safe.
    void restore_in_child() const noexcept;

private:
    sigset_t old_mask_{};
    struct sigaction old_actions_[4]{};
    int child_fd_ = -1;
};

/// From now on a caught signal goes straight to `pid` (the command).
void forward_to(int pid) noexcept;
/// The command has exited: caught signals wait for take_signals().
void command_exited() noexcept;
/// The signals caught since the last call and not yet passed on, as a
/// bit mask (1 << signal number).
unsigned take_signals() noexcept;

} // namespace loopcheck::platform::trace
