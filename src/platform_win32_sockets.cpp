#include "platform_win32_sockets.hpp"

#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/winsock_errors.hpp"
#include "platform_sockaddr.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <fmt/format.h>

namespace loopcheck::platform::win32 {

int native_family(Family f) {
    return f == Family::ipv4 ? AF_INET : AF_INET6;
}

int to_sockaddr(const Address& a, sockaddr_storage& ss) {
    return static_cast<int>(platform::detail::fill_sockaddr(a, ss));
}

std::optional<Address> from_sockaddr(const sockaddr* sa) {
    return platform::detail::read_sockaddr(sa);
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
    // FormatMessageA's text is in the ANSI code page and can be translated:
    // bytes that are not UTF-8 come out as \xNN, controls as escapes.
    return text.empty() ? wsa_error_name(code)
                        : fmt::format("{} ({})", escape_text(text), wsa_error_name(code));
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
