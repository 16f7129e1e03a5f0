// Windows: the standard streams need nothing done when closed, and there is
// no small descriptor limit.
#include "loopcheck/platform/platform.hpp"
#include "platform/win32/winsock.hpp" // every win32 file, for one FD_SETSIZE (check_headers.py)

namespace loopcheck::platform {

bool open_closed_standard_streams() noexcept {
    // A Winsock SOCKET is a kernel handle, never a CRT descriptor, so a
    // closed stdin, stdout or stderr cannot become a probe socket; the CRT
    // drops writes to a stream without a handle (they fail, and the
    // output check in main() says so where it can).
    return true;
}

std::optional<std::size_t> descriptor_limit() noexcept {
    // Winsock sockets are kernel handles, limited by memory, not by a
    // per-process count a user sets low (select()'s FD_SETSIZE is
    // ConnectSet::capacity()'s business).
    return std::nullopt;
}

} // namespace loopcheck::platform
