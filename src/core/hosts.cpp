#include "loopcheck/core/hosts.hpp"

#include "loopcheck/core/address.hpp"
#include "loopcheck/core/text.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

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

std::vector<HostsLine> hosts_lines_for(std::string_view content, std::string_view name) {
    std::vector<HostsLine> out;
    int number = 0;
    std::size_t pos = 0;
    while (pos < content.size()) {
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
        // An entry is an address followed by one or more names.
        if (f.size() < 2)
            continue;
        if (std::none_of(f.begin() + 1, f.end(), [&](auto n) { return same_name(n, name); }))
            continue;
        std::string text;
        for (auto piece : f) {
            if (!text.empty())
                text += ' ';
            text += piece;
        }
        const auto address = parse_ip_literal(f.front());
        out.push_back(
            {number, std::move(text), address ? std::optional(address->family) : std::nullopt});
    }
    return out;
}

std::string resolution_note(Os os, std::string_view name,
                            const std::vector<HostsLine>& lines) {
    const bool is_localhost = same_name(name, "localhost");
    if (os == Os::windows && is_localhost && lines.empty())
        return "Windows answers 'localhost' itself (its hosts file entries for it are commented "
               "out since Windows 7) and puts ::1 before 127.0.0.1: the prefix policy table "
               "gives ::1 precedence 50 and IPv4 35.";
    if (os == Os::windows)
        return "Windows sorts the addresses by its prefix policy table (netsh interface ipv6 "
               "show prefixpolicies), which puts ::1 before 127.0.0.1.";
    if (lines.empty())
        return "No hosts file entry lists this name; the order is the resolver's (DNS or "
               "another source).";
    bool v4 = false, v6 = false;
    for (const auto& l : lines)
        if (l.family)
            (*l.family == Family::ipv4 ? v4 : v6) = true;
    if (v4 && v6)
        return "getaddrinfo sorts what the hosts file lists by RFC 6724 (gai.conf on glibc), "
               "which puts ::1 before 127.0.0.1.";
    if (v4)
        return "The hosts file lists only IPv4 addresses for this name, so clients here never "
               "try IPv6 for it.";
    if (v6)
        return "The hosts file lists only IPv6 addresses for this name, so clients here never "
               "try IPv4 for it.";
    return "";
}

} // namespace loopcheck
