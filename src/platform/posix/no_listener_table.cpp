// Listening sockets on POSIX systems loopcheck has no listener table for
// (the BSDs, Solaris, ...): a clear "not supported" instead of a guess. The
// check itself still runs; its report says listener data is unavailable.
#include "loopcheck/platform/platform.hpp"

#include <cstdint>

namespace loopcheck::platform {

Result<ListenerTable> list_listeners(std::optional<std::uint16_t> /*port*/,
                                     std::span<const std::uint16_t> /*owners_on*/) {
    return system_error("listing listening sockets is not supported on this OS");
}

std::optional<std::uint64_t> listen_overflows() {
    return std::nullopt; // no counter loopcheck knows how to read on this OS
}

} // namespace loopcheck::platform
