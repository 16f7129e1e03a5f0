// The sockets loopcheck holds itself on Windows: listeners for the
// self-check and tests, closed ports it reserves, and their addresses.
#include "loopcheck/core/windows/winsock_errors.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"
#include "platform/win32/socket_helpers.hpp"

#include <fmt/format.h>

namespace loopcheck::platform {

using namespace win32;

void Socket::close_handle(std::intptr_t handle) noexcept {
    if (handle != invalid)
        ::closesocket(static_cast<SOCKET>(handle));
}

namespace {

Result<Socket> bound_socket(const Address& bind, bool v6only) {
    const SOCKET s = open_tcp_socket(bind.family);
    if (s == INVALID_SOCKET)
        return system_error(fmt::format("socket() for {} failed: {}", endpoint_string(bind),
                                        wsa_message(::WSAGetLastError())));
    Socket sock(static_cast<std::intptr_t>(s));
    // SO_EXCLUSIVEADDRUSE, not SO_REUSEADDR. On Windows SO_REUSEADDR lets
    // another socket bind the same address and port while ours is open and
    // take its connections, so a "closed" port could start accepting or a
    // listener miss connects; SO_EXCLUSIVEADDRUSE forbids that
    // (learn.microsoft.com .../winsock/using-so-reuseaddr-and-so-exclusiveaddruse).
    // Failing to set it costs only that protection, so it is not fatal.
    const BOOL exclusive = TRUE;
    if (::setsockopt(s, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, reinterpret_cast<const char*>(&exclusive),
                     sizeof exclusive) != 0)
        log::debug("SO_EXCLUSIVEADDRUSE on {}: {}", endpoint_string(bind),
                   wsa_error_name(::WSAGetLastError()));
    if (bind.family == Family::ipv6) {
        // Windows' default is already V6ONLY on; set it either way so the
        // socket means what the caller asked (dual-stack-sockets docs).
        const DWORD v = v6only ? 1 : 0;
        if (::setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, reinterpret_cast<const char*>(&v),
                         sizeof v) != 0)
            return system_error(fmt::format("IPV6_V6ONLY on {} failed: {}", endpoint_string(bind),
                                            wsa_message(::WSAGetLastError())));
    }
    sockaddr_storage ss{};
    const int len = to_sockaddr(bind, ss);
    if (::bind(s, reinterpret_cast<const sockaddr*>(&ss), len) != 0)
        return system_error(fmt::format("cannot bind {}: {}", endpoint_string(bind),
                                        wsa_message(::WSAGetLastError())));
    return sock;
}

} // namespace

Result<Socket> open_listener(const ListenOptions& options) {
    auto sock = bound_socket(options.bind, options.v6only);
    if (!sock)
        return sock;
    if (::listen(static_cast<SOCKET>(sock->native()), options.backlog) != 0)
        return system_error(fmt::format("cannot listen on {}: {}", endpoint_string(options.bind),
                                        wsa_message(::WSAGetLastError())));
    return sock;
}

Result<Socket> bind_closed(const Address& address) {
    // Bound but not listening: Windows answers a SYN to it with a reset,
    // like Linux, and SO_EXCLUSIVEADDRUSE keeps anyone else off the port.
    return bound_socket(address, true);
}

Result<Address> local_address(const Socket& socket) {
    sockaddr_storage ss{};
    int len = sizeof ss;
    if (::getsockname(static_cast<SOCKET>(socket.native()), reinterpret_cast<sockaddr*>(&ss),
                      &len) != 0)
        return system_error(
            fmt::format("getsockname failed: {}", wsa_message(::WSAGetLastError())));
    auto a = from_sockaddr(reinterpret_cast<const sockaddr*>(&ss));
    if (!a)
        return system_error("getsockname returned a non-IP address");
    return *a;
}

Result<std::optional<Address>> accept_and_close(const Socket& listener, Micros wait) {
    const auto s = static_cast<SOCKET>(listener.native());
    fd_set readfds;
    FD_ZERO(&readfds);
    FD_SET(s, &readfds);
    timeval tv = to_timeval(wait);
    const int n = ::select(0, &readfds, nullptr, nullptr, &tv);
    if (n == SOCKET_ERROR)
        return system_error(fmt::format("select failed: {}", wsa_message(::WSAGetLastError())));
    if (n == 0)
        return std::optional<Address>{};
    sockaddr_storage ss{};
    int len = sizeof ss;
    const SOCKET c = ::accept(s, reinterpret_cast<sockaddr*>(&ss), &len);
    if (c == INVALID_SOCKET) {
        const int err = ::WSAGetLastError();
        if (err == WSAEWOULDBLOCK || err == WSAECONNRESET || err == WSAEINTR)
            return std::optional<Address>{};
        return system_error(fmt::format("accept failed: {}", wsa_message(err)));
    }
    ::closesocket(c);
    return from_sockaddr(reinterpret_cast<const sockaddr*>(&ss));
}

} // namespace loopcheck::platform
