// When a probe is paired with a no-SYN-retry twin; the Windows build gate.
#include "loopcheck/core/measure/syn_policy.hpp"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>

namespace loopcheck {

InitialRtoParameters no_syn_retransmissions() noexcept {
    return {0, tcp_initial_rto_no_syn_retransmissions};
}

InitialRtoParameters fixed_syn_retransmissions(int n) noexcept {
    const int count = std::clamp(n, 0, max_syn_retransmissions_count);
    // 0 is TCP_INITIAL_RTO_DEFAULT_MAX_SYN_RETRANSMISSIONS on the wire:
    // "none" has its own value.
    if (count == 0)
        return no_syn_retransmissions();
    return {0, static_cast<std::uint8_t>(count)};
}

std::optional<InitialRtoParameters> initial_rto_for(SynPolicy policy, int n) noexcept {
    switch (policy) {
    case SynPolicy::system_default:
        return std::nullopt;
    case SynPolicy::no_retries:
        return no_syn_retransmissions();
    case SynPolicy::fixed:
        return fixed_syn_retransmissions(n);
    }
    return std::nullopt;
}

bool sends_one_retry_instead(SynPolicy policy, int n, std::uint32_t windows_build) noexcept {
    const bool none_asked =
        policy == SynPolicy::no_retries || (policy == SynPolicy::fixed && n <= 0);
    return none_asked && !windows_supports_no_syn_retries(windows_build);
}

std::optional<InitialRtoParameters> initial_rto_for(SynPolicy policy, int n,
                                                    std::uint32_t windows_build) noexcept {
    if (sends_one_retry_instead(policy, n, windows_build))
        return InitialRtoParameters{0, fewest_syn_retransmissions_before_1709};
    return initial_rto_for(policy, n);
}

std::string one_retry_note(std::uint32_t windows_build) {
    return fmt::format("Windows build {} cannot turn SYN retries off (that needs {}, Windows 10 "
                       "1709; earlier builds read TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS as about "
                       "255 retries): limit 0 is sent as one retry (this build cannot turn them "
                       "off), as the JDK does",
                       windows_build, windows_no_syn_retries_build);
}

std::string initial_rto_call_text(const InitialRtoParameters& p) {
    return fmt::format("SIO_TCP_INITIAL_RTO(Rtt={}, MaxSynRetransmissions={})", p.rtt,
                       p.max_syn_retransmissions);
}

bool windows_supports_no_syn_retries(std::uint32_t build) noexcept {
    return build >= windows_no_syn_retries_build;
}

int staircase_first_limit(Os os, std::uint32_t windows_build) noexcept {
    return os == Os::windows && !windows_supports_no_syn_retries(windows_build) ? 1 : 0;
}

bool pair_probe(Os os, std::uint32_t windows_build, const Address& a) noexcept {
    return os == Os::windows && windows_supports_no_syn_retries(windows_build) && is_loopback(a);
}

} // namespace loopcheck
