#include "loopcheck/core/measure/syn_policy.hpp"
#include "support/catch.hpp"

#include <cstdint>

using namespace loopcheck;

TEST_CASE("the Windows build gate is libuv's: 10.0.16299 (1709)", "[syn_policy]") {
    CHECK_FALSE(windows_supports_no_syn_retries(0));
    CHECK_FALSE(windows_supports_no_syn_retries(15063)); // 1703
    CHECK(windows_supports_no_syn_retries(16299));
    CHECK(windows_supports_no_syn_retries(26200)); // Windows 11 25H2
}

TEST_CASE("the ioctl payload", "[syn_policy]") {
    // mstcpip.h: SIO_TCP_INITIAL_RTO is _WSAIOW(IOC_VENDOR,17); DEFAULT is
    // 0, NO_SYN_RETRANSMISSIONS (UCHAR)-2, UNSPECIFIED (UCHAR)-1.
    CHECK(sio_tcp_initial_rto == 0x98000011u);
    CHECK(tcp_initial_rto_default_max_syn_retransmissions == 0);
    CHECK(tcp_initial_rto_no_syn_retransmissions == 0xFE);
    CHECK(tcp_initial_rto_unspecified_max_syn_retransmissions == 0xFF);
    auto p = no_syn_retransmissions();
    CHECK(p.rtt == 0);
    CHECK(p.max_syn_retransmissions == 0xFE);
    CHECK(fixed_syn_retransmissions(1).max_syn_retransmissions == 1);
    CHECK(fixed_syn_retransmissions(4).max_syn_retransmissions == 4);
    CHECK(fixed_syn_retransmissions(253).max_syn_retransmissions == 253);
    // 254 and 255 are sentinels (NO_SYN, UNSPECIFIED): never send them as a count.
    CHECK(fixed_syn_retransmissions(300).max_syn_retransmissions == 253);
}

TEST_CASE("limit 0 is NO_SYN_RETRANSMISSIONS, never 0 (which asks for the system default)",
          "[syn_policy]") {
    // The bug this guards against: MaxSynRetransmissions = 0 is
    // TCP_INITIAL_RTO_DEFAULT_MAX_SYN_RETRANSMISSIONS, so "--syn-retries 0"
    // and staircase limit 0 took Windows' default ~2 s.
    CHECK(fixed_syn_retransmissions(0).max_syn_retransmissions == 0xFE);
    CHECK(fixed_syn_retransmissions(0) == no_syn_retransmissions());
    CHECK(fixed_syn_retransmissions(-1).max_syn_retransmissions == 0xFE);
    for (int n = -3; n <= 300; ++n)
        CHECK(fixed_syn_retransmissions(n).max_syn_retransmissions !=
              tcp_initial_rto_default_max_syn_retransmissions);
}

TEST_CASE("the policy mapping: default is not set, no-retries is 0xFE, N is N", "[syn_policy]") {
    CHECK_FALSE(initial_rto_for(SynPolicy::system_default, 0).has_value());
    CHECK_FALSE(initial_rto_for(SynPolicy::system_default, 3).has_value());
    REQUIRE(initial_rto_for(SynPolicy::no_retries, 0).has_value());
    CHECK(initial_rto_for(SynPolicy::no_retries, 7)->max_syn_retransmissions == 0xFE);
    CHECK(initial_rto_for(SynPolicy::fixed, 0)->max_syn_retransmissions == 0xFE);
    CHECK(initial_rto_for(SynPolicy::fixed, 2)->max_syn_retransmissions == 2);
    CHECK(initial_rto_for(SynPolicy::fixed, 5)->max_syn_retransmissions == 5);
    CHECK(initial_rto_for(SynPolicy::fixed, 5)->rtt == 0);
}

TEST_CASE("the ioctl log line (-vv) names the call with its values", "[syn_policy]") {
    CHECK(initial_rto_call_text(fixed_syn_retransmissions(0)) ==
          "SIO_TCP_INITIAL_RTO(Rtt=0, MaxSynRetransmissions=254)");
    CHECK(initial_rto_call_text(fixed_syn_retransmissions(3)) ==
          "SIO_TCP_INITIAL_RTO(Rtt=0, MaxSynRetransmissions=3)");
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

TEST_CASE("before 1709 no-retries is sent as one retry, never 0xFE (read as ~255 retries there)",
          "[syn_policy]") {
    // 14393: Windows Server 2016 and 10 1607; 15063: 10 1703; 16299: 10
    // 1709, the first build that reads 0xFE as "none"; 26200: 11 25H2.
    for (const std::uint32_t old_build : {0u, 9600u, 14393u, 15063u, 16298u}) {
        INFO("build " << old_build);
        CHECK(sends_one_retry_instead(SynPolicy::no_retries, 0, old_build));
        CHECK(sends_one_retry_instead(SynPolicy::fixed, 0, old_build));
        CHECK(initial_rto_for(SynPolicy::no_retries, 0, old_build)->max_syn_retransmissions == 1);
        CHECK(initial_rto_for(SynPolicy::fixed, 0, old_build)->max_syn_retransmissions == 1);
        CHECK(initial_rto_for(SynPolicy::fixed, -2, old_build)->max_syn_retransmissions == 1);
        // Counts are counts on every build; the default sends nothing.
        CHECK_FALSE(sends_one_retry_instead(SynPolicy::fixed, 3, old_build));
        CHECK(initial_rto_for(SynPolicy::fixed, 3, old_build)->max_syn_retransmissions == 3);
        CHECK_FALSE(initial_rto_for(SynPolicy::system_default, 0, old_build).has_value());
    }
    for (const std::uint32_t new_build : {16299u, 19045u, 26200u}) {
        INFO("build " << new_build);
        CHECK_FALSE(sends_one_retry_instead(SynPolicy::no_retries, 0, new_build));
        CHECK(initial_rto_for(SynPolicy::no_retries, 0, new_build)->max_syn_retransmissions ==
              0xFE);
        CHECK(initial_rto_for(SynPolicy::fixed, 0, new_build) == no_syn_retransmissions());
        CHECK(initial_rto_for(SynPolicy::fixed, 4, new_build)->max_syn_retransmissions == 4);
    }
}

TEST_CASE("the one-retry note names the build, the gate and what was sent", "[syn_policy]") {
    const auto note = one_retry_note(14393);
    CHECK(note.find("Windows build 14393 cannot turn SYN retries off") != std::string::npos);
    CHECK(note.find("16299") != std::string::npos);
    CHECK(note.find("one retry (this build cannot turn them off)") != std::string::npos);
}

TEST_CASE("the staircase starts at limit 1 where Windows cannot turn retries off", "[syn_policy]") {
    CHECK(staircase_first_limit(Os::windows, 14393) == 1);
    CHECK(staircase_first_limit(Os::windows, 15063) == 1);
    CHECK(staircase_first_limit(Os::windows, 0) == 1);
    CHECK(staircase_first_limit(Os::windows, 16299) == 0);
    CHECK(staircase_first_limit(Os::windows, 26200) == 0);
    CHECK(staircase_first_limit(Os::linux_, 0) == 0);
    CHECK(staircase_first_limit(Os::macos, 0) == 0);
}
