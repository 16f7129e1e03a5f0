// Sockets the integration tests open themselves (and, through text.hpp,
// the string helpers).
#pragma once

#include "loopcheck/platform/platform.hpp"
#include "support/catch.hpp"
#include "support/text.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace loopcheck::test {

/// The socket library up for a test's lifetime (WSAStartup on Windows).
struct Net {
    platform::NetworkScope scope;
    Net() { REQUIRE_FALSE(scope.error()); }
};

/// A listener the test opens itself; the test fails if it cannot.
inline platform::Socket listener(Address bind, bool v6only = true, int backlog = 16) {
    auto s = platform::open_listener({bind, v6only, backlog});
    INFO((s ? "" : s.error().message));
    REQUIRE(s.ok());
    return std::move(*s);
}

inline std::uint16_t port_of(const platform::Socket& s) {
    auto a = platform::local_address(s);
    REQUIRE(a.ok());
    return a->port;
}

} // namespace loopcheck::test
