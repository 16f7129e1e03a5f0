// Reading the hosts file's lines for a name; the resolution note.
#include "loopcheck/core/input/hosts.hpp"

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/text/text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>

namespace loopcheck {

namespace {

bool same_name(std::string_view a, std::string_view b) {
    if (a.ends_with('.'))
        a.remove_suffix(1);
    if (b.ends_with('.'))
        b.remove_suffix(1);
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t')
            ++j;
        if (j > i)
            out.push_back(line.substr(i, j - i));
        i = j;
    }
    return out;
}

} // namespace

namespace {

/// The lines of a hosts-style file (one entry a line, `#` starts a
/// comment, CRLF allowed) that `keep(fields)` keeps, at most `most`, each
/// with its fields joined by one space and the address family `keep`
/// returned; `keep` returns nullopt to pass a line over.
template <class Keep>
std::vector<HostsLine> config_lines(std::string_view content, std::size_t most, Keep keep) {
    std::vector<HostsLine> out;
    int number = 0;
    std::size_t pos = 0;
    while (pos < content.size() && out.size() < most) {
        auto end = content.find('\n', pos);
        if (end == std::string_view::npos)
            end = content.size();
        auto line = content.substr(pos, end - pos);
        pos = end + 1;
        ++number;
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        line = line.substr(0, line.find('#'));
        const auto f = fields(line);
        std::optional<std::optional<Family>> kept = keep(f);
        if (!kept)
            continue;
        std::string text;
        for (auto piece : f) {
            if (!text.empty())
                text += ' ';
            text += piece;
        }
        out.push_back({number, std::move(text), *kept});
    }
    return out;
}

} // namespace

std::vector<HostsLine> hosts_lines_for(std::string_view content, std::string_view name) {
    return config_lines(
        content, SIZE_MAX, [&](const auto& f) -> std::optional<std::optional<Family>> {
            // An entry is an address followed by one or more names.
            if (f.size() < 2 ||
                std::none_of(f.begin() + 1, f.end(), [&](auto n) { return same_name(n, name); }))
                return std::nullopt;
            const auto address = parse_ip_literal(f.front());
            return address ? std::optional(address->family) : std::nullopt;
        });
}

std::vector<HostsLine> gai_conf_rules(std::string_view content) {
    return config_lines(content, 64, [](const auto& f) -> std::optional<std::optional<Family>> {
        // The rules that change RFC 6724's ranking (gai.conf(5)).
        if (f.empty() ||
            (f.front() != "precedence" && f.front() != "label" && f.front() != "scopev4"))
            return std::nullopt;
        return std::optional<Family>{};
    });
}

namespace {

/// "puts 127.0.0.1 before ::1" from the order observed: the first address,
/// and the first one of the other family when there is one.
std::string order_words(std::span<const Address> order) {
    if (order.empty())
        return {};
    const auto other = std::find_if(order.begin(), order.end(), [&](const Address& a) {
        return a.family != order.front().family;
    });
    if (other == order.end())
        return fmt::format("gives {} first", ip_string(order.front()));
    return fmt::format("puts {} before {}", ip_string(order.front()), ip_string(*other));
}

/// The note on Windows, which reads no gai.conf: Windows answers 'localhost'
/// itself when the hosts file does not list it (`listed`), and sorts every
/// other answer by its prefix policy table.
std::string windows_note(bool is_localhost, bool listed, std::span<const Address> order) {
    const auto put = order_words(order);
    const bool ipv6_first = !order.empty() && order.front().family == Family::ipv6;
    if (is_localhost && !listed) {
        if (order.empty() || ipv6_first)
            return "Windows answers 'localhost' itself (its hosts file entries for it are "
                   "commented out since Windows 7) and puts ::1 before 127.0.0.1: the prefix "
                   "policy table gives ::1 precedence 50 and IPv4 35.";
        return fmt::format("Windows answers 'localhost' itself (its hosts file entries for it are "
                           "commented out since Windows 7) and here {}: the prefix policy table "
                           "was changed (netsh interface ipv6 show prefixpolicies).",
                           put);
    }
    return put.empty() ? "Windows sorts the addresses by its prefix policy table (netsh "
                         "interface ipv6 show prefixpolicies)."
                       : fmt::format("Windows sorts the addresses by its prefix policy table "
                                     "(netsh interface ipv6 show prefixpolicies), which {} "
                                     "here.",
                                     put);
}

/// " with /etc/gai.conf's rules (line N: TEXT; ...)", or empty when there are
/// none. gai.conf rules, when any, are what moved the order off RFC 6724's
/// defaults: the note names them with the order they produced.
std::string gai_rules_words(const std::vector<HostsLine>& gai_rules) {
    if (gai_rules.empty())
        return {};
    std::vector<std::string> parts;
    for (const auto& r : gai_rules)
        parts.push_back(fmt::format("line {}: {}", r.number, r.text.escaped()));
    return fmt::format(" with /etc/gai.conf's rules ({})", fmt::join(parts, "; "));
}

} // namespace

std::string resolution_note(Os os, std::string_view name, const std::vector<HostsLine>& lines,
                            std::span<const Address> order,
                            const std::vector<HostsLine>& gai_rules) {
    const bool is_localhost = same_name(name, "localhost");
    if (os == Os::windows)
        return windows_note(is_localhost, !lines.empty(), order);
    const auto put = order_words(order);
    std::string rules = gai_rules_words(gai_rules);
    if (lines.empty())
        return put.empty() ? "No hosts file entry lists this name; the order is the resolver's "
                             "(DNS or another source)."
                           : fmt::format("No hosts file entry lists this name; the resolver (DNS "
                                         "or another source){} {}.",
                                         rules, put);
    bool v4 = false, v6 = false;
    for (const auto& l : lines)
        if (l.family)
            (*l.family == Family::ipv4 ? v4 : v6) = true;
    if (v4 && v6) {
        if (put.empty())
            return "getaddrinfo sorts what the hosts file lists by RFC 6724 (gai.conf on glibc).";
        // Only glibc reads gai.conf: elsewhere there is no rule to name.
        if (rules.empty() && os == Os::linux_)
            rules = " (/etc/gai.conf changes none of its default ranking)";
        return fmt::format("getaddrinfo sorts what the hosts file lists by RFC 6724{}, which {}.",
                           rules, put);
    }
    // curl >= 7.78 does not ask the resolver for localhost (lib/hostip.c).
    const std::string curl =
        is_localhost || (name.size() > 10 && same_name(name.substr(name.size() - 10), ".localhost"))
            ? " (curl 7.78 and later answers localhost itself with 127.0.0.1 "
              "and ::1 whatever the hosts file says: loopcheck probes the other "
              "one too, for the curl rows.)"
            : "";
    if (v4)
        return "The hosts file lists only IPv4 addresses for this name, so clients that ask the "
               "resolver never try IPv6 for it." +
               curl;
    if (v6)
        return "The hosts file lists only IPv6 addresses for this name, so clients that ask the "
               "resolver never try IPv4 for it." +
               curl;
    return "";
}

} // namespace loopcheck
