#include "loopcheck/core/measure/netstat.hpp"
#include "support/catch.hpp"

using namespace loopcheck;

TEST_CASE("ListenOverflows is read by its column name", "[netstat]") {
    // The shape of /proc/net/netstat (Linux 6.1), shortened.
    const char* text = "TcpExt: SyncookiesSent SyncookiesRecv ListenOverflows ListenDrops\n"
                       "TcpExt: 0 0 17 17\n"
                       "IpExt: InNoRoutes InTruncatedPkts\n"
                       "IpExt: 0 0\n";
    CHECK(parse_listen_overflows(text) == 17u);
    // Another column order, CRLF, a large value.
    CHECK(
        parse_listen_overflows("TcpExt: ListenOverflows X\r\nTcpExt: 18446744073709551615 1\r\n") ==
        18446744073709551615u);
}

TEST_CASE("ListenOverflows: malformed input gives nothing", "[netstat]") {
    CHECK_FALSE(parse_listen_overflows(""));
    CHECK_FALSE(parse_listen_overflows("TcpExt: ListenOverflows\n"));              // no values
    CHECK_FALSE(parse_listen_overflows("TcpExt: ListenOverflows\nTcpExt: x\n"));   // not a number
    CHECK_FALSE(parse_listen_overflows("TcpExt: ListenOverflows\nTcpExt: -1\n"));  // negative
    CHECK_FALSE(parse_listen_overflows("TcpExt: A ListenOverflows\nTcpExt: 1\n")); // short line
    CHECK_FALSE(parse_listen_overflows("IpExt: ListenOverflows\nIpExt: 3\n"));     // other group
    CHECK_FALSE(parse_listen_overflows("TcpExt: ListenDrops\nTcpExt: 3\n"));       // absent
}
