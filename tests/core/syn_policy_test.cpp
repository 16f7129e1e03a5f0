#include "loopcheck/core/syn_policy.hpp"
#include "support/catch.hpp"

using namespace loopcheck;

TEST_CASE("the Windows build gate is libuv's: 10.0.16299 (1709)", "[syn_policy]") {
    CHECK_FALSE(windows_supports_no_syn_retries(0));
    CHECK_FALSE(windows_supports_no_syn_retries(15063)); // 1703
    CHECK(windows_supports_no_syn_retries(16299));
    CHECK(windows_supports_no_syn_retries(26200)); // Windows 11 25H2
}

TEST_CASE("the ioctl payload", "[syn_policy]") {
    CHECK(sio_tcp_initial_rto == 0x98000011u);
    auto p = no_syn_retransmissions();
    CHECK(p.rtt == 0);
    CHECK(p.max_syn_retransmissions == 0xFE);
    CHECK(fixed_syn_retransmissions(0).max_syn_retransmissions == 0);
    CHECK(fixed_syn_retransmissions(4).max_syn_retransmissions == 4);
    // 254 and 255 are sentinels (NO_SYN, UNSPECIFIED): never send them as a count.
    CHECK(fixed_syn_retransmissions(300).max_syn_retransmissions == 253);
    CHECK(fixed_syn_retransmissions(-1).max_syn_retransmissions == 0);
}

TEST_CASE("pairing: Windows at or above the gate, loopback only", "[syn_policy]") {
    const auto v4 = make_ipv4(127, 0, 0, 1);
    const auto v4_other = make_ipv4(127, 1, 2, 3);
    const auto v6 = ipv6_loopback();
    const auto lan = make_ipv4(192, 0, 2, 10);
    CHECK(pair_probe(Os::windows, 22631, v4));
    CHECK(pair_probe(Os::windows, 22631, v4_other));
    CHECK(pair_probe(Os::windows, 22631, v6));
    CHECK_FALSE(pair_probe(Os::windows, 22631, lan));
    CHECK_FALSE(pair_probe(Os::windows, 15063, v4));
    CHECK_FALSE(pair_probe(Os::linux_, 0, v4));
}
