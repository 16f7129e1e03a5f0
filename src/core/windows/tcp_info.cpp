// Decoding SIO_TCP_INFO's TCP_INFO_v0 bytes.
#include "loopcheck/core/windows/tcp_info.hpp"

#include <cstdint>

namespace loopcheck {

std::optional<int> tcp_info_v0_syn_retransmissions(std::span<const std::uint8_t> written) noexcept {
    if (written.size() <= tcp_info_v0_syn_retrans_offset)
        return std::nullopt;
    return static_cast<int>(written[tcp_info_v0_syn_retrans_offset]);
}

} // namespace loopcheck
