// POSIX: `loopcheck scan`'s file list from git (git ls-files streamed through
// a pipe) and reading one file with stat before open and O_NONBLOCK, so a
// FIFO or device is never opened for a blocking read.
#include "loopcheck/platform/common/scan_files.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace loopcheck::platform {

namespace {

/// True when `dir` or a folder above it holds .git (a work tree or a
/// worktree's .git file).
bool in_git_work_tree(const std::string& dir) {
    char* resolved = ::realpath(dir.c_str(), nullptr);
    if (!resolved)
        return false;
    std::string d = resolved;
    std::free(resolved);
    for (;;) {
        struct stat st {};
        if (::stat((d + "/.git").c_str(), &st) == 0)
            return true;
        const std::size_t slash = d.find_last_of('/');
        if (slash == std::string::npos || d.size() <= 1)
            return false;
        d.resize(slash == 0 ? 1 : slash);
        if (d == "/" && ::stat("/.git", &st) != 0)
            return false;
    }
}

/// Runs git ls-files in `root` and visits each path as it arrives; nullopt
/// when git could not run or failed before listing anything.
std::optional<Listing> git_list(const std::string& root, const VisitFile& visit) {
    int fds[2];
    if (::pipe(fds) != 0)
        return std::nullopt;
    ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    ::fcntl(fds[1], F_SETFD, FD_CLOEXEC); // dup2 onto stdout clears it in the child
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    const char* argv[] = {"git", "-C", root.c_str(),         "ls-files", "-z",
                          "-c",  "-o", "--exclude-standard", nullptr};
    pid_t pid = 0;
    const int rc =
        ::posix_spawnp(&pid, "git", &actions, nullptr, const_cast<char**>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        return std::nullopt;
    }
    std::FILE* in = ::fdopen(fds[0], "r");
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
        ::kill(pid, SIGTERM);
    std::fclose(in);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!stopped && listed == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
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
    if (S_ISDIR(st.st_mode) && in_git_work_tree(root))
        if (auto listing = git_list(root, visit))
            return *listing;
    return walk_scan_files(root, visit);
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
