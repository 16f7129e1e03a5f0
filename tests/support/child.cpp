#include "support/child.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#ifdef _WIN32
#include <process.h>
#else
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
extern char** environ;
#endif

namespace loopcheck::test {

#ifdef _WIN32

std::unique_ptr<Child> Child::start(const std::vector<std::string>& /*argv*/) {
    return nullptr;
}
Child::~Child() = default;
std::optional<std::string> Child::read_line(std::chrono::milliseconds /*wait*/) {
    return std::nullopt;
}
void Child::signal(int /*sig*/) const {}
std::optional<int> Child::wait(std::chrono::milliseconds /*wait*/) {
    return std::nullopt;
}
std::string Child::stderr_text() const {
    return {};
}
int current_pid() {
    return _getpid();
}

#else

std::unique_ptr<Child> Child::start(const std::vector<std::string>& argv) {
    static std::atomic<int> counter{0};
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0)
        return nullptr;
    std::unique_ptr<Child> c(new Child);
    c->err_path_ =
        (std::filesystem::temp_directory_path() /
         ("loopcheck_child_err_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
            .string();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
    posix_spawn_file_actions_addopen(&actions, 2, c->err_path_.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[1]);
    if (rc != 0) {
        ::close(pipe_fds[0]);
        return nullptr;
    }
    c->pid_ = pid;
    c->out_ = pipe_fds[0];
    return c;
}

Child::~Child() {
    if (!status_) {
        ::kill(pid_, SIGKILL);
        int st = 0;
        ::waitpid(pid_, &st, 0);
    }
    ::close(out_);
    std::error_code ec;
    std::filesystem::remove(err_path_, ec);
}

std::optional<std::string> Child::read_line(std::chrono::milliseconds wait) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
        if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
            auto line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            return line;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return std::nullopt;
        pollfd p{out_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0)
            continue;
        char buf[512];
        const ssize_t n = ::read(out_, buf, sizeof buf);
        if (n <= 0)
            return std::nullopt; // end of output
        buffer_.append(buf, static_cast<std::size_t>(n));
    }
}

void Child::signal(int sig) const {
    if (!status_)
        ::kill(pid_, sig);
}

std::optional<int> Child::wait(std::chrono::milliseconds wait) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (!status_) {
        int st = 0;
        const pid_t r = ::waitpid(pid_, &st, WNOHANG);
        if (r == pid_) {
            status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            break;
        }
        if (std::chrono::steady_clock::now() >= deadline)
            return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return status_;
}

std::string Child::stderr_text() const {
    std::ifstream in(err_path_, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

int current_pid() {
    return static_cast<int>(::getpid());
}

#endif

} // namespace loopcheck::test
