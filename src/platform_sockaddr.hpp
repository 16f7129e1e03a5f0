// Address <-> sockaddr, shared by the POSIX and Windows platform files.
// Include it after the OS's socket headers (sys/socket.h and netinet/in.h,
// or winsock2.h and ws2tcpip.h): both define sockaddr_in and sockaddr_in6
// with these fields, so one copy serves both.
#pragma once

#include "loopcheck/address.hpp"

#include <cstddef>
#include <cstring>
#include <optional>

namespace loopcheck::platform::detail {

/// Fills `ss` for `a` and returns the length to pass with it.
inline std::size_t fill_sockaddr(const Address& a, sockaddr_storage& ss) {
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

/// The address in `sa`; nullopt for a family other than IPv4 and IPv6.
inline std::optional<Address> read_sockaddr(const sockaddr* sa) {
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

} // namespace loopcheck::platform::detail
