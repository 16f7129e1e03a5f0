// libFuzzer: the listener-table decoders, fed what the kernel or Windows
// would hand them: sock_diag datagrams, MIB tables of both families, /proc
// link targets and comm contents. None may read out of bounds, loop, or
// return more rows than the bytes can hold.
#include "loopcheck/core/listeners/decode.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace loopcheck::decode;
    const std::span<const std::uint8_t> bytes(data, size);
    std::vector<DiagSocket> sockets;
    const auto result = decode_sock_diag(bytes, 1, sockets);
    (void)result;
    // A netlink message header alone is 16 bytes; each socket needs one.
    if (sockets.size() > size / 16 + 1)
        __builtin_trap();
    for (const auto family : {loopcheck::Family::ipv4, loopcheck::Family::ipv6}) {
        if (auto rows = decode_mib_tcp_table(bytes, family)) {
            const std::size_t row =
                family == loopcheck::Family::ipv4 ? mib_layout::row4_size : mib_layout::row6_size;
            if (rows->size() > size / row)
                __builtin_trap();
        }
    }
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)socket_inode_from_link(text);
    (void)pid_from_name(text);
    (void)name_from_comm(text);
    (void)image_base_name(text);
    return 0;
}
