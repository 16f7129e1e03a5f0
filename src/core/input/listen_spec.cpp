// What loopcheck listen is asked to open, and what it refuses to.
#include "loopcheck/core/input/listen_spec.hpp"

#include "loopcheck/core/input/target.hpp"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>

namespace loopcheck {

namespace {

constexpr std::string_view examples =
    "expected HOST:PORT, e.g. 127.0.0.1:8000, [::1]:8000, localhost:8000 or dual:8000";

std::string printable(std::string_view s) {
    std::string out;
    for (unsigned char c : s)
        out += c < 0x20 || c >= 0x7f ? fmt::format("\\x{:02x}", c) : std::string(1, char(c));
    return out;
}

Error bad(std::string_view text, std::string_view why) {
    return usage_error(fmt::format("invalid listen spec '{}': {}", printable(text), why));
}

bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_';
}

} // namespace

Result<ListenSpec> parse_listen_spec(std::string_view text) {
    ListenSpec spec;
    spec.text = std::string(text);
    std::string_view host, port;
    if (text.starts_with("[")) {
        const auto close = text.find(']');
        if (close == std::string_view::npos)
            return bad(text, "unbalanced '[': write IPv6 addresses as [::1]:8000");
        host = text.substr(1, close - 1);
        if (close + 1 >= text.size() || text[close + 1] != ':')
            return bad(text, "missing ':PORT' after the IPv6 address");
        port = text.substr(close + 2);
    } else {
        const auto colon = text.rfind(':');
        if (colon == std::string_view::npos)
            return bad(text, examples);
        host = text.substr(0, colon);
        port = text.substr(colon + 1);
        if (host.find(':') != std::string_view::npos)
            return bad(text, "write IPv6 addresses in brackets, e.g. [::1]:8000");
    }
    if (port.empty())
        return bad(text, "missing port after ':' (0 picks a free one)");
    if (port.size() > 5 ||
        !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return bad(text, fmt::format("port '{}' is not a number from 0 to 65535", printable(port)));
    unsigned value = 0;
    for (char c : port)
        value = value * 10 + static_cast<unsigned>(c - '0');
    if (value > 65535)
        return bad(text, fmt::format("port {} is out of range (0-65535)", value));
    spec.port = static_cast<std::uint16_t>(value);

    if (host.empty())
        return bad(text, examples);
    if (text.starts_with("[")) {
        auto a = parse_ip_literal(host);
        if (!a || a->family != Family::ipv6)
            return bad(text, fmt::format("'{}' is not an IPv6 address", printable(host)));
        spec.address = *a;
    } else if (host == "dual") {
        spec.kind = ListenSpec::Kind::dual;
        spec.address.family = Family::ipv6; // [::]
    } else if (auto a = parse_ip_literal(host)) {
        spec.address = *a;
    } else if (std::all_of(host.begin(), host.end(),
                           [](char c) { return (c >= '0' && c <= '9') || c == '.'; })) {
        return bad(text, fmt::format("'{}' is not an IPv4 address", printable(host)));
    } else {
        if (host.size() > max_host_length || !std::all_of(host.begin(), host.end(), name_char))
            return bad(text, fmt::format("'{}' is not a host name", printable(host)));
        spec.kind = ListenSpec::Kind::name;
        spec.host = std::string(host);
    }
    spec.address.port = spec.port;
    return spec;
}

std::string listen_refusal(const ListenSpec& spec, const Address& a) {
    if (is_loopback(a))
        return {};
    if (spec.kind == ListenSpec::Kind::dual)
        return fmt::format("{} listens on [::], every interface of this machine; add --allow-any "
                           "to allow that",
                           spec.text);
    return fmt::format("{} is not a loopback address, so {} would be reachable from other "
                       "machines; add --allow-any to allow that",
                       ip_string(a), spec.text);
}

} // namespace loopcheck
