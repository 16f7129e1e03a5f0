// POSIX: `loopcheck scan`'s file list from git (git ls-files streamed through
// a pipe) and reading one file with stat before open and O_NONBLOCK, so a
// FIFO or device is never opened for a blocking read.
#include "loopcheck/platform/common/scan_files.hpp"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <optional>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace loopcheck::platform {

namespace {

/// git (safe_git_argv) started in `dir` with its standard output on a pipe
/// and its standard error on /dev/null.
struct GitChild {
    pid_t pid = 0;
    int out = -1;
};
std::optional<GitChild> spawn_git(const std::string& dir, const std::vector<std::string>& args) {
    int fds[2];
    if (::pipe(fds) != 0)
        return std::nullopt;
    ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    ::fcntl(fds[1], F_SETFD, FD_CLOEXEC); // dup2 onto stdout clears it in the child
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    const std::vector<std::string> argv_strings = safe_git_argv(dir, args);
    std::vector<char*> argv;
    for (const std::string& a : argv_strings)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = ::posix_spawnp(&pid, "git", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        return std::nullopt;
    }
    return GitChild{pid, fds[0]};
}

int wait_exit(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// Runs git ls-files in `root` and visits each path as it arrives; nullopt
/// when git could not run or failed before listing anything.
std::optional<Listing> git_list(const std::string& root, const VisitFile& visit) {
    const auto git = spawn_git(root, {"ls-files", "-z", "-c", "-o", "--exclude-standard"});
    if (!git)
        return std::nullopt;
    std::FILE* in = ::fdopen(git->out, "r");
    char* line = nullptr;
    std::size_t cap = 0;
    std::size_t listed = 0;
    bool stopped = false;
    const std::string prefix = root == "." ? std::string() : root + "/";
    for (ssize_t n; !stopped && (n = ::getdelim(&line, &cap, '\0', in)) > 0;) {
        ++listed;
        stopped = !visit(prefix + std::string(line, static_cast<std::size_t>(n - 1)));
    }
    std::free(line);
    if (stopped)
        ::kill(git->pid, SIGTERM);
    std::fclose(in);
    const int status = wait_exit(git->pid);
    if (!stopped && listed == 0 && status != 0)
        return std::nullopt;
    return Listing::git;
}

FileSkip skip_for(int error) noexcept {
    if (error == ELOOP)
        return FileSkip::symlink_loop;
    if (error == ENOENT || error == ENOTDIR)
        return FileSkip::vanished;
    return FileSkip::unreadable;
}

} // namespace

Result<Listing> list_scan_files(const std::string& root, const VisitFile& visit) {
    struct stat st {};
    if (::stat(root.c_str(), &st) != 0)
        return system_error(std::strerror(errno));
    if (S_ISDIR(st.st_mode) && !repository_root(root).empty())
        if (auto listing = git_list(root, visit))
            return *listing;
    return walk_scan_files(root, visit);
}

Result<std::string> git_capture(const std::string& dir, const std::vector<std::string>& args,
                                std::size_t max_bytes) {
    const auto git = spawn_git(dir, args);
    if (!git)
        return system_error("git could not be started");
    std::string out;
    char chunk[65536];
    bool too_much = false;
    for (;;) {
        const ssize_t n = ::read(git->out, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (out.size() + static_cast<std::size_t>(n) > max_bytes) {
            too_much = true;
            ::kill(git->pid, SIGTERM);
            break;
        }
        out.append(chunk, static_cast<std::size_t>(n));
    }
    ::close(git->out);
    const int status = wait_exit(git->pid);
    if (too_much)
        return system_error(fmt::format("git said more than {} bytes", max_bytes));
    if (status != 0)
        return system_error(fmt::format("git exited with status {}", status));
    return out;
}

FileSkip read_scan_file(const std::string& path, std::uint64_t max_bytes, std::string& buffer) {
    buffer.clear();
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return skip_for(errno);
    if (!S_ISREG(st.st_mode))
        return FileSkip::not_regular;
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
        return FileSkip::too_large;
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return skip_for(errno);
    struct stat opened {};
    if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)) { // swapped since the stat
        ::close(fd);
        return FileSkip::not_regular;
    }
    buffer.resize(static_cast<std::size_t>(opened.st_size));
    std::size_t got = 0;
    while (got < buffer.size()) {
        const ssize_t n = ::read(fd, buffer.data() + got, buffer.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            ::close(fd);
            buffer.clear();
            return FileSkip::unreadable;
        }
        if (n == 0)
            break; // shrank while read
        got += static_cast<std::size_t>(n);
    }
    buffer.resize(got);
    ::close(fd);
    return FileSkip::none;
}

} // namespace loopcheck::platform
