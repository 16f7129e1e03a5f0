// An IP address and port as plain bytes, with the text forms loopcheck
// prints. No OS headers: the platform layer converts to and from sockaddr.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace loopcheck {

enum class Family : std::uint8_t { ipv4, ipv6 };

/// "ipv4" or "ipv6": the names used in every report format.
std::string_view family_name(Family f) noexcept;

struct Address {
    Family family = Family::ipv4;
    /// Network byte order. IPv4 uses the first 4 bytes.
    std::array<std::uint8_t, 16> bytes{};
    std::uint16_t port = 0;
    /// IPv6 zone (interface index); 0 when none.
    std::uint32_t scope_id = 0;

    friend bool operator==(const Address&, const Address&) = default;
};

/// The address alone: "127.0.0.1", "::1" (RFC 5952 compressed form).
std::string ip_string(const Address& a);

/// Address with port, IPv6 in brackets: "127.0.0.1:80", "[::1]:80".
/// Every report prints addresses this way so that no output can be read as
/// a different endpoint.
std::string endpoint_string(const Address& a);

/// True for 127.0.0.0/8 and ::1. Deliberately not ::ffff:127.x: libuv's
/// loopback test does not match v4-mapped addresses either.
bool is_loopback(const Address& a) noexcept;

/// True for 0.0.0.0 and ::.
bool is_unspecified(const Address& a) noexcept;

/// Parses a numeric IPv4 ("127.0.0.1") or IPv6 ("::1", "fe80::1%3") literal.
/// Dotted forms other than four decimal parts are rejected on purpose (no
/// "127.1", no octal): a target should mean what it looks like.
std::optional<Address> parse_ip_literal(std::string_view text);

Address make_ipv4(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d,
                  std::uint16_t port = 0);
Address ipv6_loopback(std::uint16_t port = 0);

/// Which address families a check resolves and probes (--ipv4, --ipv6).
enum class FamilyFilter : std::uint8_t { any, ipv4, ipv6 };

} // namespace loopcheck
