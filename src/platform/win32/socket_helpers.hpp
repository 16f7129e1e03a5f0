// Socket helpers the Windows platform files share: address conversion,
// opening a socket, WSA messages, select() timeouts. Private to
// src/platform/win32/*.cpp.
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/input/duration.hpp"
#include "platform/win32/winsock.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace loopcheck::platform::win32 {

int native_family(Family f);

/// Fills `ss` for `a`; returns the length to pass with it.
int to_sockaddr(const Address& a, sockaddr_storage& ss);

std::optional<Address> from_sockaddr(const sockaddr* sa);

/// The system's text for a WSA code with its name, e.g. "No connection
/// could be made ... (WSAECONNREFUSED)"; the name alone when Windows has
/// no text (Wine has none for most).
std::string wsa_message(int code);

/// UTF-8 from a Windows UTF-16 string (`length` units, or up to the NUL
/// when negative); lone surrogates become U+FFFD (core/text/utf16.hpp).
std::string utf8(const wchar_t* text, int length = -1);

/// UTF-16 from UTF-8, for the wide API.
std::wstring widen(const std::string& s);

/// One argument as the C runtime's command-line parser reads it back
/// (backslashes doubled before a quote, the whole quoted when needed): a
/// child's command line is made of these.
std::wstring quote_arg(const std::wstring& a);

/// A non-blocking TCP socket that child processes do not inherit;
/// INVALID_SOCKET with WSAGetLastError() set on failure.
SOCKET open_tcp_socket(Family family);

/// The wake socket: a UDP socket on 127.0.0.1 connected to itself, which
/// ConnectSet::wait() watches for reading so that interrupt_waits() (the
/// console handler's thread) can end its select(). NetworkScope opens it
/// with the first scope and closes it with the last.
void open_wake_socket();
void close_wake_socket();
/// INVALID_SOCKET when there is none (no scope, or it could not be opened).
SOCKET wake_socket() noexcept;
/// Reads every pending wake datagram, so that one wake ends one wait.
void drain_wake_socket();

/// The build number RtlGetVersion reports (facts.cpp), read once; 0 when
/// it cannot be read. SIO_TCP_INITIAL_RTO's payload depends on it
/// (syn_policy.hpp: 0xFE means "no retries" only from 16299).
std::uint32_t windows_build() noexcept;

/// A select() timeout of at least `wait`, in whole milliseconds.
timeval to_timeval(Micros wait);

} // namespace loopcheck::platform::win32
