// The diagnosis's words when the listener table is known.
#include "core/diagnose_listeners.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck::listener_words {

namespace {

/// The listener a client should be sent to: one on a loopback or wildcard
/// address if there is one.
const Listener& preferred(std::span<const Listener> port_listeners) {
    auto it = std::find_if(port_listeners.begin(), port_listeners.end(),
                           [](const Listener& l) { return loopback_reachable(l); });
    return it != port_listeners.end() ? *it : port_listeners.front();
}

std::vector<std::string> tried_ips(std::span<const Observation> obs) {
    std::vector<std::string> out;
    for (const auto& o : obs)
        out.push_back(ip_string(o.address));
    return out;
}

} // namespace

std::string single_stack(std::span<const Listener> port_listeners, const Target& target,
                         std::span<const Observation> obs, Family served) {
    const auto& first = obs.front().address;
    std::string message = fmt::format("{} only", describe_listening(port_listeners));
    if (first.family != served)
        return message + fmt::format("; {} resolves to {} first.", target.host, ip_string(first));
    std::vector<std::string> others;
    for (const auto& o : obs)
        if (o.address.family != served)
            others.push_back(ip_string(o.address));
    return message +
           fmt::format(", while {} also resolves to {}.", target.host, fmt::join(others, ", "));
}

std::optional<Finding> elsewhere(std::span<const Listener> port_listeners, const Target& target,
                                 std::span<const Observation> obs, bool expect_refused) {
    if (port_listeners.empty())
        return std::nullopt;
    // A listener at an address that timed out is a full queue, not a
    // mismatch; a refusal settles an unknown V6ONLY flag (Windows' tables
    // do not carry it).
    for (const auto& o : obs) {
        for (const auto& l : port_listeners) {
            const auto r = reaches(l, o.address);
            if (r == true || (!r && o.summary.outcome != Outcome::refused))
                return std::nullopt;
        }
    }
    const bool ipv4_tried = std::any_of(obs.begin(), obs.end(), [](const Observation& o) {
        return o.address.family == Family::ipv4;
    });
    std::string message = fmt::format(
        "{}, which {} does not reach: it {} {}.", describe_listening(port_listeners), target.input,
        target.literal ? "is" : "resolves to", fmt::join(tried_ips(obs), ", "));
    const bool v6only_wildcard =
        std::any_of(port_listeners.begin(), port_listeners.end(), [](const Listener& l) {
            return l.bound.family == Family::ipv6 && is_unspecified(l.bound) && l.v6only == true;
        });
    if (ipv4_tried && v6only_wildcard)
        message += " The [::] socket has IPV6_V6ONLY on, so it takes no IPv4 connects.";
    return Finding{std::string(finding_id::listener_elsewhere),
                   expect_refused ? Severity::info : Severity::error, "", std::move(message),
                   connect_address(preferred(port_listeners))};
}

std::vector<std::string> elsewhere_fixes(std::span<const Listener> port_listeners,
                                         const Target& target, std::span<const Observation> obs,
                                         std::string& rewritten) {
    const Listener& l = preferred(port_listeners);
    rewritten = rewrite_host(target, connect_address(l));
    return {fmt::format("Connect to {} instead of {}: {} listens on {}.", rewritten, target.input,
                        owner_string(l), bound_string(l)),
            fmt::format("Or make {} listen on {} as well.",
                        l.process.empty() ? std::string("the server") : l.process.escaped(),
                        fmt::join(tried_ips(obs), " and "))};
}

std::string full_queue(const Observation& o, const Listener& l, Micros timeout) {
    return fmt::format("{} did not answer within {}, though {} listens on {}: its accept queue "
                       "is full (the process is not accepting connections) or a firewall drops "
                       "the SYN; this is not a refusal.",
                       endpoint_string(o.address), format_duration(timeout), owner_string(l),
                       bound_string(l));
}

} // namespace loopcheck::listener_words
