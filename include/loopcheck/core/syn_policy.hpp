// When loopcheck pairs a default probe with a no-SYN-retry probe, and what
// the Windows option carries. Pure, so the Windows-only rules are tested on
// every platform.
#pragma once

#include "loopcheck/core/address.hpp"

#include "loopcheck/core/machine.hpp"

#include <cstdint>
#include <string_view>

namespace loopcheck {

/// The first Windows build where libuv turns SYN retries off on loopback
/// (Windows 10 1709). libuv and Go gate on it; earlier builds may reject
/// TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS or ignore it.
inline constexpr std::uint32_t windows_no_syn_retries_build = 16299;

/// SIO_TCP_INITIAL_RTO's control code and the "no SYN retransmissions"
/// value (mstcpip.h), kept here so the payload can be tested anywhere.
inline constexpr std::uint32_t sio_tcp_initial_rto = 0x98000011u;
inline constexpr std::uint8_t tcp_initial_rto_no_syn_retransmissions = 0xFE;

/// TCP_INITIAL_RTO_PARAMETERS as plain values.
struct InitialRtoParameters {
    std::uint16_t rtt = 0; ///< 0: the system's default RTT
    std::uint8_t max_syn_retransmissions = 0;
};

/// The parameters for "no SYN retransmissions". libuv sets Rtt to 0xFE
/// too; curl and the .NET experiment use 0 (the default). The wait after a
/// RST does not depend on Rtt (measured: a 500 ms staircase whatever the
/// Rtt), so loopcheck keeps the system default.
InitialRtoParameters no_syn_retransmissions() noexcept;

/// The parameters for exactly `n` retransmissions (0..253; 254 and 255 are
/// the NO_SYN and UNSPECIFIED sentinels, so n is clamped to 253).
InitialRtoParameters fixed_syn_retransmissions(int n) noexcept;

/// True where Windows honours NO_SYN_RETRANSMISSIONS (libuv's gate).
bool windows_supports_no_syn_retries(std::uint32_t build) noexcept;

/// Whether to pair a default probe of `a` with a no-retry probe: on
/// Windows at or above the gate, for the addresses libuv treats as
/// loopback (127/8 and ::1).
bool pair_probe(Os os, std::uint32_t windows_build, const Address& a) noexcept;

} // namespace loopcheck
