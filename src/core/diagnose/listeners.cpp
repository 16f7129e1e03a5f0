// The diagnosis's facts when the listener table is known.
#include "core/diagnose/listeners.hpp"

#include <algorithm>

namespace loopcheck::listener_words {

namespace {

/// The listener a client should be sent to: one on a loopback or wildcard
/// address if there is one.
const Listener& preferred(std::span<const Listener> port_listeners) {
    auto it = std::find_if(port_listeners.begin(), port_listeners.end(),
                           [](const Listener& l) { return loopback_reachable(l); });
    return it != port_listeners.end() ? *it : port_listeners.front();
}

std::vector<Address> tried_addresses(std::span<const Observation> obs) {
    std::vector<Address> out;
    for (const auto& o : obs)
        out.push_back(o.address);
    return out;
}

} // namespace

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
    const bool v6only_wildcard =
        std::any_of(port_listeners.begin(), port_listeners.end(), [](const Listener& l) {
            return l.bound.family == Family::ipv6 && is_unspecified(l.bound) && l.v6only == true;
        });
    return Finding{std::string(finding_id::listener_elsewhere),
                   expect_refused ? Severity::info : Severity::error, "",
                   facts::ListenerElsewhere{{port_listeners.begin(), port_listeners.end()},
                                            target.input,
                                            target.literal.has_value(),
                                            tried_addresses(obs),
                                            ipv4_tried && v6only_wildcard},
                   connect_address(preferred(port_listeners))};
}

std::vector<facts::Fix> elsewhere_fixes(std::span<const Listener> port_listeners,
                                        const Target& target, std::span<const Observation> obs,
                                        std::string& rewritten) {
    const Listener& l = preferred(port_listeners);
    rewritten = rewrite_host(target, connect_address(l));
    return {facts::ConnectInstead{rewritten, target.input, l},
            facts::ListenOnTried{l, tried_addresses(obs)}};
}

} // namespace loopcheck::listener_words
