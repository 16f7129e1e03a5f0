// Socket helpers the Windows platform files share: address conversion,
// opening a socket, WSA messages, select() timeouts. Private to
// src/platform/win32/*.cpp.
#pragma once

#include "loopcheck/core/address.hpp"
#include "loopcheck/core/duration.hpp"
#include "loopcheck/platform/win32/winsock.hpp"

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

/// A non-blocking TCP socket that child processes do not inherit;
/// INVALID_SOCKET with WSAGetLastError() set on failure.
SOCKET open_tcp_socket(Family family);

/// A select() timeout of at least `wait`, in whole milliseconds.
timeval to_timeval(Micros wait);

} // namespace loopcheck::platform::win32
