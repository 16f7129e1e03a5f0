// Winsock error codes as portable outcomes: the one place a WSA code
// becomes refused / timeout / unreachable / error. Plain numbers, no
// Windows header, so the table is unit-tested on every OS; the Windows
// platform file checks the numbers against winsock2.h at compile time.
#pragma once

#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/measure/sample.hpp"

#include <string>

namespace loopcheck {

/// The codes the translation singles out (winsock2.h; learn.microsoft.com
/// .../winsock/windows-sockets-error-codes-2).
namespace wsa {
inline constexpr int would_block = 10035;        // WSAEWOULDBLOCK
inline constexpr int op_not_supported = 10045;   // WSAEOPNOTSUPP
inline constexpr int af_not_supported = 10047;   // WSAEAFNOSUPPORT
inline constexpr int addr_not_available = 10049; // WSAEADDRNOTAVAIL
inline constexpr int net_down = 10050;           // WSAENETDOWN
inline constexpr int net_unreachable = 10051;    // WSAENETUNREACH
inline constexpr int no_buffers = 10055;         // WSAENOBUFS
inline constexpr int timed_out = 10060;          // WSAETIMEDOUT
inline constexpr int connection_refused = 10061; // WSAECONNREFUSED
inline constexpr int host_down = 10064;          // WSAEHOSTDOWN
inline constexpr int host_unreachable = 10065;   // WSAEHOSTUNREACH
inline constexpr int too_many_sockets = 10024;   // WSAEMFILE
} // namespace wsa

/// The symbolic name of a Winsock error, e.g. 10054 -> "WSAECONNRESET";
/// "WSA error N" for a code not in the table.
std::string wsa_error_name(int code);

/// What a connect that failed with `code` means: WSAECONNREFUSED is
/// refused; WSAETIMEDOUT timeout; no route, address not available here,
/// family or network not available are unreachable; anything else error.
Outcome wsa_error_outcome(int code) noexcept;

/// The sample of a connect that failed with `code` after `latency`, with
/// the native code and name kept for the report.
Sample wsa_failure_sample(int code, Micros latency);

} // namespace loopcheck
