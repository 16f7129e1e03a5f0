#include "loopcheck/core/syn_policy.hpp"

#include <algorithm>

namespace loopcheck {

InitialRtoParameters no_syn_retransmissions() noexcept {
    return {0, tcp_initial_rto_no_syn_retransmissions};
}

InitialRtoParameters fixed_syn_retransmissions(int n) noexcept {
    return {0, static_cast<std::uint8_t>(std::clamp(n, 0, 253))};
}

bool windows_supports_no_syn_retries(std::uint32_t build) noexcept {
    return build >= windows_no_syn_retries_build;
}

bool pair_probe(Os os, std::uint32_t windows_build, const Address& a) noexcept {
    return os == Os::windows && windows_supports_no_syn_retries(windows_build) && is_loopback(a);
}

} // namespace loopcheck
