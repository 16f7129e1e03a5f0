// Loopcheck audit's conclusions: port ranges, grouping listeners by port, its flags.
#include "loopcheck/core/diagnose/audit.hpp"

#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/listeners/queries.hpp"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>

namespace loopcheck {

namespace {

std::optional<std::uint16_t> port_number(std::string_view digits) {
    if (digits.empty() || digits.size() > 5 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    unsigned v = 0;
    for (char c : digits)
        v = v * 10 + static_cast<unsigned>(c - '0');
    if (v == 0 || v > 65535)
        return std::nullopt;
    return static_cast<std::uint16_t>(v);
}

bool in_ranges(std::uint16_t port, std::span<const PortRange> ranges) {
    return ranges.empty() || std::any_of(ranges.begin(), ranges.end(), [&](const PortRange& r) {
               return port >= r.first && port <= r.last;
           });
}

/// Bound to a loopback address other than 127.0.0.1 and ::1 (127.0.0.53,
/// 127.0.1.1): an address a client has to name on purpose.
bool own_loopback_address(const Listener& l) {
    return is_loopback(l.bound) && l.bound != make_ipv4(127, 0, 0, 1, l.bound.port) &&
           l.bound != ipv6_loopback(l.bound.port);
}

facts::PortSingleStack single_stack_facts(const TargetReport& localhost, Family only) {
    facts::PortSingleStack f{only, std::nullopt, false};
    if (only == Family::ipv4) {
        // The Windows cost is the check's own Windows column (the python
        // row), so audit and check never disagree on a port.
        const auto python =
            std::find_if(localhost.diagnosis.clients.begin(), localhost.diagnosis.clients.end(),
                         [](const ClientImpact& c) { return c.id == "python"; });
        if (python != localhost.diagnosis.clients.end() && python->windows &&
            python->windows->connected)
            f.windows_cost = python->windows->time;
        return f;
    }
    const bool resolves_v4 = std::any_of(localhost.addresses.begin(), localhost.addresses.end(),
                                         [](auto& a) { return a.address.family == Family::ipv4; });
    f.localhost_ipv4_only_here = resolves_v4 && localhost.addresses.size() == 1;
    return f;
}

/// How many ports carry each flag, for the summary line.
struct FlagCounts {
    std::size_t unreached = 0, single = 0, slow = 0, own = 0;
};

/// The one-line summary: how many ports a loopback client can reach and what
/// is flagged among them, once every port has its findings and exit code.
std::string audit_summary(const AuditReport& r, const FlagCounts& n) {
    std::string summary;
    const std::string where = r.filtered ? "on the given ports" : "on this machine";
    if (r.ports.empty()) {
        summary = fmt::format("AUDIT: no listener a loopback client can reach {}", where);
    } else {
        std::vector<std::string> parts;
        if (n.unreached > 0)
            parts.push_back(fmt::format("{} not reached by localhost", n.unreached));
        if (n.slow > 0)
            parts.push_back(fmt::format("{} slow", n.slow));
        if (n.single > 0)
            parts.push_back(fmt::format("{} single-stack", n.single));
        if (n.own > 0)
            parts.push_back(fmt::format("{} on an address of its own", n.own));
        summary = fmt::format("AUDIT: {} listening port(s) a loopback client can reach {}: {}",
                              r.ports.size(), where,
                              parts.empty() ? std::string("nothing flagged")
                                            : fmt::format("{}", fmt::join(parts, ", ")));
        const auto& first = r.check.targets[r.ports.front().target];
        if (first.resolve_error)
            summary = fmt::format("AUDIT: {} listening port(s) {}, but {}", r.ports.size(), where,
                                  first.resolve_error->message);
    }
    if (r.check.incomplete)
        summary = "INCOMPLETE " + summary + " (interrupted before every probe finished)";
    return summary;
}

} // namespace

Result<PortRange> parse_port_range(std::string_view text) {
    const auto dash = text.find('-');
    const auto first = port_number(text.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : port_number(text.substr(dash + 1));
    if (!first || !last)
        return usage_error(
            fmt::format("invalid port '{}': expected PORT or FIRST-LAST, each 1-65535", text));
    if (*last < *first)
        return usage_error(
            fmt::format("invalid port range '{}': {} is below {}", text, *last, *first));
    return PortRange{*first, *last};
}

std::vector<AuditPort> group_ports(std::span<const Listener> listeners,
                                   std::span<const PortRange> ranges, std::size_t& not_loopback) {
    std::map<std::uint16_t, AuditPort> by_port;
    not_loopback = 0;
    for (const auto& l : listeners) {
        if (!in_ranges(l.bound.port, ranges))
            continue;
        if (!loopback_reachable(l)) {
            ++not_loopback;
            continue;
        }
        auto& p = by_port[l.bound.port];
        p.port = l.bound.port;
        p.listeners.push_back(l);
    }
    std::vector<AuditPort> out;
    out.reserve(by_port.size());
    for (auto& [port, p] : by_port)
        out.push_back(std::move(p));
    return out;
}

std::vector<Finding> audit_flags(const AuditPort& p, const TargetReport& localhost) {
    std::vector<Finding> flags;
    if (localhost.resolve_error || p.listeners.empty())
        return flags;
    bool reached = false, accepted = false;
    std::vector<Address> resolved;
    for (const auto& a : localhost.addresses) {
        resolved.push_back(a.address);
        accepted = accepted || a.summary.outcome == Outcome::accepted;
        for (const auto& l : p.listeners)
            reached = reached || reaches(l, a.address) != false;
    }
    if (!reached && !accepted) {
        const bool own = std::all_of(p.listeners.begin(), p.listeners.end(), own_loopback_address);
        if (own)
            flags.push_back({std::string(audit_flag::own_address), Severity::info, "",
                             facts::OwnAddress{p.listeners}, connect_address(p.listeners.front())});
        else
            flags.push_back({std::string(audit_flag::localhost_unreached), Severity::error, "",
                             facts::LocalhostUnreached{p.port, std::move(resolved), p.listeners},
                             connect_address(p.listeners.front())});
    }
    const auto v4 = port_serves_loopback(p.listeners, Family::ipv4);
    const auto v6 = port_serves_loopback(p.listeners, Family::ipv6);
    if (v4 == true && v6 == false) {
        // Costly here only when localhost resolves to ::1 first.
        const bool costly = !localhost.addresses.empty() &&
                            localhost.addresses.front().address.family == Family::ipv6;
        flags.push_back({std::string(audit_flag::single_stack),
                         costly ? Severity::warning : Severity::info, "",
                         single_stack_facts(localhost, Family::ipv4), std::nullopt});
    } else if (v6 == true && v4 == false) {
        flags.push_back({std::string(audit_flag::single_stack), Severity::info, "",
                         single_stack_facts(localhost, Family::ipv6), std::nullopt});
    }
    return flags;
}

void conclude_audit(AuditReport& r) {
    FlagCounts n;
    int code = exit_code::healthy;
    r.flagged = 0;
    for (auto& p : r.ports) {
        const auto& t = r.check.targets[p.target];
        p.findings = audit_flags(p, t);
        const auto has = [&](std::string_view id) {
            return std::any_of(p.findings.begin(), p.findings.end(),
                               [&](const Finding& f) { return f.id == id; });
        };
        const bool is_own = has(audit_flag::own_address);
        const bool not_reached = has(audit_flag::localhost_unreached) || is_own;
        n.unreached += has(audit_flag::localhost_unreached);
        n.own += is_own;
        n.single += has(audit_flag::single_stack);
        // The check's own findings, unless a flag already says the same.
        if (!t.resolve_error) {
            for (const auto& f : t.diagnosis.findings) {
                if (f.severity < Severity::warning)
                    continue;
                if (not_reached &&
                    (f.id == finding_id::server_down || f.id == finding_id::listener_elsewhere))
                    continue;
                p.findings.push_back(f);
            }
        }
        p.exit_code = is_own ? exit_code::healthy : t.diagnosis.exit_code;
        n.slow += p.exit_code == exit_code::slow;
        if (std::any_of(p.findings.begin(), p.findings.end(),
                        [](const Finding& f) { return f.severity >= Severity::warning; }))
            ++r.flagged;
        code = exit_code::combine(code, p.exit_code);
    }
    if (r.check.incomplete)
        code = exit_code::interrupted;
    r.exit_code = code;
    r.check.exit_code = code;

    r.summary = audit_summary(r, n);
}

} // namespace loopcheck
