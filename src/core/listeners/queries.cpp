// Which listener a connect reaches, who owns it, how to name it.
#include "loopcheck/core/listeners/queries.hpp"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <tuple>

namespace loopcheck {

namespace {

/// ::ffff:a.b.c.d as the IPv4 address it carries; anything else unchanged.
Address unmapped(const Address& a) {
    if (a.family != Family::ipv6)
        return a;
    for (int i = 0; i < 10; ++i)
        if (a.bytes[i] != 0)
            return a;
    if (a.bytes[10] != 0xff || a.bytes[11] != 0xff)
        return a;
    return make_ipv4(a.bytes[12], a.bytes[13], a.bytes[14], a.bytes[15], a.port);
}

bool same_ip(const Address& a, const Address& b) {
    if (a.family != b.family)
        return false;
    const int n = a.family == Family::ipv4 ? 4 : 16;
    return std::equal(a.bytes.begin(), a.bytes.begin() + n, b.bytes.begin());
}

Address loopback_of(Family f, std::uint16_t port) {
    return f == Family::ipv4 ? make_ipv4(127, 0, 0, 1, port) : ipv6_loopback(port);
}

} // namespace

std::optional<bool> reaches(const Listener& l, const Address& to) {
    if (l.bound.port != to.port)
        return false;
    const Address dest = unmapped(to);
    const Address bound = unmapped(l.bound);
    if (same_ip(bound, dest))
        return true;
    if (!is_unspecified(l.bound))
        return false;
    if (l.bound.family == dest.family)
        return true;
    // A wildcard IPv6 socket takes IPv4 connects unless IPV6_V6ONLY is set
    // (ipv6(7); Windows' dual-stack-sockets docs). An IPv4 socket never
    // takes IPv6 connects.
    if (l.bound.family == Family::ipv6 && dest.family == Family::ipv4) {
        if (!l.v6only)
            return std::nullopt;
        return !*l.v6only;
    }
    return false;
}

const Listener* serving(std::span<const Listener> listeners, const Address& to) {
    const Listener* wildcard = nullptr;
    for (const auto& l : listeners) {
        if (reaches(l, to) != true)
            continue;
        if (!is_unspecified(l.bound))
            return &l;
        if (!wildcard)
            wildcard = &l;
    }
    return wildcard;
}

bool loopback_reachable(const Listener& l) noexcept {
    const Address a = unmapped(l.bound);
    return is_loopback(a) || is_unspecified(a);
}

std::optional<bool> serves_loopback(const Listener& l, Family f) {
    return reaches(l, loopback_of(f, l.bound.port));
}

std::optional<bool> port_serves_loopback(std::span<const Listener> listeners, Family f) {
    bool maybe = false;
    for (const auto& l : listeners) {
        const auto r = serves_loopback(l, f);
        if (r == true)
            return true;
        maybe = maybe || !r;
    }
    if (maybe)
        return std::nullopt;
    return false;
}

std::string owner_string(const Listener& l) {
    if (l.pid && !l.process.empty())
        return fmt::format("{} (pid {})", l.process.escaped(), *l.pid);
    if (l.pid)
        return fmt::format("pid {}", *l.pid);
    // As root every process here is visible: the owner is elsewhere, and
    // "this user cannot see" would send a root user looking for sudo.
    if (l.uid && l.owner_outside_pid_namespace)
        return fmt::format("an owner of uid {} outside this PID namespace", *l.uid);
    if (l.uid)
        return fmt::format("a process of uid {} this user cannot see", *l.uid);
    return "a process not visible here";
}

std::string bound_string(const Listener& l) {
    std::string s = endpoint_string(l.bound);
    if (l.bound.family == Family::ipv6 && is_unspecified(l.bound) && l.v6only)
        s += *l.v6only ? " (IPV6_V6ONLY on)" : " (IPV6_V6ONLY off)";
    return s;
}

std::string describe_listening(std::span<const Listener> listeners) {
    // Group the bound addresses by owner, in the order owners first appear.
    std::vector<std::pair<std::string, std::vector<std::string>>> owners;
    for (const auto& l : listeners) {
        auto owner = owner_string(l);
        auto it = std::find_if(owners.begin(), owners.end(),
                               [&](const auto& o) { return o.first == owner; });
        if (it == owners.end())
            owners.push_back({std::move(owner), {bound_string(l)}});
        else
            it->second.push_back(bound_string(l));
    }
    std::string out;
    for (const auto& [owner, binds] : owners) {
        if (!out.empty())
            out += "; ";
        out += fmt::format("{} listens on ", owner);
        for (std::size_t i = 0; i < binds.size(); ++i) {
            if (i > 0)
                out += i + 1 == binds.size() ? " and " : ", ";
            out += binds[i];
        }
    }
    return out;
}

std::string listener_limits(std::span<const Listener> shown, const ListenerTable& table) {
    const auto hidden = std::count_if(
        shown.begin(), shown.end(), [](const Listener& l) { return !l.pid || l.process.empty(); });
    std::string out;
    if (hidden > 0)
        out = fmt::format("owner hidden for {} listener(s){}{}", hidden,
                          table.hidden_because.empty() ? "" : ": ", table.hidden_because);
    if (!table.missing.empty())
        out += fmt::format("{}{}", out.empty() ? "" : "; ", table.missing);
    return out;
}

Address connect_address(const Listener& l) {
    if (is_unspecified(l.bound))
        return loopback_of(l.bound.family, l.bound.port);
    return l.bound;
}

std::vector<Listener> listeners_on_port(std::span<const Listener> listeners, std::uint16_t port) {
    std::vector<Listener> out;
    for (const auto& l : listeners)
        if (l.bound.port == port)
            out.push_back(l);
    return out;
}

void sort_listeners(std::vector<Listener>& listeners) {
    std::stable_sort(listeners.begin(), listeners.end(), [](const Listener& a, const Listener& b) {
        return std::tie(a.bound.family, a.bound.bytes, a.bound.port, a.pid) <
               std::tie(b.bound.family, b.bound.bytes, b.bound.port, b.pid);
    });
}

} // namespace loopcheck
