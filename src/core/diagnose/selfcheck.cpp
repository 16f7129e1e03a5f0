// The self-check's plain-language statements.
#include "loopcheck/core/diagnose/selfcheck.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

namespace {

std::string refusal_sentence(const TargetReport& t, std::string_view label, Micros threshold) {
    if (t.addresses.empty())
        return fmt::format("A closed port on {} could not be probed.", label);
    const auto& s = t.addresses.front().summary;
    if (s.outcome != Outcome::refused)
        return fmt::format("A connect to a closed port on {} ended {} ({}) instead of being "
                           "refused.",
                           label, outcome_name(s.outcome), s.native_name);
    std::string line = fmt::format("A refused connect to {} takes {}: {}.", label,
                                   format_duration(s.latency.median),
                                   s.latency.median <= threshold ? "fast" : "SLOW");
    if (s.fast_latency)
        line += fmt::format(" Without SYN retransmissions it takes {}.",
                            format_duration(s.fast_latency->median));
    return line;
}

} // namespace

std::vector<std::string> self_check_statements(const TargetReport& localhost,
                                               const TargetReport& closed_v4,
                                               const TargetReport* closed_v6, Micros threshold,
                                               std::string_view hosts_file) {
    std::vector<std::string> out;
    if (localhost.resolve_error) {
        out.push_back(
            fmt::format("localhost does not resolve here: {}.", localhost.resolve_error->message));
        // The usual cause: a bare root or container image without a hosts
        // file, where the resolver has nowhere else to find localhost.
        if (localhost.resolution && !localhost.resolution->hosts_file_readable)
            out.push_back(fmt::format("The hosts file {} is missing or cannot be read; a standard "
                                      "one maps localhost to 127.0.0.1 and ::1.",
                                      hosts_file));
        else if (localhost.resolution && localhost.resolution->hosts_lines.empty())
            out.push_back(fmt::format("The hosts file {} has no line for localhost; a standard "
                                      "one maps localhost to 127.0.0.1 and ::1.",
                                      hosts_file));
    } else if (!localhost.addresses.empty()) {
        std::vector<std::string> ips;
        for (const auto& a : localhost.addresses)
            ips.push_back(ip_string(a.address));
        const bool v6_first = localhost.addresses.front().address.family == Family::ipv6;
        const bool has_v6 = std::any_of(localhost.addresses.begin(), localhost.addresses.end(),
                                        [](auto& a) { return a.address.family == Family::ipv6; });
        out.push_back(
            fmt::format("localhost resolves to {}{}: {}.", fmt::join(ips, ", "),
                        ips.size() == 1 ? " only" : ", in that order",
                        v6_first ? "IPv6 first, as on Windows"
                        : has_v6 ? "IPv4 first, so clients reach a 127.0.0.1-only server at once"
                                 : "IPv4 only, so clients never try ::1"));
    }
    out.push_back(refusal_sentence(closed_v4, "127.0.0.1", threshold));
    if (closed_v6)
        out.push_back(refusal_sentence(*closed_v6, "::1", threshold));
    else
        out.push_back("IPv6 loopback (::1) is not available here.");

    // What a sequential client (Python, .NET) pays for a 127.0.0.1-only server.
    for (const auto& c : localhost.diagnosis.clients) {
        if (c.algorithm != "sequential")
            continue;
        const auto& p = c.prediction;
        if (!p.connected) {
            out.push_back("Python and .NET, which try localhost's addresses in order, did not "
                          "reach a 127.0.0.1-only server.");
        } else {
            const bool slow = p.time > threshold;
            out.push_back(
                fmt::format("So Python and .NET, which try localhost's addresses in order, reach a "
                            "127.0.0.1-only server in {}: {}.",
                            format_duration(p.time),
                            slow ? "it pays a fallback penalty on every new connection"
                                 : "no fallback penalty on this machine"));
        }
        break;
    }
    return out;
}

} // namespace loopcheck
