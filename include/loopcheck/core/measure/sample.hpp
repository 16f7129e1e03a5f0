// One timed connect and what came of it. Outcomes are measurements, not
// errors: a refused connect is exactly what loopcheck is here to time.
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/input/duration.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace loopcheck {

enum class Outcome : std::uint8_t {
    accepted,    ///< the handshake completed
    refused,     ///< the peer answered with a reset (ECONNREFUSED / WSAECONNREFUSED)
    timeout,     ///< no answer within --timeout, or the stack gave up (ETIMEDOUT)
    unreachable, ///< no route, or the address is not available here
    error,       ///< anything else; see Sample::native_name
};

std::string_view outcome_name(Outcome o) noexcept;

/// How a probe asks the stack to treat SYN retransmissions.
enum class SynPolicy : std::uint8_t {
    system_default, ///< what Python, .NET and curl < 8.22 get
    no_retries,     ///< Windows: SIO_TCP_INITIAL_RTO with NO_SYN_RETRANSMISSIONS (libuv)
    fixed,          ///< exactly N retransmissions (staircase, --syn-retries)
};

/// Whether the SYN-retry option was applied to the socket.
enum class OptionState : std::uint8_t {
    not_requested, ///< SynPolicy::system_default
    applied,       ///< the OS accepted it
    refused,       ///< the OS rejected it (native code in Sample::option_error)
    unsupported,   ///< this platform has no such option
};

std::string_view option_state_name(OptionState s) noexcept;

struct ProbeSpec {
    Address address;
    SynPolicy syn = SynPolicy::system_default;
    int syn_retries = 0; ///< used with SynPolicy::fixed
};

struct Sample {
    Outcome outcome = Outcome::error;
    Micros latency{0};
    /// The OS's own code (errno or WSA error) and its symbolic name, e.g.
    /// 111 "ECONNREFUSED" or 10061 "WSAECONNREFUSED"; 0 and "" when accepted
    /// or timed out by loopcheck's own clock.
    int native_code = 0;
    std::string native_name;
    /// SYN retransmissions the kernel counted for this connect, when the OS
    /// tells (Linux TCP_INFO, Windows SIO_TCP_INFO); nullopt otherwise.
    std::optional<int> syn_retransmissions;
    OptionState option = OptionState::not_requested;
    int option_error = 0;
    /// Cut short by Ctrl-C / SIGTERM: not a measurement.
    bool interrupted = false;
    /// --quick: not measured but inferred from the no-SYN-retry probe and
    /// the retry limit (src/core/measure/quick.cpp).
    bool inferred = false;
    std::string option_error_name; ///< the OS's name for option_error, e.g. "WSAEOPNOTSUPP"
};

/// A sample's outcome as reports print it: "interrupted" for a probe that a
/// stop cut short (its Outcome is only the placeholder timeout).
std::string_view sample_outcome_name(const Sample& s) noexcept;

} // namespace loopcheck
