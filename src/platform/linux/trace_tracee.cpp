// Reading a traced process: its memory (the sockaddr a connect() passes)
// and what /proc says about it (executable, arguments, thread group).
#include "platform/linux/trace_session.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

namespace loopcheck::platform::trace {

std::vector<std::uint8_t> read_memory(int tid, std::uint64_t address, std::size_t max) {
    std::vector<std::uint8_t> buffer(max);
    iovec local{buffer.data(), max};
    iovec remote{reinterpret_cast<void*>(address), max}; // NOLINT(performance-no-int-to-ptr)
    const ssize_t n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
    buffer.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return buffer;
}

std::string executable_of(int pid) {
    char link[64];
    std::snprintf(link, sizeof link, "/proc/%d/exe", pid);
    char target[4096];
    const ssize_t n = readlink(link, target, sizeof target - 1);
    return n > 0 ? std::string(target, static_cast<std::size_t>(n)) : std::string();
}

namespace {

// A small /proc file whole (cmdline, status), at most `max` bytes.
std::string read_proc(int pid, const char* what, std::size_t max) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/%s", pid, what);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    std::string text(max, '\0');
    std::size_t used = 0;
    while (used < max) {
        const ssize_t n = read(fd, text.data() + used, max - used);
        if (n <= 0)
            break;
        used += static_cast<std::size_t>(n);
    }
    close(fd);
    text.resize(used);
    return text;
}

} // namespace

std::vector<std::string> argv_of(int pid, std::size_t max_args, std::size_t max_chars) {
    const std::string raw = read_proc(pid, "cmdline", 16384);
    std::vector<std::string> argv;
    std::size_t at = 0;
    while (at < raw.size() && argv.size() < max_args) {
        const std::size_t end = raw.find('\0', at);
        const std::size_t len = (end == std::string::npos ? raw.size() : end) - at;
        argv.push_back(raw.substr(at, std::min(len, max_chars)));
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    return argv;
}

int tgid_of(int tid) {
    const std::string status = read_proc(tid, "status", 4096);
    const std::size_t at = status.find("\nTgid:");
    if (at == std::string::npos)
        return tid;
    const int tgid = std::atoi(status.c_str() + at + 6);
    return tgid > 0 ? tgid : tid;
}

int open_pidfd(int pid) {
    return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
}

int take_fd(int pidfd, int fd) {
    return static_cast<int>(syscall(SYS_pidfd_getfd, pidfd, fd, 0));
}

std::uint64_t fd_inode(int pid, int fd) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, fd);
    struct stat st {};
    if (stat(path, &st) != 0 || !S_ISSOCK(st.st_mode))
        return 0;
    return st.st_ino;
}

} // namespace loopcheck::platform::trace
