// Reading a small /proc file without iostreams: non-blocking, regular files only.
#include "platform/posix/small_file.hpp"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace loopcheck::platform::posix {

std::optional<std::string> read_small_file(const char* path, std::size_t cap) {
    // Non-blocking, and only a regular file (every /proc file is one): a
    // FIFO put in its place must not hang the run, nor a device feed it.
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return std::nullopt;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return std::nullopt;
    }
    std::string text;
    char chunk[1024];
    bool failed = false;
    while (text.size() < cap) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            failed = true;
        if (n <= 0)
            break;
        text.append(chunk, std::min(static_cast<std::size_t>(n), cap - text.size()));
    }
    ::close(fd);
    if (failed)
        return std::nullopt;
    return text;
}

} // namespace loopcheck::platform::posix
