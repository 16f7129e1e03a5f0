// Address <-> sockaddr and the resolver call, shared by the POSIX and
// Windows platform files. Include it after the OS's socket headers
// (sys/socket.h, netinet/in.h and netdb.h, or winsock2.h and ws2tcpip.h):
// both define sockaddr_in, sockaddr_in6 and addrinfo with these fields, so
// one copy serves both.
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/result.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <vector>

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

/// getaddrinfo as a typical client calls it, the addresses in exactly the
/// order it returns them, each with `port`. `error_text(rc)` turns its
/// error code into words (gai_strerror on POSIX, FormatMessage on Windows).
template <class ErrorText>
Result<std::vector<Address>> resolve_like_a_client(const std::string& host, std::uint16_t port,
                                                   FamilyFilter filter, ErrorText error_text) {
    addrinfo hints{};
    hints.ai_family = filter == FamilyFilter::ipv4   ? AF_INET
                      : filter == FamilyFilter::ipv6 ? AF_INET6
                                                     : AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_protocol = IPPROTO_TCP;
    // No AI_ADDRCONFIG: Python's socket.create_connection, urllib3 and .NET
    // pass none, and it would hide ::1 on a host without a global IPv6
    // address, which is exactly the list we must reproduce. AI_NUMERICSERV
    // only says the service is a number.
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo* res = nullptr;
    const auto service = std::to_string(port);
    log::trace("getaddrinfo(\"{}\", \"{}\", family={})", host, service, hints.ai_family);
    const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &res);
    if (rc != 0) {
        const std::string why = error_text(rc);
        log::trace("getaddrinfo -> {} ({})", rc, why);
        return Error{ErrorKind::resolve, fmt::format("cannot resolve '{}': {}", host, why)};
    }
    std::vector<Address> out;
    for (auto* ai = res; ai != nullptr; ai = ai->ai_next) {
        if (auto a = read_sockaddr(ai->ai_addr)) {
            a->port = port;
            out.push_back(*a);
        }
    }
    ::freeaddrinfo(res);
    log::trace("getaddrinfo -> {} address(es)", out.size());
    if (out.empty())
        return Error{ErrorKind::resolve, fmt::format("cannot resolve '{}': no TCP address", host)};
    return out;
}

} // namespace loopcheck::platform::detail
