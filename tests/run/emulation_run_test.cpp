// --emulate run for real (src/run/emulation_run.cpp) against
// listeners the test opens.
#include "loopcheck/platform/platform.hpp"
#include "run/emulation_run.hpp"
#include "support/catch.hpp"
#include "support/helpers.hpp"

#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

TEST_CASE("emulations run for real against listeners the test opens", "[emulation][integration]") {
    platform::NetworkScope net;
    auto listener = platform::open_listener({make_ipv4(127, 0, 0, 1), true, 64});
    REQUIRE(listener.ok());
    const auto port = platform::local_address(*listener)->port;
    // The same port held closed on a second loopback address: refused first.
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 2, port));
    if (!closed.ok())
        LC_SKIP("127.0.0.2 is not usable here: " << closed.error().message);
    std::vector<Address> resolved{make_ipv4(127, 0, 0, 2, port), make_ipv4(127, 0, 0, 1, port)};
    // Above a default Windows refusal (2.02-2.10 s; the sequential strategy
    // waits it out before trying 127.0.0.1); a refusal ends the wait first.
    constexpr Micros timeout = 10s;
    for (const char* strategy : {"sequential", "happy-eyeballs=100ms", "go", "node"}) {
        INFO(strategy);
        auto p = run_emulation(*parse_emulation(strategy), resolved, timeout, Os::linux_, 0);
        REQUIRE(p.connected);
        CHECK(*p.via == resolved[1]);
        CHECK(p.attempts == 2);
        CHECK_FALSE(p.lower_bound);
    }
    std::vector<Address> none{make_ipv4(127, 0, 0, 2, port)};
    auto fail = run_emulation(*parse_emulation("happy-eyeballs"), none, timeout, Os::linux_, 0);
    CHECK_FALSE(fail.connected);
    CHECK(fail.attempts == 1);
}
