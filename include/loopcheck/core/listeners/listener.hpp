// A listening socket as the OS's listener table describes it, and the table
// itself: plain values that the platform layer fills (src/platform/*/
// listener_table.cpp) and the core reasons about (listener_queries.hpp).
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/listeners/servers.hpp"
#include "loopcheck/core/text/untrusted.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loopcheck {

/// One listening TCP socket on this machine (in this network namespace).
struct Listener {
    Address bound; ///< the address and port it is bound to; 0.0.0.0 or :: for a wildcard
    /// IPV6_V6ONLY of an IPv6 socket: false means a [::] listener takes IPv4
    /// connects too. nullopt for IPv4 sockets and where the OS does not say
    /// (Windows' tables do not).
    std::optional<bool> v6only;
    /// The process holding the socket; nullopt when it could not be seen
    /// (another user's process without root, another PID namespace).
    std::optional<std::uint32_t> pid;
    /// Its name ("python3"); empty when unknown. Any local user picks it
    /// (prctl(PR_SET_NAME), the executable's file name): print it through
    /// Untrusted's neutralisers only.
    Untrusted process;
    /// The socket's owner uid where the OS says even when the process is
    /// hidden (Linux sock_diag); nullopt elsewhere.
    std::optional<std::uint32_t> uid;
    /// The owner is hidden because no process in this PID namespace holds
    /// the socket (Linux, as root: a kernel socket or another container's
    /// process), not because this user may not see it.
    bool owner_outside_pid_namespace = false;
    /// The server the process is, recognised from its name and command line
    /// (recognise_server: docs/servers.md); nullopt when unknown.
    std::optional<ServerMatch> server;

    friend bool operator==(const Listener&, const Listener&) = default;
};

struct ListenerTable {
    /// Every listening socket that could be seen, IPv4 first, then by
    /// address and port.
    std::vector<Listener> listeners;
    /// How many of them have no owner: no pid, or no process name.
    std::size_t owner_hidden = 0;
    /// Why owners are hidden and how to see them ("run as root to see other
    /// users' processes"); empty when none is.
    std::string hidden_because;
    /// What the table is missing altogether ("IPv6 listeners could not be
    /// listed: ...", macOS: other users' processes); empty when nothing.
    std::string missing;
};

} // namespace loopcheck
