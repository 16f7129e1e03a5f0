// Socket helpers the POSIX platform files share (connect.cpp,
// owned_sockets.cpp): address conversion and opening a socket. Private to
// src/platform/posix/; includes the socket headers it needs.
#pragma once

#include "loopcheck/core/input/address.hpp"

#include <netinet/in.h>
#include <optional>
#include <sys/socket.h>

namespace loopcheck::platform::posix {

/// Fills `ss` for `a`; returns the length to pass with it.
socklen_t to_sockaddr(const Address& a, sockaddr_storage& ss);

std::optional<Address> from_sockaddr(const sockaddr* sa);

int native_family(Family f);

/// A TCP socket set non-blocking and close-on-exec; -1 with errno set on
/// failure.
int open_tcp_socket(Family family);

} // namespace loopcheck::platform::posix
