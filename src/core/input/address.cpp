// IP addresses and ports as bytes: literals parsed, RFC 5952 text forms, loopback tests.
#include "loopcheck/core/input/address.hpp"

#include "loopcheck/core/text/text.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <fmt/format.h>

namespace loopcheck {

std::string_view family_name(Family f) noexcept {
    return f == Family::ipv4 ? "ipv4" : "ipv6";
}

namespace {

std::uint16_t word_at(const Address& a, int i) {
    return static_cast<std::uint16_t>((a.bytes[2 * i] << 8) | a.bytes[2 * i + 1]);
}

std::string ipv6_string(const Address& a) {
    // RFC 5952 section 5: a v4-mapped address keeps its IPv4 part dotted.
    const bool mapped =
        std::all_of(a.bytes.begin(), a.bytes.begin() + 10, [](std::uint8_t b) { return b == 0; }) &&
        a.bytes[10] == 0xff && a.bytes[11] == 0xff;
    if (mapped && a.scope_id == 0)
        return fmt::format("::ffff:{}.{}.{}.{}", a.bytes[12], a.bytes[13], a.bytes[14],
                           a.bytes[15]);
    // RFC 5952 section 4.2: compress the longest run of two or more zero
    // words (the first one on a tie) and nothing else.
    int best_start = -1, best_len = 0;
    for (int i = 0; i < 8;) {
        if (word_at(a, i) != 0) {
            ++i;
            continue;
        }
        int j = i;
        while (j < 8 && word_at(a, j) == 0)
            ++j;
        if (j - i > best_len && j - i >= 2) {
            best_start = i;
            best_len = j - i;
        }
        i = j;
    }
    std::string out;
    for (int i = 0; i < 8; ++i) {
        if (i == best_start) {
            out += "::";
            i += best_len - 1;
            continue;
        }
        if (!out.empty() && out.back() != ':')
            out += ':';
        out += fmt::format("{:x}", word_at(a, i));
    }
    if (a.scope_id != 0)
        out += fmt::format("%{}", a.scope_id);
    return out;
}

std::optional<std::array<std::uint8_t, 4>> parse_ipv4_bytes(std::string_view s) {
    std::array<std::uint8_t, 4> out{};
    for (int part = 0; part < 4; ++part) {
        if (part > 0) {
            if (s.empty() || s.front() != '.')
                return std::nullopt;
            s.remove_prefix(1);
        }
        std::size_t n = 0;
        while (n < s.size() && n < 4 && s[n] >= '0' && s[n] <= '9')
            ++n;
        // One to three digits, no leading zero (which some parsers read as octal).
        if (n == 0 || n > 3 || (n > 1 && s[0] == '0'))
            return std::nullopt;
        unsigned v = 0;
        std::from_chars(s.data(), s.data() + n, v);
        if (v > 255)
            return std::nullopt;
        out[part] = static_cast<std::uint8_t>(v);
        s.remove_prefix(n);
    }
    if (!s.empty())
        return std::nullopt;
    return out;
}

/// Takes a "%ZONE" suffix off `s` into `a.scope_id`; false when the zone is
/// not a decimal number that fits 32 bits. The zone goes first: the words
/// before it are read on their own.
bool take_ipv6_zone(std::string_view& s, Address& a) {
    if (auto pct = s.find('%'); pct != std::string_view::npos) {
        auto zone = s.substr(pct + 1);
        std::uint32_t id = 0;
        auto [p, ec] = std::from_chars(zone.data(), zone.data() + zone.size(), id);
        if (zone.empty() || ec != std::errc{} || p != zone.data() + zone.size())
            return false;
        a.scope_id = id;
        s = s.substr(0, pct);
    }
    return true;
}

/// One to four hex digits, the text of one 16-bit word.
std::optional<std::uint16_t> parse_hex_word(std::string_view piece) {
    if (piece.empty() || piece.size() > 4)
        return std::nullopt;
    unsigned v = 0;
    for (char c : piece) {
        int h = hex_digit_value(c);
        if (h < 0)
            return std::nullopt;
        v = v * 16 + static_cast<unsigned>(h);
    }
    return static_cast<std::uint16_t>(v);
}

/// The words of an IPv6 literal as written, before "::" is expanded.
struct Ipv6Words {
    std::array<std::uint16_t, 8> words{};
    int count = 0; ///< words written
    int gap = -1;  ///< how many words come before "::"; -1 when there is none
};

/// Reads the colon-separated words of `s` (no zone), with at most one "::"
/// and an optional IPv4 tail. The count is checked by the caller, which
/// knows whether a "::" stands for the missing words.
std::optional<Ipv6Words> parse_ipv6_words(std::string_view s) {
    Ipv6Words w;
    if (s.starts_with("::")) {
        w.gap = 0;
        s.remove_prefix(2);
    } else if (s.starts_with(":")) {
        return std::nullopt;
    }
    while (!s.empty()) {
        if (w.count == 8)
            return std::nullopt;
        // An embedded IPv4 tail ("::ffff:127.0.0.1") fills the last two words.
        auto colon = s.find(':');
        auto piece = s.substr(0, colon);
        if (colon == std::string_view::npos && piece.find('.') != std::string_view::npos) {
            auto v4 = parse_ipv4_bytes(piece);
            if (!v4 || w.count > 6)
                return std::nullopt;
            w.words[w.count++] = static_cast<std::uint16_t>(((*v4)[0] << 8) | (*v4)[1]);
            w.words[w.count++] = static_cast<std::uint16_t>(((*v4)[2] << 8) | (*v4)[3]);
            break;
        }
        auto word = parse_hex_word(piece);
        if (!word)
            return std::nullopt;
        w.words[w.count++] = *word;
        if (colon == std::string_view::npos)
            break;
        s.remove_prefix(colon + 1);
        if (s.starts_with(":")) {
            if (w.gap >= 0)
                return std::nullopt; // a second "::"
            w.gap = w.count;
            s.remove_prefix(1);
        } else if (s.empty()) {
            return std::nullopt; // trailing single ':'
        }
    }
    return w;
}

/// Writes the eight words into `a.bytes`, zeros standing where "::" was.
void put_ipv6_words(const Ipv6Words& w, Address& a) {
    std::array<std::uint16_t, 8> full{};
    if (w.gap < 0) {
        full = w.words;
    } else {
        int tail = w.count - w.gap;
        for (int i = 0; i < w.gap; ++i)
            full[i] = w.words[i];
        for (int i = 0; i < tail; ++i)
            full[8 - tail + i] = w.words[w.gap + i];
    }
    for (int i = 0; i < 8; ++i) {
        a.bytes[2 * i] = static_cast<std::uint8_t>(full[i] >> 8);
        a.bytes[2 * i + 1] = static_cast<std::uint8_t>(full[i] & 0xff);
    }
}

std::optional<Address> parse_ipv6(std::string_view s) {
    Address a;
    a.family = Family::ipv6;
    if (!take_ipv6_zone(s, a))
        return std::nullopt;
    const auto w = parse_ipv6_words(s);
    if (!w)
        return std::nullopt;
    // Eight words, or fewer and a "::" that stands for at least one.
    if (w->gap < 0 && w->count != 8)
        return std::nullopt;
    if (w->gap >= 0 && w->count > 7)
        return std::nullopt;
    put_ipv6_words(*w, a);
    return a;
}

} // namespace

std::string ip_string(const Address& a) {
    if (a.family == Family::ipv4)
        return fmt::format("{}.{}.{}.{}", a.bytes[0], a.bytes[1], a.bytes[2], a.bytes[3]);
    return ipv6_string(a);
}

std::string endpoint_string(const Address& a) {
    if (a.family == Family::ipv4)
        return fmt::format("{}:{}", ip_string(a), a.port);
    return fmt::format("[{}]:{}", ip_string(a), a.port);
}

bool is_loopback(const Address& a) noexcept {
    if (a.family == Family::ipv4)
        return a.bytes[0] == 127;
    for (int i = 0; i < 15; ++i)
        if (a.bytes[i] != 0)
            return false;
    return a.bytes[15] == 1;
}

bool is_unspecified(const Address& a) noexcept {
    const int n = a.family == Family::ipv4 ? 4 : 16;
    for (int i = 0; i < n; ++i)
        if (a.bytes[i] != 0)
            return false;
    return true;
}

std::optional<Address> parse_ip_literal(std::string_view text) {
    if (text.find(':') != std::string_view::npos)
        return parse_ipv6(text);
    auto v4 = parse_ipv4_bytes(text);
    if (!v4)
        return std::nullopt;
    Address a;
    a.family = Family::ipv4;
    for (int i = 0; i < 4; ++i)
        a.bytes[i] = (*v4)[i];
    return a;
}

Address make_ipv4(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d,
                  std::uint16_t port) {
    Address out;
    out.family = Family::ipv4;
    out.bytes[0] = a;
    out.bytes[1] = b;
    out.bytes[2] = c;
    out.bytes[3] = d;
    out.port = port;
    return out;
}

Address ipv6_loopback(std::uint16_t port) {
    Address out;
    out.family = Family::ipv6;
    out.bytes[15] = 1;
    out.port = port;
    return out;
}

} // namespace loopcheck
