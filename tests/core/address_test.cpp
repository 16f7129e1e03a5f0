// IP literals, RFC 5952 text forms and the loopback tests.
#include "loopcheck/core/input/address.hpp"
#include "support/catch.hpp"

using namespace loopcheck;

TEST_CASE("IPv4 literals round-trip and reject sloppy forms", "[address]") {
    auto a = parse_ip_literal("127.0.0.1");
    REQUIRE(a);
    CHECK(a->family == Family::ipv4);
    CHECK(ip_string(*a) == "127.0.0.1");
    CHECK(is_loopback(*a));
    CHECK(is_loopback(*parse_ip_literal("127.255.0.9")));
    CHECK_FALSE(is_loopback(*parse_ip_literal("128.0.0.1")));
    CHECK(is_unspecified(*parse_ip_literal("0.0.0.0")));
    for (const char* badv4 :
         {"127.1", "127.0.0.01", "256.1.1.1", "1.2.3.4.5", "1.2.3.", "", "a.b.c.d"})
        CHECK_FALSE(parse_ip_literal(badv4));
}

TEST_CASE("IPv6 literals parse and print in RFC 5952 form", "[address]") {
    struct Case {
        const char* in;
        const char* out;
    };
    for (auto c :
         {Case{"::1", "::1"}, Case{"::", "::"}, Case{"0:0:0:0:0:0:0:1", "::1"},
          Case{"2001:DB8::1", "2001:db8::1"}, Case{"2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"},
          Case{"2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"},
          Case{"::ffff:127.0.0.1", "::ffff:127.0.0.1"}, Case{"::ffff:7f00:1", "::ffff:127.0.0.1"},
          Case{"fe80::1%3", "fe80::1%3"}, Case{"1::", "1::"}}) {
        INFO(c.in);
        auto a = parse_ip_literal(c.in);
        REQUIRE(a);
        CHECK(a->family == Family::ipv6);
        CHECK(ip_string(*a) == c.out);
    }
    for (const char* badv6 : {":::", "1:2:3:4:5:6:7:8:9", "1::2::3", ":1", "1:", "12345::", "g::1",
                              "fe80::1%", "fe80::1%eth0", "::1.2.3", "1:2:3:4:5:6:7::8:9"})
        CHECK_FALSE(parse_ip_literal(badv6));
}

TEST_CASE("loopback follows libuv: 127/8 and ::1, not v4-mapped", "[address]") {
    CHECK(is_loopback(ipv6_loopback()));
    CHECK_FALSE(is_loopback(*parse_ip_literal("::ffff:127.0.0.1")));
    CHECK_FALSE(is_loopback(*parse_ip_literal("::2")));
    CHECK(is_unspecified(*parse_ip_literal("::")));
}

TEST_CASE("endpoints bracket IPv6 so no output reads as another endpoint", "[address]") {
    CHECK(endpoint_string(make_ipv4(127, 0, 0, 1, 80)) == "127.0.0.1:80");
    CHECK(endpoint_string(ipv6_loopback(80)) == "[::1]:80");
    CHECK(family_name(Family::ipv4) == "ipv4");
    CHECK(family_name(Family::ipv6) == "ipv6");
}
