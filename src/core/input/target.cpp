// Parsing targets: host:port, [v6]:port, URLs, bare ports.
#include "loopcheck/core/input/target.hpp"

#include "loopcheck/core/text/text.hpp"
#include "loopcheck/core/text/untrusted.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <fmt/format.h>

namespace loopcheck {

namespace {

struct Scheme {
    std::string_view name;
    std::uint16_t port;
};
// Schemes whose default port a user may leave out. Others need ":PORT".
constexpr std::array<Scheme, 4> known_schemes{
    {{"http", 80}, {"https", 443}, {"ws", 80}, {"wss", 443}}};

/// The host and the port text of the authority, as written (without brackets).
struct HostPort {
    std::string_view host;
    std::string_view port_text;
    bool has_port = false; ///< a ':' follows the host, even with nothing after it
};

class Parser {
public:
    Parser(std::string_view input, Secrets secrets) : input_(input), secrets_(secrets) {}

    Result<Target> run();

private:
    Error fail(std::string_view why) const {
        return usage_error(fmt::format("invalid target '{}': {}",
                                       escape_nonprintable(redact_credentials(input_)), why));
    }
    Result<std::uint16_t> parse_port(std::string_view digits) const;
    std::optional<Error> parse_host_port(std::string_view hp, std::size_t offset, Target& t) const;
    /// "[V6]" or "[V6]:PORT": sets `t`'s host position and IPv6 literal.
    Result<HostPort> split_bracketed(std::string_view hp, std::size_t offset, Target& t) const;
    /// "HOST" or "HOST:PORT", a name or an IPv4 literal: sets `t`'s host
    /// position and IPv4 literal, and checks a name.
    Result<HostPort> split_plain(std::string_view hp, std::size_t offset, Target& t) const;
    /// Sets `t.port` from the port text, or from the scheme when there is none.
    std::optional<Error> set_port(std::string_view hp, const HostPort& split, Target& t) const;
    std::optional<Error> check_name(std::string_view host) const;

