// The hostile-surroundings runner and the counting sockets (hardening.hpp).
#ifndef _WIN32
#include "support/hardening.hpp"

#include <arpa/inet.h>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <netinet/in.h>
#include <poll.h>
#include <spawn.h>
#include <sstream>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace loopcheck::test {

namespace {

struct TempPaths {
    std::string out;
    std::string err;
    TempPaths() {
        static std::atomic<int> counter{0};
        const auto dir = std::filesystem::temp_directory_path();
        const auto tag = std::to_string(::getpid()) + "_" + std::to_string(counter++);
        out = (dir / ("loopcheck_hard_out_" + tag)).string();
        err = (dir / ("loopcheck_hard_err_" + tag)).string();
    }
    ~TempPaths() {
        std::error_code ec;
        std::filesystem::remove(out, ec);
        std::filesystem::remove(err, ec);
    }
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<char*> argv_of(std::vector<std::string>& words) {
    std::vector<char*> argv;
    for (auto& w : words)
        argv.push_back(w.data());
    argv.push_back(nullptr);
    return argv;
}

int exit_code_of(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

RunResult collect(pid_t pid, const TempPaths& paths) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    RunResult r;
    r.exit_code = exit_code_of(status);
    r.out = slurp(paths.out);
    r.err = slurp(paths.err);
    return r;
}

std::uint16_t bound_port(int fd) {
    sockaddr_in a{};
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    return ntohs(a.sin_port);
}

int loopback_socket() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
        throw std::runtime_error("cannot bind a socket on 127.0.0.1");
    return fd;
}

} // namespace

RunResult spawn_loopcheck(const std::vector<std::string>& args, int closed) {
    const TempPaths paths;
    std::vector<std::string> words{LOOPCHECK_EXE};
    words.insert(words.end(), args.begin(), args.end());
    auto argv = argv_of(words);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (closed != 1)
        posix_spawn_file_actions_addopen(&actions, 1, paths.out.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (closed != 2)
        posix_spawn_file_actions_addopen(&actions, 2, paths.err.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (closed >= 0)
        posix_spawn_file_actions_addclose(&actions, closed);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        throw std::runtime_error("posix_spawn failed");
    return collect(pid, paths);
}

RunResult fork_loopcheck(const std::vector<std::string>& args, const std::function<void()>& prepare,
                         int out_fd) {
    const TempPaths paths;
    std::vector<std::string> words{LOOPCHECK_EXE};
    words.insert(words.end(), args.begin(), args.end());
    auto argv = argv_of(words);
    const pid_t pid = ::fork();
    if (pid < 0)
        throw std::runtime_error("fork failed");
    if (pid == 0) {
        const int out = out_fd >= 0 ? out_fd : ::open(paths.out.c_str(), O_WRONLY | O_CREAT, 0666);
        const int err = ::open(paths.err.c_str(), O_WRONLY | O_CREAT, 0666);
        ::dup2(out, 1);
        ::dup2(err, 2);
        if (out > 2)
            ::close(out);
        if (err > 2)
            ::close(err);
        prepare();
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    return collect(pid, paths);
}

TestListener::TestListener() : fd_(loopback_socket()) {
    ::listen(fd_, 64);
    port_ = bound_port(fd_);
}

TestListener::~TestListener() {
    ::close(fd_);
}

std::string TestListener::target() const {
    return "127.0.0.1:" + std::to_string(port_);
}

std::size_t TestListener::accepted() {
    for (;;) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 0) <= 0)
            break;
        const int c = ::accept(fd_, nullptr, nullptr);
        if (c < 0)
            break;
        ++accepted_;
        char buf[4096];
        ssize_t n = 0;
        while ((n = ::recv(c, buf, sizeof buf, MSG_DONTWAIT)) > 0)
            bytes_ += static_cast<std::size_t>(n);
        ::close(c);
    }
    return accepted_;
}

ClosedPort::ClosedPort() : fd_(loopback_socket()), port_(bound_port(fd_)) {}

ClosedPort::~ClosedPort() {
    ::close(fd_);
}

std::string ClosedPort::target() const {
    return "127.0.0.1:" + std::to_string(port_);
}

} // namespace loopcheck::test
#endif
