#include "loopcheck/core/windows/tcp_info.hpp"
#include "support/catch.hpp"

#include <cstdint>
#include <vector>

using namespace loopcheck;

TEST_CASE("SynRetrans is byte 84 of TCP_INFO_v0", "[windows_tcp_info]") {
    CHECK(sio_tcp_info == 0xD8000027u); // _WSAIORW(IOC_VENDOR, 39)
    std::vector<std::uint8_t> info(tcp_info_v0_size, 0xAB);
    info[tcp_info_v0_syn_retrans_offset] = 4;
    CHECK(tcp_info_v0_syn_retransmissions(info) == 4);
    info[tcp_info_v0_syn_retrans_offset] = 0;
    CHECK(tcp_info_v0_syn_retransmissions(info) == 0);
    // An unsigned byte: 200 stays 200.
    info[tcp_info_v0_syn_retrans_offset] = 200;
    CHECK(tcp_info_v0_syn_retransmissions(info) == 200);
}

TEST_CASE("too few bytes written: no count", "[windows_tcp_info]") {
    std::vector<std::uint8_t> shorter(tcp_info_v0_syn_retrans_offset, 0);
    CHECK_FALSE(tcp_info_v0_syn_retransmissions(shorter));
    CHECK_FALSE(tcp_info_v0_syn_retransmissions({}));
    std::vector<std::uint8_t> just(tcp_info_v0_syn_retrans_offset + 1, 0);
    just.back() = 2;
    CHECK(tcp_info_v0_syn_retransmissions(just) == 2);
}
