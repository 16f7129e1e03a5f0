// What `loopcheck listen` is asked to open: "127.0.0.1:8000", "[::1]:8000",
// "localhost:8000" (every address the name resolves to) or "dual:8000"
// ([::] with IPV6_V6ONLY off). Port 0 picks a free port.
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/result.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace loopcheck {

struct ListenSpec {
    enum class Kind : std::uint8_t {
        address, ///< an IP literal; IPv6 with IPV6_V6ONLY on
        name,    ///< every address `host` resolves to, one socket each, one port
        dual,    ///< [::] with IPV6_V6ONLY off: IPv6 and IPv4 on one socket
    };
    std::string text; ///< as given
    Kind kind = Kind::address;
    Address address;  ///< the literal, or [::] for dual; port set
    std::string host; ///< the name, for Kind::name
    std::uint16_t port = 0;
};

/// Parses one spec; the error (ErrorKind::usage) is one line naming the bad
/// part, e.g. "invalid listen spec '8000': expected HOST:PORT, ...".
Result<ListenSpec> parse_listen_spec(std::string_view text);

/// Why `loopcheck listen` will not open `a` unless --allow-any is given
/// (anything but a loopback address reaches beyond this machine); empty
/// when it may.
std::string listen_refusal(const ListenSpec& spec, const Address& a);

/// One socket `loopcheck listen` opened (the run opens it; the report
/// layer prints it).
struct ListeningSocket {
    Address bound;
    bool v6only = true;
};

} // namespace loopcheck
