// When loopcheck pairs a default probe with a no-SYN-retry probe, and what
// the Windows option carries. Pure, so the Windows-only rules are tested on
// every platform.
#pragma once

#include "loopcheck/core/address.hpp"
#include "loopcheck/core/machine.hpp"
#include "loopcheck/core/sample.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace loopcheck {

/// The first Windows build where libuv turns SYN retries off on loopback
/// (Windows 10 1709). libuv and Go gate on it; earlier builds may reject
/// TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS or ignore it.
inline constexpr std::uint32_t windows_no_syn_retries_build = 16299;

/// SIO_TCP_INITIAL_RTO's control code and the MaxSynRetransmissions
/// sentinels of TCP_INITIAL_RTO_PARAMETERS, as mstcpip.h defines them
/// (MinGW-w64's /usr/share/mingw-w64/include/mstcpip.h, checked against
/// the SDK by static_asserts in src/platform/win32/connect.cpp). Kept here so the
/// payload can be tested anywhere. Microsoft's documentation of the struct
/// (learn.microsoft.com/windows/win32/api/mstcpip/ns-mstcpip-tcp_initial_rto_parameters):
/// the DEFAULT values pick the system defaults, the UNSPECIFIED ones the
/// administrator's settings, and only NO_SYN_RETRANSMISSIONS means "do not
/// retransmit the SYN". So 0 is not "no retries".
inline constexpr std::uint32_t sio_tcp_initial_rto = 0x98000011u;
/// TCP_INITIAL_RTO_DEFAULT_MAX_SYN_RETRANSMISSIONS: the system's default.
inline constexpr std::uint8_t tcp_initial_rto_default_max_syn_retransmissions = 0;
/// TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS, ((UCHAR)-2): no SYN retransmission.
inline constexpr std::uint8_t tcp_initial_rto_no_syn_retransmissions = 0xFE;
/// TCP_INITIAL_RTO_UNSPECIFIED_MAX_SYN_RETRANSMISSIONS, ((UCHAR)-1).
inline constexpr std::uint8_t tcp_initial_rto_unspecified_max_syn_retransmissions = 0xFF;
/// The largest count that is a count and not one of the sentinels above.
inline constexpr int max_syn_retransmissions_count = 253;

/// TCP_INITIAL_RTO_PARAMETERS as plain values.
struct InitialRtoParameters {
    std::uint16_t rtt = 0; ///< TCP_INITIAL_RTO_DEFAULT_RTT: the system's default RTT
    std::uint8_t max_syn_retransmissions = tcp_initial_rto_no_syn_retransmissions;

    friend bool operator==(const InitialRtoParameters&, const InitialRtoParameters&) = default;
};

/// The parameters for "no SYN retransmissions". libuv sets Rtt to 0xFE
/// too; curl and the .NET experiment use 0 (the default). The wait after a
/// RST does not depend on Rtt (a 500 ms staircase whatever the Rtt, in
/// the published measurements), so loopcheck keeps the system default.
InitialRtoParameters no_syn_retransmissions() noexcept;

/// The parameters for at most `n` retransmissions: 0 is
/// NO_SYN_RETRANSMISSIONS (0xFE), because 0 itself would ask for the
/// system default; 1..253 are sent as they are; above 253 is clamped to
/// 253 (254 and 255 are sentinels), below 0 counts as 0.
InitialRtoParameters fixed_syn_retransmissions(int n) noexcept;

/// What a probe with `policy` sends with SIO_TCP_INITIAL_RTO: nothing for
/// the system default (the ioctl is not made at all), the parameters above
/// otherwise. `n` is used with SynPolicy::fixed only.
std::optional<InitialRtoParameters> initial_rto_for(SynPolicy policy, int n) noexcept;

/// "SIO_TCP_INITIAL_RTO(Rtt=0, MaxSynRetransmissions=254)": how -vv logs
/// the call, with the values as sent.
std::string initial_rto_call_text(const InitialRtoParameters& p);

/// True where Windows honours NO_SYN_RETRANSMISSIONS (libuv's gate).
bool windows_supports_no_syn_retries(std::uint32_t build) noexcept;

/// Whether to pair a default probe of `a` with a no-retry probe: on
/// Windows at or above the gate, for the addresses libuv treats as
/// loopback (127/8 and ::1).
bool pair_probe(Os os, std::uint32_t windows_build, const Address& a) noexcept;

} // namespace loopcheck
