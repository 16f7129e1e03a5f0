// `loopcheck audit`: every listening socket a loopback client can reach,
// grouped by port, with what `localhost:PORT` costs each client model. The
// pure part lives here (port filters, grouping, flags, the summary);
// src/cli/cmd_audit.cpp runs the check pipeline around it and
// src/report/audit_report.cpp renders it.
#pragma once

#include "loopcheck/core/report.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

struct PortRange {
    std::uint16_t first = 0;
    std::uint16_t last = 0;
};

/// Parses "8000" and "8000-8100" (inclusive); ErrorKind::usage on anything
/// else, naming the bad argument.
Result<PortRange> parse_port_range(std::string_view text);

/// Stable ids of the audit's own findings (docs/usage.md, "audit").
namespace audit_flag {
/// Listens on 127.0.0.1, ::1 or a wildcard, but on no address localhost
/// resolves to here: `localhost:PORT` does not reach it.
inline constexpr std::string_view localhost_unreached = "localhost-unreached";
/// Listens only on a loopback address of its own (127.0.0.53): reachable
/// there, never through localhost, most likely by design.
inline constexpr std::string_view own_address = "own-address";
/// Takes loopback connects of one family only.
inline constexpr std::string_view single_stack = "single-stack";
} // namespace audit_flag

struct AuditPort {
    std::uint16_t port = 0;
    /// The listeners a loopback client can reach on this port.
    std::vector<Listener> listeners;
    /// localhost:PORT in AuditReport::check.targets.
    std::size_t target = 0;
    /// The audit's flags first, then the check's own findings worth showing.
    std::vector<Finding> findings;
    int exit_code = 0;
};

struct AuditReport {
    /// localhost:PORT for every audited port, probed and diagnosed by the
    /// same pipeline as `loopcheck TARGET`; also the system facts and what
    /// the listener table could not see.
    Report check;
    std::vector<AuditPort> ports;
    bool filtered = false;        ///< only the ports the user named
    std::size_t not_loopback = 0; ///< listeners on other addresses only: not audited
    std::size_t flagged = 0;      ///< ports with a warning or error
    std::string summary;          ///< one line: "AUDIT: ..."
    int exit_code = 0;
};

/// The table's loopback-reachable listeners grouped by port, ascending,
/// keeping the ports in `ranges` (all when empty). Counts in `not_loopback`
/// the (kept-port) listeners that no loopback client can reach.
std::vector<AuditPort> group_ports(std::span<const Listener> listeners,
                                   std::span<const PortRange> ranges, std::size_t& not_loopback);

/// The audit's flags for one port, from its listeners and what localhost
/// resolved to and did. Pure; also used by the tests.
std::vector<Finding> audit_flags(const AuditPort& port, const TargetReport& localhost);

/// Flags and selects findings for every port, sets each port's exit code
/// (the check's for localhost:PORT; 0 for own-address ports), the summary
/// and the overall exit code (exit_code::combine, 130 when interrupted).
void conclude_audit(AuditReport& report);

} // namespace loopcheck
