#include "platform_win32_sockets.hpp"

#include "loopcheck/winsock_errors.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <fmt/format.h>

namespace loopcheck::platform::win32 {

int native_family(Family f) {
    return f == Family::ipv4 ? AF_INET : AF_INET6;
}

int to_sockaddr(const Address& a, sockaddr_storage& ss) {
    std::memset(&ss, 0, sizeof ss);
    if (a.family == Family::ipv4) {
        auto* sin = reinterpret_cast<sockaddr_in*>(&ss);
        sin->sin_family = AF_INET;
        sin->sin_port = htons(a.port);
        std::memcpy(&sin->sin_addr, a.bytes.data(), 4);
        return sizeof(sockaddr_in);
    }
    auto* sin6 = reinterpret_cast<sockaddr_in6*>(&ss);
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = htons(a.port);
    sin6->sin6_scope_id = a.scope_id;
    std::memcpy(&sin6->sin6_addr, a.bytes.data(), 16);
    return sizeof(sockaddr_in6);
}

std::optional<Address> from_sockaddr(const sockaddr* sa) {
    Address a;
    if (sa->sa_family == AF_INET) {
        const auto* sin = reinterpret_cast<const sockaddr_in*>(sa);
        a.family = Family::ipv4;
        a.port = ntohs(sin->sin_port);
        std::memcpy(a.bytes.data(), &sin->sin_addr, 4);
        return a;
    }
    if (sa->sa_family == AF_INET6) {
        const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(sa);
        a.family = Family::ipv6;
        a.port = ntohs(sin6->sin6_port);
        a.scope_id = sin6->sin6_scope_id;
        std::memcpy(a.bytes.data(), &sin6->sin6_addr, 16);
        return a;
    }
    return std::nullopt;
}

std::string wsa_message(int code) {
    std::array<char, 512> buf{};
    const DWORD n =
        ::FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
                         static_cast<DWORD>(code), 0, buf.data(), buf.size(), nullptr);
    std::string text(buf.data(), n);
    while (!text.empty() &&
           (text.back() == '\r' || text.back() == '\n' || text.back() == ' ' || text.back() == '.'))
        text.pop_back();
    return text.empty() ? wsa_error_name(code) : fmt::format("{} ({})", text, wsa_error_name(code));
}

/// A non-blocking TCP socket that child processes do not inherit. Windows
/// sockets are inheritable by default; the test suite starts loopcheck.exe
/// while it holds listeners, and an inherited handle would keep a port
/// open after its owner closed it. WSA_FLAG_NO_HANDLE_INHERIT needs
/// Windows 7 SP1; without it the flag is WSAEINVAL, so fall back to
/// clearing the flag on the handle (learn.microsoft.com .../winsock2/nf-winsock2-wsasocketw).
SOCKET open_tcp_socket(Family family) {
    const int af = native_family(family);
    SOCKET s = ::WSASocketW(af, SOCK_STREAM, IPPROTO_TCP, nullptr, 0,
                            WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
    if (s == INVALID_SOCKET && ::WSAGetLastError() == WSAEINVAL) {
        s = ::WSASocketW(af, SOCK_STREAM, IPPROTO_TCP, nullptr, 0, WSA_FLAG_OVERLAPPED);
        if (s != INVALID_SOCKET)
            ::SetHandleInformation(reinterpret_cast<HANDLE>(s), HANDLE_FLAG_INHERIT, 0);
    }
    if (s == INVALID_SOCKET)
        return s;
    u_long non_blocking = 1;
    if (::ioctlsocket(s, FIONBIO, &non_blocking) != 0) {
        const int err = ::WSAGetLastError();
        ::closesocket(s);
        ::WSASetLastError(err);
        return INVALID_SOCKET;
    }
    return s;
}

/// select() takes whole milliseconds in practice; round up so that a wait
/// of 0.4 ms does not become a busy zero-length select.
timeval to_timeval(Micros wait) {
    const auto ms = (std::max(wait, Micros{0}).count() + 999) / 1000;
    return {static_cast<long>(ms / 1000), static_cast<long>((ms % 1000) * 1000)};
}

} // namespace loopcheck::platform::win32
