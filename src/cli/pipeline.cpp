#include "loopcheck/cli/pipeline.hpp"

#include "loopcheck/cli/progress.hpp"
#include "loopcheck/core/conclude.hpp"
#include "loopcheck/core/diagnose.hpp"
#include "loopcheck/core/emulation_model.hpp"
#include "loopcheck/core/exit_codes.hpp"
#include "loopcheck/core/hosts.hpp"
#include "loopcheck/core/listener_queries.hpp"
#include "loopcheck/core/quick.hpp"
#include "loopcheck/core/syn_policy.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/platform/common/emulation_run.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/common/probe.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <set>

namespace loopcheck {

namespace {

/// Where one probe's sample goes in the report.
struct Slot {
    std::size_t target;
    std::size_t address;
    bool fast;  ///< the no-SYN-retry twin
    bool extra; ///< TargetReport::curl_localhost, not the resolver's answer
};

struct Plan {
    std::vector<ProbeSpec> specs;
    std::vector<Slot> slots;
};

/// One round: every address of every target, with its twin where paired.
Plan make_plan(const Report& report, const Options& opt) {
    Plan plan;
    for (std::size_t t = 0; t < report.targets.size(); ++t) {
        for (const bool extra : {false, true}) {
            const auto& addrs =
                extra ? report.targets[t].curl_localhost : report.targets[t].addresses;
            for (std::size_t a = 0; a < addrs.size(); ++a) {
                const Address& address = addrs[a].address;
                if (opt.syn_retries) {
                    plan.specs.push_back({address, SynPolicy::fixed, *opt.syn_retries});
                    plan.slots.push_back({t, a, false, extra});
                    continue;
                }
                const bool paired =
                    !opt.no_pair &&
                    pair_probe(report.system.os, report.system.windows_build, address);
                // --quick: the no-retry probe alone; the default one is inferred.
                if (!(opt.quick && paired)) {
                    plan.specs.push_back({address, SynPolicy::system_default, 0});
                    plan.slots.push_back({t, a, false, extra});
                }
                if (paired) {
                    plan.specs.push_back({address, SynPolicy::no_retries, 0});
                    plan.slots.push_back({t, a, true, extra});
                }
            }
        }
    }
    return plan;
}

/// The hosts file's text, read up to max_hosts_file_bytes; nullopt when it
/// cannot be read. Read in small steps: a hosts file is a few hundred
/// bytes, and a buffer of the whole cap, zero-filled up front, cost every
/// run about 256 page faults, a third of a start (docs/performance.md).
std::optional<std::string> read_text_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::string content;
    std::array<char, 4096> chunk{};
    while (content.size() < max_hosts_file_bytes) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0)
            break;
        content.append(chunk.data(), std::min(got, max_hosts_file_bytes - content.size()));
    }
    return content;
}

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