    std::string_view input_;
    Secrets secrets_;
};

Result<std::uint16_t> Parser::parse_port(std::string_view digits) const {
    if (digits.empty())
        return fail("missing port after ':'");
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return fail(fmt::format("port '{}' is not a number", escape_nonprintable(digits)));
    if (digits.size() > 5)
        return fail(fmt::format("port {} is out of range (1-65535)", escape_nonprintable(digits)));
    unsigned v = 0;
    for (char c : digits)
        v = v * 10 + static_cast<unsigned>(c - '0');
    if (v == 0)
        return fail("port 0 is not a valid port (1-65535)");
    if (v > 65535)
        return fail(fmt::format("port {} is out of range (1-65535)", v));
    return static_cast<std::uint16_t>(v);
}

std::optional<Error> Parser::check_name(std::string_view host) const {
    if (host.empty())
        return fail("empty host");
    if (host.size() > max_host_length)
        return fail(
            fmt::format("host name is {} bytes long (at most {})", host.size(), max_host_length));
    for (char c : host) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
        if (!ok)
            return fail(fmt::format("stray character '{}' in host '{}'",
                                    escape_nonprintable(std::string_view(&c, 1)),
                                    escape_nonprintable(redact_credentials(host))));
    }
    // Labels: not empty (except a single trailing dot), at most 63 bytes.
    std::string_view rest = host;
    if (rest.ends_with('.'))
        rest.remove_suffix(1);
    std::size_t start = 0;
    while (start <= rest.size()) {
        auto dot = rest.find('.', start);
        auto label = rest.substr(start, dot == std::string_view::npos ? rest.npos : dot - start);
        if (label.empty())
            return fail(fmt::format("empty label in host '{}'", escape_nonprintable(host)));
        if (label.size() > 63)
            return fail(fmt::format("label '{}...' is longer than 63 bytes",
                                    escape_nonprintable(label.substr(0, 16))));
        if (dot == std::string_view::npos)
            break;
        start = dot + 1;
    }
    // All digits and dots looks like IPv4; then it must be a valid one.
    if (std::all_of(host.begin(), host.end(),
                    [](char c) { return (c >= '0' && c <= '9') || c == '.'; }))
        return fail(fmt::format("'{}' is not a valid IPv4 address", escape_nonprintable(host)));
    return std::nullopt;
}

Result<HostPort> Parser::split_bracketed(std::string_view hp, std::size_t offset, Target& t) const {
    HostPort split;
    auto close = hp.find(']');
    if (close == std::string_view::npos)
        return fail("unbalanced brackets: '[' without ']'");
    split.host = hp.substr(1, close - 1);
    t.host_pos = offset;
    t.host_len = close + 1;
    auto after = hp.substr(close + 1);
    if (!after.empty()) {
        if (after.front() != ':')
            return fail(fmt::format("stray characters '{}' after ']'", escape_nonprintable(after)));
        split.has_port = true;
        split.port_text = after.substr(1);
    }
    if (split.host.empty())
        return fail("empty host inside brackets");
    auto lit = parse_ip_literal(split.host);
    if (!lit || lit->family != Family::ipv6)
        return fail(fmt::format("'{}' in brackets is not an IPv6 address",
                                escape_nonprintable(split.host)));
    t.literal = lit;
    return split;
}

Result<HostPort> Parser::split_plain(std::string_view hp, std::size_t offset, Target& t) const {
    HostPort split;
    if (hp.find(']') != std::string_view::npos)
        return fail("unbalanced brackets: ']' without '['");
    auto colons = std::count(hp.begin(), hp.end(), ':');
    if (colons > 1) {
        if (parse_ip_literal(hp))
            return fail(fmt::format("an IPv6 address needs brackets and a port: [{}]:PORT",
                                    escape_nonprintable(hp)));
        return fail("IPv6 addresses go in brackets: [::1]:PORT");
    }
    auto colon = hp.find(':');
    split.host = hp.substr(0, colon);
    if (colon != std::string_view::npos) {
        split.has_port = true;
        split.port_text = hp.substr(colon + 1);
        // A bad port is the likelier typo in ":80x" than the empty host.
        if (split.host.empty()) {
            auto port = parse_port(split.port_text);
            if (!port)
                return port.error();
        }
    }
    t.host_pos = offset;
    t.host_len = split.host.size();
    if (auto lit = parse_ip_literal(split.host); lit && lit->family == Family::ipv4)
        t.literal = lit;
    else if (auto err = check_name(split.host))
        return *err;
    return split;
}

std::optional<Error> Parser::set_port(std::string_view hp, const HostPort& split, Target& t) const {
    if (split.has_port) {
        auto port = parse_port(split.port_text);
        if (!port)
            return port.error();
        t.port = *port;
        return std::nullopt;
    }
    auto it = std::find_if(known_schemes.begin(), known_schemes.end(),
                           [&](const Scheme& s) { return s.name == t.scheme; });
    if (t.scheme.empty())
        return fail(fmt::format("no port (write {}:PORT)", escape_nonprintable(hp)));
    if (it == known_schemes.end())
        return fail(fmt::format("scheme '{}' has no default port; add :PORT", t.scheme));
    t.port = it->port;
    t.port_from_scheme = true;
    return std::nullopt;
}

// Three steps: split the host from the port text (the bracketed IPv6 form
// or the plain one), then the port, then the literal takes the port.
std::optional<Error> Parser::parse_host_port(std::string_view hp, std::size_t offset,
                                             Target& t) const {
    auto split = hp.starts_with('[') ? split_bracketed(hp, offset, t) : split_plain(hp, offset, t);
    if (!split)
        return split.error();
    t.host = std::string(split->host);
    if (auto err = set_port(hp, *split, t))
        return err;
    if (t.literal)
        t.literal->port = t.port;
    return std::nullopt;
}

/// The path and query after a URL's authority, as an HTTP request names
/// them ("/health?x=1"): "/" when there is none; the fragment never leaves
/// the client.
std::string request_path(std::string_view after_scheme) {
    const std::size_t end = after_scheme.find_first_of("/?#");
    if (end == std::string_view::npos)
        return "/";
    std::string_view path = after_scheme.substr(end);
    path = path.substr(0, path.find('#'));
    if (path.empty())
        return "/";
    std::string out;
    if (path.front() != '/')
        out += '/'; // "host:80?x=1": the query of the root
    out.append(path);
    return out;
}

Result<Target> Parser::run() {
    Target t;
    t.input = std::string(input_);
    if (input_.empty())
        return fail("empty target");
    // Reports echo the target as typed; a URL's path, query or fragment is
    // not checked below. A URL has no raw controls, bidi controls or
    // non-UTF-8 bytes (RFC 3986 percent-encodes them, RFC 3987 section 4.1
    // forbids bidi controls in IRIs), so none may reach a report this way.
    if (!is_terminal_safe(input_))
        return fail("control character, bidi control or invalid UTF-8");
    std::string_view rest = input_;
    std::size_t offset = 0;

    // A bare port, "11434" or ":11434", means localhost.
    auto port_only = rest.starts_with(':') ? rest.substr(1) : rest;
    if (!port_only.empty() && std::all_of(port_only.begin(), port_only.end(),
                                          [](char c) { return c >= '0' && c <= '9'; })) {
        auto port = parse_port(port_only);
        if (!port)
            return port.error();
        t.host = "localhost";
        t.port = *port;
        return t;
    }

    if (auto sep = rest.find("://"); sep != std::string_view::npos) {
        auto scheme = rest.substr(0, sep);
        const bool valid = !scheme.empty() && std::isalpha(static_cast<unsigned char>(scheme[0])) &&
                           std::all_of(scheme.begin(), scheme.end(), [](char c) {
                               return std::isalnum(static_cast<unsigned char>(c)) || c == '+' ||
                                      c == '-' || c == '.';
                           });
        if (!valid)
            return fail(fmt::format("'{}' is not a URL scheme", escape_nonprintable(scheme)));
        for (char c : scheme)
            t.scheme += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        offset = sep + 3;
        rest = rest.substr(offset);
        // The authority ends at the path, query or fragment; what follows is
        // kept for wait's GET only.
        t.path = request_path(rest);
        rest = rest.substr(0, rest.find_first_of("/?#"));
        // Userinfo ("user:pass@") is ignored; the last '@' ends it.
        if (auto at = rest.rfind('@'); at != std::string_view::npos) {
            offset += at + 1;
            rest = rest.substr(at + 1);
        }
        if (rest.empty())
            return fail("empty host");
    } else {
        // "localhost:18434/v1", a URL without its scheme (as copied from a
        // config value or a log line): the path, query or fragment is kept
        // in `input`, so a fix rewrites only the host, and is ignored here.
        t.path = request_path(rest);
        rest = rest.substr(0, rest.find_first_of("/?#"));
    }
    if (auto err = parse_host_port(rest, offset, t))
        return *err;
    // Userinfo is redacted before and after the host on their own: the
    // host moves only by what went before it, and a URL in the path (as in
    // "http://lo/x?u=http://user:pw@h") is redacted without moving it.
    // The query's and fragment's values go too ("/lab?token=...", what
    // Jupyter prints): the connect never needs them.
    if (secrets_ == Secrets::keep)
        return t;
    const std::string_view whole = t.input;
    std::string head = redact_userinfo(whole.substr(0, t.host_pos), &t.userinfo_redacted);
    const std::string tail =
        redact_query(redact_userinfo(whole.substr(t.host_pos), &t.userinfo_redacted), &t.redacted);
    t.redacted.userinfo = t.userinfo_redacted;
    t.host_pos = head.size();
    t.input = std::move(head) + tail;
    return t;
}

} // namespace

