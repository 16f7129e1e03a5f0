// Windows helpers the platform files share: sockaddr conversion, opening a
// socket, WSA messages, select() timeouts, UTF-16 and command lines.
#include "platform/win32/socket_helpers.hpp"

#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/core/text/utf16.hpp"
#include "loopcheck/core/windows/winsock_errors.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "platform/common/sockaddr.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <cwchar>
#include <fmt/format.h>
#include <mutex>
#include <string>

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

// wchar_t is UTF-16 on Windows, the same code units as char16_t.
static_assert(sizeof(wchar_t) == sizeof(char16_t));

std::string utf8(const wchar_t* text, int length) {
    if (text == nullptr)
        return {};
    const std::size_t n = length < 0 ? std::wcslen(text) : static_cast<std::size_t>(length);
    return utf16_to_utf8(std::u16string_view(reinterpret_cast<const char16_t*>(text), n));
}

/// The system's message in UTF-16 (FormatMessageW), made UTF-8 here:
/// FormatMessageA would give the ANSI code page's bytes, which the JSON
/// writer turns into U+FFFD and a UTF-8 console garbles on any Windows
/// whose messages are not in English.
std::string wsa_message(int code) {
    std::array<wchar_t, 512> buf{};
    const DWORD n = ::FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                                     nullptr, static_cast<DWORD>(code), 0, buf.data(),
                                     static_cast<DWORD>(buf.size()), nullptr);
    std::string text = utf8(buf.data(), static_cast<int>(n));
    while (!text.empty() &&
           (text.back() == '\r' || text.back() == '\n' || text.back() == ' ' || text.back() == '.'))
        text.pop_back();
    // The system's text can be translated: controls come out as escapes,
    // like any text loopcheck did not write.
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

namespace {
std::mutex g_wake_mutex; ///< guards the count and the opening and closing
int g_wake_users = 0;
std::atomic<SOCKET> g_wake{INVALID_SOCKET};
} // namespace

void open_wake_socket() {
    const std::lock_guard lock(g_wake_mutex);
    if (g_wake_users++ > 0)
        return;
    SOCKET s = ::WSASocketW(AF_INET, SOCK_DGRAM, IPPROTO_UDP, nullptr, 0,
                            WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
    if (s == INVALID_SOCKET && ::WSAGetLastError() == WSAEINVAL) // before 7 SP1
        s = ::WSASocketW(AF_INET, SOCK_DGRAM, IPPROTO_UDP, nullptr, 0, WSA_FLAG_OVERLAPPED);
    if (s == INVALID_SOCKET) {
        log::debug("wake socket: {}", wsa_error_name(::WSAGetLastError()));
        return;
    }
    // Bound to a free loopback port and connected to that same address, so
    // send() needs no address and nothing from elsewhere is accepted.
    sockaddr_in self{};
    self.sin_family = AF_INET;
    self.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int len = sizeof self;
    u_long non_blocking = 1;
    if (::bind(s, reinterpret_cast<const sockaddr*>(&self), sizeof self) != 0 ||
        ::getsockname(s, reinterpret_cast<sockaddr*>(&self), &len) != 0 ||
        ::connect(s, reinterpret_cast<const sockaddr*>(&self), sizeof self) != 0 ||
        ::ioctlsocket(s, FIONBIO, &non_blocking) != 0) {
        log::debug("wake socket: {}", wsa_error_name(::WSAGetLastError()));
        ::closesocket(s);
        return;
    }
    g_wake.store(s);
}

void close_wake_socket() {
    const std::lock_guard lock(g_wake_mutex);
    if (g_wake_users == 0 || --g_wake_users > 0)
        return;
    const SOCKET s = g_wake.exchange(INVALID_SOCKET);
    if (s != INVALID_SOCKET)
        ::closesocket(s);
}

SOCKET wake_socket() noexcept {
    return g_wake.load();
}

void drain_wake_socket() {
    const SOCKET s = g_wake.load();
    if (s == INVALID_SOCKET)
        return;
    std::array<char, 16> buf{};
    while (::recv(s, buf.data(), static_cast<int>(buf.size()), 0) > 0) {
    }
}

/// select() takes whole milliseconds in practice; round up so that a wait
/// of 0.4 ms does not become a busy zero-length select.
timeval to_timeval(Micros wait) {
    const auto ms = (std::max(wait, Micros{0}).count() + 999) / 1000;
    return {static_cast<long>(ms / 1000), static_cast<long>((ms % 1000) * 1000)};
}

std::wstring widen(const std::string& s) {
    if (s.empty())
        return {};
    const int n =
        ::MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
    std::wstring out(static_cast<std::size_t>(n), L'\0');
    ::MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), out.data(), n);
    return out;
}

/// One argument as the C runtime's command-line parser reads it back
/// (backslashes doubled before a quote, the whole quoted when needed).
std::wstring quote_arg(const std::wstring& a) {
    if (!a.empty() && a.find_first_of(L" \t\n\v\"") == std::wstring::npos)
        return a;
    std::wstring out = L"\"";
    for (std::size_t i = 0;; ++i) {
        std::size_t backslashes = 0;
        while (i < a.size() && a[i] == L'\\') {
            ++i;
            ++backslashes;
        }
        if (i == a.size()) {
            out.append(backslashes * 2, L'\\');
            break;
        }
        if (a[i] == L'"')
            out.append(backslashes * 2 + 1, L'\\');
        else
            out.append(backslashes, L'\\');
        out += a[i];
    }
    return out + L"\"";
}

} // namespace loopcheck::platform::win32
