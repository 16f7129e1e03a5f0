// What a listener table means for a client: which listener a connect to an
// address reaches, who owns it, and how to name it in a sentence. Pure
// functions over Listener values; no OS calls.
#pragma once

#include "loopcheck/core/listeners/listener.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace loopcheck {

/// Whether a connect to `to` reaches listener `l`: the same port, and the
/// bound address is `to` itself or the wildcard of its family. An IPv4
/// connect reaches a [::] listener only with IPV6_V6ONLY off (ipv6(7));
/// nullopt when that flag is unknown. v4-mapped addresses (::ffff:a.b.c.d)
/// count as the IPv4 address they carry.
std::optional<bool> reaches(const Listener& l, const Address& to);

/// The listener a connect to `to` lands on: a listener bound to `to`
/// itself wins over a wildcard one, as in the kernel's lookup. Null when
/// none does (or only one whose V6ONLY flag is unknown).
const Listener* serving(std::span<const Listener> listeners, const Address& to);

/// True when a client on this machine can connect to it through a loopback
/// address: bound to 127/8, ::1, 0.0.0.0 or ::.
bool loopback_reachable(const Listener& l) noexcept;

/// Whether the listener takes connects to the loopback address of `f`
/// (127.0.0.1 or ::1); nullopt when it depends on an unknown V6ONLY.
std::optional<bool> serves_loopback(const Listener& l, Family f);

/// Across all `listeners`: does any take loopback connects of family `f`?
/// nullopt when none does for certain but one might.
std::optional<bool> port_serves_loopback(std::span<const Listener> listeners, Family f);

/// "python3 (pid 4242)", "pid 4242", "a process of uid 1000 this user cannot
/// see", "a process not visible here".
std::string owner_string(const Listener& l);

/// "127.0.0.1:8000", "[::]:8000 (IPV6_V6ONLY off)".
std::string bound_string(const Listener& l);

/// Who listens where, as a clause: "python3 (pid 4242) listens on
/// 127.0.0.1:8000", "nginx (pid 9) listens on 0.0.0.0:80 and [::]:80
/// (IPV6_V6ONLY on)"; listeners with different owners are joined with "; ".
/// Empty for no listeners.
std::string describe_listening(std::span<const Listener> listeners);

/// What a report showing `shown` (taken from `table`) could not see, in
/// one sentence: "owner hidden for 2 listener(s): run as root to see other
/// users' processes", then what the table misses; empty when nothing.
std::string listener_limits(std::span<const Listener> shown, const ListenerTable& table);

/// The address a client should connect to for this listener: the bound
/// address, or its family's loopback address for a wildcard bind.
Address connect_address(const Listener& l);

/// The listeners on `port`, in the table's order.
std::vector<Listener> listeners_on_port(std::span<const Listener> listeners, std::uint16_t port);

/// Sorts a table the way every report lists it: IPv4 first, then by
/// address, port and pid.
void sort_listeners(std::vector<Listener>& listeners);

} // namespace loopcheck