std::string redact_userinfo(std::string_view text, bool* redacted) {
    std::string out;
    std::size_t pos = 0;
    for (std::size_t sep = text.find("://"); sep != std::string_view::npos;
         sep = text.find("://", pos)) {
        const std::size_t start = sep + 3;
        const std::size_t end = std::min(text.find_first_of("/?#", start), text.size());
        const std::size_t at = text.substr(start, end - start).rfind('@');
        out.append(text.substr(pos, start - pos));
        pos = start;
        if (at == std::string_view::npos)
            continue;
        out += "***@";
        pos = start + at + 1;
        if (redacted != nullptr)
            *redacted = true;
    }
    out.append(text.substr(pos));
    return out;
}

std::optional<std::string> meant_local_name(std::string_view host) {
    constexpr std::string_view local = "localhost";
    std::string lower;
    for (char c : host)
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.ends_with('.'))
        lower.pop_back();
    const std::size_t d = edit_distance(lower, local);
    if (d == 0 || d > 2)
        return std::nullopt;
    return std::string(local);
}

std::string redact_credentials(std::string_view text) {
    // Word by word: an error line quotes a word between spaces or quotes.
    // Nothing loopcheck accepts has an '@' before its path but userinfo
    // (a lone '@' is the stray character a message names).
    std::string out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = std::min(text.find_first_of(" '\"", pos), text.size());
        const std::string_view word = text.substr(pos, end - pos);
        if (word.find("://") != std::string_view::npos) {
            out += redact_userinfo(word);
        } else if (const auto at = word.substr(0, word.find_first_of("/?#")).rfind('@');
                   at != std::string_view::npos && at > 0) {
            out += "***@";
            out += word.substr(at + 1);
        } else {
            out += word;
        }
        if (end < text.size())
            out += text[end];
        pos = end + 1;
    }
    // ...and a URL's query values, credential-named values (a quoted
    // "--token=..." or "TOKEN=..." in a message).
    return redact_line(out);
}

Result<Target> parse_target(std::string_view text, Secrets secrets) {
    return Parser(text, secrets).run();
}

Target name_target(std::string_view name, std::uint16_t port) {
    Target t;
    t.input = fmt::format("{}:{}", name, port);
    t.host = std::string(name);
    t.port = port;
    t.host_len = name.size();
    return t;
}

Target address_target(const Address& address) {
    Target t;
    t.input = endpoint_string(address);
    t.host = ip_string(address);
    t.port = address.port;
    t.literal = address;
    t.host_len = address.family == Family::ipv6 ? t.host.size() + 2 : t.host.size();
    return t;
}

std::string rewrite_host(const Target& t, const Address& to) {
    const std::string host =
        to.family == Family::ipv6 ? fmt::format("[{}]", ip_string(to)) : ip_string(to);
    if (t.host_len == 0)
        return fmt::format("{}:{}", host, t.port);
    std::string out = t.input;
    out.replace(t.host_pos, t.host_len, host);
    return out;
}

} // namespace loopcheck
