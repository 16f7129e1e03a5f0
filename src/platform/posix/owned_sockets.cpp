// Sockets loopcheck owns on POSIX systems: the self-check's and `loopcheck
// listen`'s listeners, closed ports held bound, and accepting on them.
#include "loopcheck/platform/platform.hpp"
#include "platform/posix/socket_helpers.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace loopcheck::platform {

using posix::from_sockaddr;
using posix::open_tcp_socket;
using posix::to_sockaddr;

void Socket::close_handle(std::intptr_t handle) noexcept {
    if (handle != invalid)
        ::close(static_cast<int>(handle));
}

namespace {

Result<Socket> bound_socket(const Address& bind, bool v6only) {
    const int fd = open_tcp_socket(bind.family);
    if (fd < 0)
        return system_error(
            fmt::format("socket() for {} failed: {}", endpoint_string(bind), std::strerror(errno)));
    Socket sock(fd);
    const int one = 1;
    // SO_REUSEADDR lets a listener come back on a port still in TIME_WAIT;
    // it does not let two listeners share a port on Linux or macOS.
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind.family == Family::ipv6) {
        const int v = v6only ? 1 : 0;
        if (::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v, sizeof v) != 0)
            return system_error(fmt::format("IPV6_V6ONLY on {} failed: {}", endpoint_string(bind),
                                            std::strerror(errno)));
    }
    sockaddr_storage ss{};
    const socklen_t len = to_sockaddr(bind, ss);
    if (::bind(fd, reinterpret_cast<const sockaddr*>(&ss), len) != 0)
        return system_error(
            fmt::format("cannot bind {}: {}", endpoint_string(bind), std::strerror(errno)));
    return sock;
}

} // namespace

Result<Socket> open_listener(const ListenOptions& options) {
    auto sock = bound_socket(options.bind, options.v6only);
    if (!sock)
        return sock;
    if (::listen(static_cast<int>(sock->native()), options.backlog) != 0)
        return system_error(fmt::format("cannot listen on {}: {}", endpoint_string(options.bind),
                                        std::strerror(errno)));
    return sock;
}

Result<Socket> bind_closed(const Address& address) {
    return bound_socket(address, true);
}

Result<Address> local_address(const Socket& socket) {
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    if (::getsockname(static_cast<int>(socket.native()), reinterpret_cast<sockaddr*>(&ss), &len) !=
        0)
        return system_error(fmt::format("getsockname failed: {}", std::strerror(errno)));
    auto a = from_sockaddr(reinterpret_cast<const sockaddr*>(&ss));
    if (!a)
        return system_error("getsockname returned a non-IP address");
    return *a;
}

Result<std::optional<Address>> accept_and_close(const Socket& listener, Micros wait) {
    pollfd pfd{static_cast<int>(listener.native()), POLLIN, 0};
    const int n = ::poll(&pfd, 1, static_cast<int>((wait.count() + 999) / 1000));
    if (n < 0 && errno != EINTR)
        return system_error(fmt::format("poll failed: {}", std::strerror(errno)));
    if (n <= 0)
        return std::optional<Address>{};
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    const int fd =
        ::accept(static_cast<int>(listener.native()), reinterpret_cast<sockaddr*>(&ss), &len);
    if (fd < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED || errno == EINTR)
            return std::optional<Address>{};
        return system_error(fmt::format("accept failed: {}", std::strerror(errno)));
    }
    ::close(fd);
    return from_sockaddr(reinterpret_cast<const sockaddr*>(&ss));
}

} // namespace loopcheck::platform
