// Targets: every kind resolved once (names, literals, URLs, bare ports;
// the hosts file and gai.conf read through the platform layer), and the
// listener table attached once. The one resolver of every command.
#include "run/targets.hpp"

#include "loopcheck/core/hosts.hpp"
#include "loopcheck/core/listener_queries.hpp"
#include "loopcheck/core/local_targets.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace loopcheck {

namespace {

/// curl >= 7.78 answers localhost itself with 127.0.0.1 and ::1: what the
/// resolver left out is probed on the side, for the curl rows.
void add_curl_localhost(Report& report, FamilyFilter family) {
    for (auto& tr : report.targets) {
        if (tr.target.literal || tr.resolve_error || !curl_answers_itself(tr.target.host))
            continue;
        for (Address a : {make_ipv4(127, 0, 0, 1, tr.target.port), ipv6_loopback(tr.target.port)}) {
            const bool resolved = std::any_of(tr.addresses.begin(), tr.addresses.end(),
                                              [&](const auto& r) { return r.address == a; });
            const bool filtered = (family == FamilyFilter::ipv4 && a.family == Family::ipv6) ||
                                  (family == FamilyFilter::ipv6 && a.family == Family::ipv4);
            if (!resolved && !filtered)
                tr.curl_localhost.emplace_back().address = a;
        }
    }
}

} // namespace

Result<std::vector<Address>> Resolver::addresses(const Target& target) {
    if (target.literal)
        return std::vector<Address>{*target.literal};
    auto it = answers_.find(target.host);
    if (it == answers_.end()) {
        log::debug("resolving {}", target.host);
        it = answers_.emplace(target.host, platform::resolve(target.host, 0, family_)).first;
        if (it->second)
            log::debug("{} resolved to {} address(es)", target.host, it->second->size());
    }
    if (!it->second)
        return it->second.error();
    std::vector<Address> out = *it->second;
    for (auto& a : out)
        a.port = target.port;
    return out;
}

void resolve_targets(Report& report, FamilyFilter family) {
    // Where each name's order comes from: its hosts file lines and the OS's
    // rule. Address literals need neither, so a run without names does not
    // read the file.
    const bool any_name = std::any_of(report.targets.begin(), report.targets.end(),
                                      [](const TargetReport& t) { return !t.target.literal; });
    const auto hosts = any_name ? platform::read_text_file(report.system.hosts_file, max_hosts_file_bytes) : std::nullopt;
    // glibc's getaddrinfo ranks by RFC 6724 as /etc/gai.conf adjusts it;
    // Windows has no such file (its table is netsh's prefix policies).
    std::vector<HostsLine> gai_rules;
    if (any_name && report.system.os != Os::windows)
        if (const auto gai = platform::read_text_file("/etc/gai.conf", max_hosts_file_bytes))
            gai_rules = gai_conf_rules(*gai);
    for (auto& tr : report.targets) {
        if (!tr.target.literal) {
            Resolution r;
            r.hosts_file_readable = hosts.has_value();
            if (hosts)
                r.hosts_lines = hosts_lines_for(*hosts, tr.target.host);
            tr.resolution = std::move(r);
        }
    }
    // One lookup per distinct name: `loopcheck audit` asks for localhost
    // once per listening port, and the answer does not depend on the port.
    Resolver resolver(family);
    for (auto& tr : report.targets) {
        const auto& t = tr.target;
        if (t.literal) {
            const bool wrong_family =
                (family == FamilyFilter::ipv4 && t.literal->family == Family::ipv6) ||
                (family == FamilyFilter::ipv6 && t.literal->family == Family::ipv4);
            if (wrong_family)
                tr.resolve_error =
                    Error{ErrorKind::resolve,
                          fmt::format("{} is not an {} address", t.host,
                                      family == FamilyFilter::ipv4 ? "IPv4" : "IPv6")};
            else
                tr.addresses.emplace_back().address = *t.literal;
            continue;
        }
        auto addresses = resolver.addresses(t);
        if (!addresses) {
            tr.resolve_error = addresses.error();
            continue;
        }
        for (const Address& a : *addresses)
            tr.addresses.emplace_back().address = a;
    }
    add_curl_localhost(report, family);
    // The note describes the order measured, so it is written after it.
    for (auto& tr : report.targets) {
        if (!tr.resolution)
            continue;
        std::vector<Address> order;
        for (const auto& a : tr.addresses)
            order.push_back(a.address);
        tr.resolution->note = resolution_note(report.system.os, tr.target.host,
                                              tr.resolution->hosts_lines, order, gai_rules);
    }
}

Result<ListenerTable> read_listener_table(const std::set<std::uint16_t>& ports) {
    // One port: the OS can filter. Several: one table for all of them.
    const auto only = ports.size() == 1 ? std::optional(*ports.begin()) : std::nullopt;
    log::debug("listing listeners{}", only ? fmt::format(" on port {}", *only) : "");
    return platform::list_listeners(only);
}

void attach_listeners(Report& report) {
    std::set<std::uint16_t> ports;
    for (const auto& tr : report.targets)
        if (is_local(tr))
            ports.insert(tr.target.port);
    if (ports.empty())
        return; // nothing here runs on this machine: no table to read
    const auto table = read_listener_table(ports);
    if (!table)
        log::debug("no listener table: {}", table.error().message);
    attach_listeners(report, table);
}

} // namespace loopcheck
