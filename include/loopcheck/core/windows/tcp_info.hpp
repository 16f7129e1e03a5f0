// Windows' SIO_TCP_INFO answer as bytes: where TCP_INFO_v0 keeps the count
// of retransmitted SYNs. Pure, so the offset is tested on every OS; the
// Windows platform file checks it against mstcpip.h when the SDK has it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace loopcheck {

/// SIO_TCP_INFO = _WSAIORW(IOC_VENDOR, 39) (mstcpip.h); the input is a
/// DWORD version, 0 asks for TCP_INFO_v0 (Windows 10 1703 and later, no
/// elevation needed: learn.microsoft.com .../winsock/sio-tcp-info).
inline constexpr std::uint32_t sio_tcp_info = 0xD8000027u;

/// TCP_INFO_v0 on x86 and x64: TCPSTATE State (4), ULONG Mss (4),
/// ULONG64 ConnectionTimeMs (8), BOOLEAN TimestampsEnabled (1, padded to
/// 4), then fourteen counters from RttUs to TimeoutEpisodes (twelve ULONG,
/// BytesOut and BytesIn ULONG64: 64 bytes from byte 20), then
/// UCHAR SynRetrans at byte 84; the struct is padded to 88 bytes.
inline constexpr std::size_t tcp_info_v0_size = 88;
inline constexpr std::size_t tcp_info_v0_syn_retrans_offset = 84;

/// SynRetrans ("total number of retransmitted SYNs") from the bytes the
/// ioctl wrote; nullopt when it wrote too few to hold the field.
std::optional<int> tcp_info_v0_syn_retransmissions(std::span<const std::uint8_t> written) noexcept;

} // namespace loopcheck
