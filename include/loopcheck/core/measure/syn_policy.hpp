// When loopcheck pairs a default probe with a no-SYN-retry probe, and what
// the Windows option carries. Pure, so the Windows-only rules are tested on
// every platform.
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/input/machine.hpp"
#include "loopcheck/core/measure/sample.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace loopcheck {

/// The first Windows build that reads TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS
/// as "no retransmissions" (Windows 10 1709). libuv and the JDK gate on it
/// (libuv src/win/tcp.c uv__windows10_version1709; openjdk/jdk
/// src/java.base/windows/native/libnet/net_util_md.c IsWindows10RS3OrGreater).
/// Earlier builds (Server 2016 is 14393, 1703 is 15063, 8.1) send 1 there
/// in the JDK, "the minimum possible value before Windows 10 RS3". They do
/// not reject 0xFE: by Microsoft's networking team, as issue 26 relays it
/// (OpenJDK net-dev, 2020-07, mail.openjdk.org/pipermail/net-dev/2020-July/
/// 014231.html, not read here), they take it as a count, ~255 retries 500 ms
/// apart, ~128 s.
inline constexpr std::uint32_t windows_no_syn_retries_build = 16299;
/// What "no retries" becomes below that build: one retry (as the JDK sends).
inline constexpr std::uint8_t fewest_syn_retransmissions_before_1709 = 1;

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

/// The same on Windows build `windows_build`: below
/// windows_no_syn_retries_build, where 0xFE would be read as ~255 retries,
/// "no retries" (SynPolicy::no_retries, or a limit of 0) is sent as one
/// retry. A build of 0 (unknown) counts as below, as the JDK's failed
/// version check does: one retry costs ~500 ms, a misread 0xFE ~128 s.
std::optional<InitialRtoParameters> initial_rto_for(SynPolicy policy, int n,
                                                    std::uint32_t windows_build) noexcept;

/// True when `policy` asks for no retries (no_retries, or fixed with a
/// limit of 0 or below) and `windows_build` cannot give it, so one retry is
/// sent instead.
bool sends_one_retry_instead(SynPolicy policy, int n, std::uint32_t windows_build) noexcept;

/// What loopcheck says where sends_one_retry_instead() holds, e.g. "Windows
/// build 14393 cannot turn SYN retries off (that needs 16299, Windows 10
/// 1709): limit 0 is sent as one retry (this build cannot turn them off)".
std::string one_retry_note(std::uint32_t windows_build);

/// "SIO_TCP_INITIAL_RTO(Rtt=0, MaxSynRetransmissions=254)": how -vv logs
/// the call, with the values as sent.
std::string initial_rto_call_text(const InitialRtoParameters& p);

/// The first limit `loopcheck staircase` walks: 1 on Windows below
/// windows_no_syn_retries_build, where a limit of 0 would be sent as one
/// retry and give the fit two points at one retry; 0 elsewhere.
int staircase_first_limit(Os os, std::uint32_t windows_build) noexcept;

/// True where Windows honours NO_SYN_RETRANSMISSIONS (libuv's and the JDK's gate).
bool windows_supports_no_syn_retries(std::uint32_t build) noexcept;

/// Whether to pair a default probe of `a` with a no-retry probe: on
/// Windows at or above the gate, for the addresses libuv treats as
/// loopback (127/8 and ::1).
bool pair_probe(Os os, std::uint32_t windows_build, const Address& a) noexcept;

} // namespace loopcheck
