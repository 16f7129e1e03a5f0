// What loopcheck does with the signals it receives while a command runs.
// The command stays in loopcheck's process group, so Ctrl-C and Ctrl-\ from
// the terminal reach it directly, as they would without loopcheck; the
// handler ignores those (si_code SI_KERNEL: the terminal's) and passes on
// the ones sent to loopcheck alone by kill() (SI_USER), and SIGTERM and
// SIGHUP, to the command. Once the command has exited, the loop passes
// them to what it left running (take_signals()).
//
// Handlers rather than a signalfd for these: the loop can then sit in a
// blocking waitpid() while no socket needs watching, one syscall per stop
// instead of epoll_wait, read and two waitpid (bench/trace: ~9 us less per
// traced connect on this VM, where a syscall costs ~0.9 us). The handler
// is installed without SA_RESTART, so that waitpid() returns EINTR.
#include "platform/linux/trace_signals.hpp"

#include <atomic>
#include <sys/signalfd.h>
#include <unistd.h>

namespace loopcheck::platform::trace {

namespace {

constexpr int forwarded[4] = {SIGINT, SIGQUIT, SIGTERM, SIGHUP};

volatile sig_atomic_t target_pid = 0;
std::atomic<unsigned> pending{0};

void on_signal(int sig, siginfo_t* info, void* /*context*/) {
    if ((sig == SIGINT || sig == SIGQUIT) && info != nullptr && info->si_code == SI_KERNEL)
        return; // from the terminal, which sent it to the command too
    const int pid = target_pid;
    if (pid > 0)
        kill(pid, sig);
    else
        pending.fetch_or(1U << static_cast<unsigned>(sig));
}

} // namespace

SignalGuard::SignalGuard() {
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old_mask_);
    child_fd_ = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
    struct sigaction action {};
    action.sa_sigaction = on_signal;
    action.sa_flags = SA_SIGINFO; // no SA_RESTART: waitpid() returns EINTR
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < 4; ++i)
        sigaction(forwarded[i], &action, &old_actions_[i]);
}

SignalGuard::~SignalGuard() {
    target_pid = 0;
    for (int i = 0; i < 4; ++i)
        sigaction(forwarded[i], &old_actions_[i], nullptr);
    if (child_fd_ >= 0)
        close(child_fd_);
    sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
}

void SignalGuard::restore_in_child() const noexcept {
    for (int i = 0; i < 4; ++i)
        sigaction(forwarded[i], &old_actions_[i], nullptr);
    sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
}

void forward_to(int pid) noexcept {
    target_pid = pid;
}

void command_exited() noexcept {
    target_pid = 0;
}

unsigned take_signals() noexcept {
    return pending.exchange(0);
}

} // namespace loopcheck::platform::trace