void resolve_targets(Report& report, const Options& opt) {
    // Where each name's order comes from: its hosts file lines and the OS's
    // rule. Address literals need neither, so a run without names does not
    // read the file.
    const bool any_name = std::any_of(report.targets.begin(), report.targets.end(),
                                      [](const TargetReport& t) { return !t.target.literal; });
    const auto hosts = any_name ? read_text_file(report.system.hosts_file) : std::nullopt;
    // glibc's getaddrinfo ranks by RFC 6724 as /etc/gai.conf adjusts it;
    // Windows has no such file (its table is netsh's prefix policies).
    std::vector<HostsLine> gai_rules;
    if (any_name && report.system.os != Os::windows)
        if (const auto gai = read_text_file("/etc/gai.conf"))
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
    std::map<std::string, Result<std::vector<Address>>> answers;
    for (auto& tr : report.targets) {
        const auto& t = tr.target;
        if (t.literal) {
            const bool wrong_family =
                (opt.family == FamilyFilter::ipv4 && t.literal->family == Family::ipv6) ||
                (opt.family == FamilyFilter::ipv6 && t.literal->family == Family::ipv4);
            if (wrong_family)
                tr.resolve_error =
                    Error{ErrorKind::resolve,
                          fmt::format("{} is not an {} address", t.host,
                                      opt.family == FamilyFilter::ipv4 ? "IPv4" : "IPv6")};
            else
                tr.addresses.emplace_back().address = *t.literal;
            continue;
        }
        auto it = answers.find(t.host);
        if (it == answers.end()) {
            log::debug("resolving {}", t.host);
            it = answers.emplace(t.host, platform::resolve(t.host, 0, opt.family)).first;
            if (it->second)
                log::debug("{} resolved to {} address(es)", t.host, it->second->size());
        }
        if (!it->second) {
            tr.resolve_error = it->second.error();
            continue;
        }
        for (Address a : *it->second) {
            a.port = t.port;
            tr.addresses.emplace_back().address = a;
        }
    }
    add_curl_localhost(report, opt.family);
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

bool is_local(const TargetReport& target) {
    return !target.addresses.empty() &&
           std::all_of(target.addresses.begin(), target.addresses.end(), [](const auto& a) {
               return is_loopback(a.address) || is_unspecified(a.address);
           });
}

void attach_listeners(Report& report) {
    std::set<std::uint16_t> ports;
    for (const auto& tr : report.targets)
        if (is_local(tr))
            ports.insert(tr.target.port);
    if (ports.empty())
        return; // nothing here runs on this machine: no table to read
    // One port: the OS can filter. Several: one table for all of them.
    const auto only = ports.size() == 1 ? std::optional(*ports.begin()) : std::nullopt;
    log::debug("listing listeners{}", only ? fmt::format(" on port {}", *only) : "");
    attach_listeners(report, platform::list_listeners(only));
}

void attach_listeners(Report& report, const Result<ListenerTable>& table) {
    report.listener_table.queried = true;
    if (!table) {
        log::debug("no listener table: {}", table.error().message);
        report.listener_table.error = table.error().message;
        return;
    }
    std::set<std::uint16_t> ports;
    for (auto& tr : report.targets) {
        if (!is_local(tr))
            continue;
        tr.listeners = listeners_on_port(table->listeners, tr.target.port);
        ports.insert(tr.target.port);
    }
    // Only what the report shows counts: a hidden owner on another port is
    // no limit of this report.
    std::vector<Listener> shown;
    for (const auto& l : table->listeners)
        if (ports.count(l.bound.port) > 0)
            shown.push_back(l);
    report.listener_table.limits = listener_limits(shown, *table);
}

namespace {

/// Whether this machine's ListenOverflows counter can speak for a target:
/// one on this machine whose port has a listener in the table, or whose
/// table could not be read. A port nothing listens on has no accept queue
/// to overflow, so a run against closed ports skips the two reads.
bool overflows_can_matter(const Report& report) {
    const auto& table = report.listener_table;
    return std::any_of(report.targets.begin(), report.targets.end(), [&](const TargetReport& tr) {
        return is_local(tr) &&
               (!table.queried || table.error || !tr.listeners || !tr.listeners->empty());
    });
}

} // namespace

void run_rounds(Report& report, const Options& opt) {
    const Plan plan = make_plan(report, opt);
    if (plan.specs.empty())
        return;
    // Before Windows 10 1709 "no retries" can only be sent as one retry,
    // and no probe is paired (pair_probe()).
    if (report.system.os == Os::windows && opt.syn_retries &&
        sends_one_retry_instead(SynPolicy::fixed, *opt.syn_retries, report.system.windows_build))
        log::warn("--syn-retries {}: {}", *opt.syn_retries,
                  one_retry_note(report.system.windows_build));
    ProgressLine progress(opt.verbosity >= 0 && platform::is_terminal(platform::Stream::err));
    // A listener whose backlog overflows drops SYNs: the kernel's counter
    // around the probes shows whether that happened during them.
    const bool overflows = overflows_can_matter(report);
    auto read_overflows = [overflows]() -> std::optional<std::uint64_t> {
        return overflows ? platform::listen_overflows() : std::nullopt;
    };
    const auto overflows_before = read_overflows();
    for (int round = 0; round < opt.count && !stop_requested(); ++round) {
        log::debug("round {}: {} probe(s)", round + 1, plan.specs.size());
        auto samples = probe(plan.specs, opt.timeout, progress.callback());
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const Slot& s = plan.slots[i];
            auto& tr = report.targets[s.target];
            auto& ar = (s.extra ? tr.curl_localhost : tr.addresses)[s.address];
            (s.fast ? ar.fast_samples : ar.samples).push_back(std::move(samples[i]));
        }
    }
    progress.clear();
    const auto overflows_after = read_overflows();
    if (overflows_before && overflows_after)
        report.listen_overflows = ListenOverflows{*overflows_before, *overflows_after};
    report.incomplete = stop_requested();
    if (opt.quick)
        infer_default_samples(report);
}

