// POSIX: the standard descriptors 0-2, opened on /dev/null when closed, and
// the descriptor limit.
#include "loopcheck/platform/platform.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace loopcheck::platform {

bool open_closed_standard_streams() noexcept {
    // open() returns the lowest free descriptor, so filling 0, 1 and 2 in
    // order puts each /dev/null exactly where a closed one was. No
    // O_CLOEXEC: a child loopcheck starts should find them open too.
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        const int opened = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (opened < 0)
            return false;
        if (opened != fd) { // a lower one was opened meanwhile: move it
            const int moved = ::dup2(opened, fd);
            ::close(opened);
            if (moved != fd)
                return false;
        }
    }
    return true;
}

std::optional<std::size_t> descriptor_limit() noexcept {
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return std::nullopt;
    return static_cast<std::size_t>(rl.rlim_cur);
}

} // namespace loopcheck::platform
