// Targets: every kind resolved once (names, literals, URLs, bare ports;
// the hosts file and gai.conf read through the platform layer), and the
// listener table attached once. The one resolver of every command.
#include "run/targets.hpp"

#include "loopcheck/core/input/hosts.hpp"
#include "loopcheck/core/listeners/local_targets.hpp"
#include "loopcheck/core/listeners/queries.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <fmt/format.h>
#include <set>
#include <tuple>
#include <utility>

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
    // A hosts file that lists one address on many lines makes glibc answer
    // it many times (a 2 MB file of `127.0.0.1 localhost` was 100,000
    // probes): each address is probed once, where it first came.
    std::vector<Address> out;
    std::set<std::tuple<Family, std::array<std::uint8_t, 16>, std::uint32_t>> seen;
    for (Address a : *it->second) {
        a.port = target.port;
        if (seen.emplace(a.family, a.bytes, a.scope_id).second)
            out.push_back(a);
    }
    if (out.size() < it->second->size())
        log::debug("{}: {} duplicate address(es) dropped", target.host,
                   it->second->size() - out.size());
    return out;
}

namespace {

/// The files the system resolver reads too, as loopcheck read them.
struct ResolverFiles {
    platform::TextFile hosts;
    platform::TextFile gai;
    std::vector<HostsLine> gai_rules;
    /// Set when one is a FIFO or a device: the system resolver would block
    /// on it as loopcheck's own read did (issue 28), so names are not
    /// resolved.
    std::optional<Error> blocked;
};

ResolverFiles read_resolver_files(const Report& report) {
    ResolverFiles f;
    f.hosts = platform::read_text_file(report.system.hosts_file, max_hosts_file_bytes);
    // glibc's getaddrinfo ranks by RFC 6724 as /etc/gai.conf adjusts it;
    // Windows has no such file (its table is netsh's prefix policies).
    if (report.system.os != Os::windows) {
        f.gai = platform::read_text_file("/etc/gai.conf", max_hosts_file_bytes);
        if (f.gai.text)
            f.gai_rules = gai_conf_rules(*f.gai.text);
    }
    for (const auto& [path, file] : {std::pair{report.system.hosts_file, &f.hosts},
                                     std::pair{std::string("/etc/gai.conf"), &f.gai}})
        if (file->special && !f.blocked)
            f.blocked = Error{ErrorKind::resolve,
                              fmt::format("not resolved: {} {}, and the system resolver would "
                                          "block on it or read it without end",
                                          path, file->problem)};
    return f;
}

/// -4 or -6 on a name that resolves, but to the other family only: the
/// lookup of that one family failed ("Name or service not known"), which
/// would read as a name that does not exist. Which addresses it has, asked
/// without the filter; the resolver's own error when it has none.
Error family_missing(const Target& t, FamilyFilter family, Error original) {
    auto all = platform::resolve(t.host, 0, FamilyFilter::any);
    if (!all || all->empty())
        return original;
    std::vector<std::string> has;
    std::string listed;
    for (const Address& a : *all)
        if (std::find(has.begin(), has.end(), ip_string(a)) == has.end()) {
            has.push_back(ip_string(a));
            listed += (listed.empty() ? "" : ", ") + has.back();
        }
    const bool v6 = family == FamilyFilter::ipv6;
    const std::string_view flag = v6 ? "-6" : "-4";
    return Error{ErrorKind::resolve,
                 fmt::format("{} has no {} address here ({}); it resolves to {} only", t.host,
                             v6 ? "IPv6" : "IPv4", flag, listed),
                 fmt::format("Drop {} to probe the address{} {} has, or give the name an {} "
                             "address (the hosts file, DNS) if a client needs one.",
                             flag, has.size() == 1 ? "" : "es", t.host, v6 ? "IPv6" : "IPv4")};
}

/// One target's addresses: its literal, or the resolver's answer.
void resolve_one(TargetReport& tr, Resolver& resolver, FamilyFilter family,
                 const std::optional<Error>& blocked) {
    const auto& t = tr.target;
    if (t.literal) {
        const bool wrong_family =
            (family == FamilyFilter::ipv4 && t.literal->family == Family::ipv6) ||
            (family == FamilyFilter::ipv6 && t.literal->family == Family::ipv4);
        if (wrong_family)
            tr.resolve_error =
                Error{ErrorKind::resolve,
                      fmt::format("{} is not an {} address", t.host,
                                  family == FamilyFilter::ipv4 ? "IPv4" : "IPv6"),
                      fmt::format("Drop {}: an address literal is the one address probed.",
                                  family == FamilyFilter::ipv4 ? "-4" : "-6")};
        else
            tr.addresses.emplace_back().address = *t.literal;
        return;
    }
    if (blocked) {
        tr.resolve_error = blocked;
        return;
    }
    auto addresses = resolver.addresses(t);
    if (!addresses) {
        tr.resolve_error = family == FamilyFilter::any
                               ? addresses.error()
                               : family_missing(t, family, addresses.error());
        return;
    }
    for (const Address& a : *addresses)
        tr.addresses.emplace_back().address = a;
}

} // namespace

void resolve_targets(Report& report, FamilyFilter family) {
    // Where each name's order comes from: its hosts file lines and the OS's
    // rule. Address literals need neither, so a run without names does not
    // read the file.
    const bool any_name = std::any_of(report.targets.begin(), report.targets.end(),
                                      [](const TargetReport& t) { return !t.target.literal; });
    const ResolverFiles files = any_name ? read_resolver_files(report) : ResolverFiles{};
    for (auto& tr : report.targets) {
        if (!tr.target.literal) {
            Resolution r;
            r.hosts_file_readable = files.hosts.text.has_value();
            if (files.hosts.text)
                r.hosts_lines = hosts_lines_for(*files.hosts.text, tr.target.host);
            tr.resolution = std::move(r);
        }
    }
    // One lookup per distinct name: `loopcheck audit` asks for localhost
    // once per listening port, and the answer does not depend on the port.
    Resolver resolver(family);
    for (auto& tr : report.targets)
        resolve_one(tr, resolver, family, files.blocked);
    add_curl_localhost(report, family);
    // The note describes the order measured, so it is written after it.
    for (auto& tr : report.targets) {
        if (!tr.resolution)
            continue;
        std::vector<Address> order;
        for (const auto& a : tr.addresses)
            order.push_back(a.address);
        auto& note = tr.resolution->note;
        note = resolution_note(report.system.os, tr.target.host, tr.resolution->hosts_lines, order,
                               files.gai_rules);
        // A cut at the cap or a read error is said, or the lines listed
        // (or none) would read as the whole file (issue 28).
        if (!files.hosts.problem.empty())
            note = fmt::format("The hosts file {} {}.{}{}", report.system.hosts_file,
                               files.hosts.problem, note.empty() ? "" : " ", note);
    }
}

Result<ListenerTable> read_listener_table(const std::set<std::uint16_t>& ports) {
    // One port: the OS can filter. Several: one table for all of them.
    const auto only = ports.size() == 1 ? std::optional(*ports.begin()) : std::nullopt;
    log::debug("listing listeners{}", only ? fmt::format(" on port {}", *only) : "");
    // Owners only where the report looks: with many targets, the /proc walk
    // for every other listener's owner was a tenth of the run.
    const std::vector<std::uint16_t> sorted(ports.begin(), ports.end());
    return platform::list_listeners(only, sorted);
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