void infer_default_samples(Report& report) {
    const RetryLimit limit = retry_limit_for_inference(report.system.tcp_settings);
    const Micros step = syn_retry_step(report.system.os);
    bool any = false;
    for (auto& tr : report.targets) {
        for (auto* list : {&tr.addresses, &tr.curl_localhost}) {
            for (auto& a : *list) {
                if (!a.samples.empty() || a.fast_samples.empty())
                    continue;
                for (const auto& fast : a.fast_samples)
                    a.samples.push_back(infer_default_sample(fast, limit, step));
                any = true;
            }
        }
    }
    if (any)
        report.quick_note = fmt::format(
            "--quick: default-stack times of loopback addresses are inferred, not measured: "
            "the time without SYN retries plus {} retr{} {} apart for a refusal ({}).",
            limit.retries, limit.retries == 1 ? "y" : "ies", format_duration(step),
            limit.assumed ? "Windows' default limit; the configured one could not be read"
                          : "the configured MaxSynRetransmissions");
    else
        report.quick_note = "--quick: nothing to infer here (no paired probe: refusals on this "
                            "OS are not retried, or the address is not loopback); probed as usual.";
}

void conclude(Report& report, const Options& opt, std::size_t expect_refused_from) {
    for (std::size_t i = 0; i < report.targets.size(); ++i) {
        auto& tr = report.targets[i];
        if (!tr.resolve_error)
            for (const auto& spec : opt.emulate)
                tr.emulations.push_back({spec, {}, {}, {}, 0});
        conclude_target(tr,
                        {opt.threshold, opt.timeout, report.system.os,
                         opt.expect_refused || i >= expect_refused_from, report.listen_overflows});
    }
}

void run_emulations(Report& report, const Options& opt) {
    for (auto& tr : report.targets) {
        std::vector<Address> addresses;
        for (const auto& a : tr.addresses)
            addresses.push_back(a.address);
        for (auto& e : tr.emulations) {
            // As many rounds as the probes ran (-n): one emulated connect
            // could be the outlier.
            for (int round = 0; round < opt.count && !stop_requested(); ++round) {
                log::debug("emulating {} against {} (round {})", e.spec.label, tr.target.input,
                           round + 1);
                e.rounds.push_back(run_emulation(e.spec, addresses, opt.timeout, report.system.os,
                                                 report.system.windows_build));
            }
            settle_rounds(e);
            if (stop_requested())
                break;
        }
    }
    report.incomplete = report.incomplete || stop_requested();
}

int combined_exit_code(const Report& report) {
    if (report.incomplete)
        return exit_code::interrupted;
    int code = exit_code::healthy;
    for (const auto& t : report.targets)
        code = exit_code::combine(code, t.diagnosis.exit_code);
    return code;
}

TextStyle text_style(const Options& opt) {
    TextStyle style;
    const char* no_color = std::getenv("NO_COLOR");
    const bool no_color_set = no_color != nullptr && *no_color != '\0';
    style.color =
        opt.color == ColorMode::always || (opt.color == ColorMode::automatic && !no_color_set &&
                                           platform::is_terminal(platform::Stream::out));
    const int width = platform::terminal_width();
    style.width = width > 0 ? std::min(width, 120) : 100;
    return style;
}

} // namespace loopcheck
