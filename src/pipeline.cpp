#include "loopcheck/pipeline.hpp"

#include "loopcheck/diagnose.hpp"
#include "loopcheck/emulation.hpp"
#include "loopcheck/exit_codes.hpp"
#include "loopcheck/hosts.hpp"
#include "loopcheck/listeners.hpp"
#include "loopcheck/probe.hpp"
#include "loopcheck/progress.hpp"
#include "loopcheck/quick.hpp"
#include "loopcheck/syn_policy.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <set>
#include <spdlog/spdlog.h>

namespace loopcheck {

namespace {

/// Where one probe's sample goes in the report.
struct Slot {
    std::size_t target;
    std::size_t address;
    bool fast; ///< the no-SYN-retry twin
};

struct Plan {
    std::vector<ProbeSpec> specs;
    std::vector<Slot> slots;
};

/// One round: every address of every target, with its twin where paired.
Plan make_plan(const Report& report, const Options& opt) {
    Plan plan;
    for (std::size_t t = 0; t < report.targets.size(); ++t) {
        const auto& addrs = report.targets[t].addresses;
        for (std::size_t a = 0; a < addrs.size(); ++a) {
            const Address& address = addrs[a].address;
            if (opt.syn_retries) {
                plan.specs.push_back({address, SynPolicy::fixed, *opt.syn_retries});
                plan.slots.push_back({t, a, false});
                continue;
            }
            const bool paired =
                !opt.no_pair && pair_probe(report.system.os, report.system.windows_build, address);
            // --quick: the no-retry probe alone; the default one is inferred.
            if (!(opt.quick && paired)) {
                plan.specs.push_back({address, SynPolicy::system_default, 0});
                plan.slots.push_back({t, a, false});
            }
            if (paired) {
                plan.specs.push_back({address, SynPolicy::no_retries, 0});
                plan.slots.push_back({t, a, true});
            }
        }
    }
    return plan;
}

/// The hosts file's text, read up to max_hosts_file_bytes; nullopt when it
/// cannot be read. Read in small steps: a hosts file is a few hundred
/// bytes, and a buffer of the whole cap, zero-filled up front, cost every
/// run about 256 page faults, a third of a start (docs/performance.md).
std::optional<std::string> read_hosts_file(const std::string& path) {
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

} // namespace

int fail(int code, const std::string& message) {
    std::fputs(fmt::format("loopcheck: error: {}\n", message).c_str(), stderr);
    return code;
}

void resolve_targets(Report& report, const Options& opt) {
    // Where each name's order comes from: its hosts file lines and the OS's
    // rule. Address literals need neither, so a run without names does not
    // read the file.
    const bool any_name = std::any_of(report.targets.begin(), report.targets.end(),
                                      [](const TargetReport& t) { return !t.target.literal; });
    const auto hosts = any_name ? read_hosts_file(report.system.hosts_file) : std::nullopt;
    for (auto& tr : report.targets) {
        if (!tr.target.literal) {
            Resolution r;
            r.hosts_file_readable = hosts.has_value();
            if (hosts)
                r.hosts_lines = hosts_lines_for(*hosts, tr.target.host);
            r.note = resolution_note(report.system.os, tr.target.host, r.hosts_lines);
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
                (opt.family == platform::FamilyFilter::ipv4 && t.literal->family == Family::ipv6) ||
                (opt.family == platform::FamilyFilter::ipv6 && t.literal->family == Family::ipv4);
            if (wrong_family)
                tr.resolve_error = Error{
                    ErrorKind::resolve,
                    fmt::format("{} is not an {} address", t.host,
                                opt.family == platform::FamilyFilter::ipv4 ? "IPv4" : "IPv6")};
            else
                tr.addresses.emplace_back().address = *t.literal;
            continue;
        }
        auto it = answers.find(t.host);
        if (it == answers.end()) {
            spdlog::debug("resolving {}", t.host);
            it = answers.emplace(t.host, platform::resolve(t.host, 0, opt.family)).first;
            if (it->second)
                spdlog::debug("{} resolved to {} address(es)", t.host, it->second->size());
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
    spdlog::debug("listing listeners{}", only ? fmt::format(" on port {}", *only) : "");
    attach_listeners(report, platform::list_listeners(only));
}

void attach_listeners(Report& report, const Result<platform::ListenerTable>& table) {
    report.listener_table.queried = true;
    if (!table) {
        spdlog::debug("no listener table: {}", table.error().message);
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

void run_rounds(Report& report, const Options& opt) {
    const Plan plan = make_plan(report, opt);
    if (plan.specs.empty())
        return;
    ProgressLine progress(opt.verbosity >= 0 && platform::is_terminal(platform::Stream::err));
    for (int round = 0; round < opt.count && !stop_requested(); ++round) {
        spdlog::debug("round {}: {} probe(s)", round + 1, plan.specs.size());
        auto samples = probe(plan.specs, opt.timeout, progress.callback());
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const Slot& s = plan.slots[i];
            auto& ar = report.targets[s.target].addresses[s.address];
            (s.fast ? ar.fast_samples : ar.samples).push_back(std::move(samples[i]));
        }
    }
    progress.clear();
    report.incomplete = stop_requested();
    if (opt.quick)
        infer_default_samples(report);
}

void infer_default_samples(Report& report) {
    const RetryLimit limit = retry_limit_for_inference(report.system.tcp_settings);
    const Micros step = syn_retry_step(report.system.os);
    bool any = false;
    for (auto& tr : report.targets) {
        for (auto& a : tr.addresses) {
            if (!a.samples.empty() || a.fast_samples.empty())
                continue;
            for (const auto& fast : a.fast_samples)
                a.samples.push_back(infer_default_sample(fast, limit, step));
            any = true;
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
        if (tr.resolve_error) {
            tr.diagnosis = diagnose_unresolved(tr.target, *tr.resolve_error);
            continue;
        }
        std::vector<Observation> obs;
        for (auto& a : tr.addresses) {
            a.summary = summarize_address(a.samples, a.fast_samples);
            obs.push_back({a.address, a.summary});
        }
        DiagnosisInput in;
        in.target = &tr.target;
        in.addresses = obs;
        in.threshold = opt.threshold;
        in.timeout = opt.timeout;
        in.os = report.system.os;
        in.expect_refused = opt.expect_refused || i >= expect_refused_from;
        if (tr.listeners)
            in.listeners = std::span<const platform::Listener>(*tr.listeners);
        tr.diagnosis = diagnose(in);
        for (const auto& spec : opt.emulate)
            tr.emulations.push_back({spec, {}, predict_emulation(spec, obs)});
    }
}

void run_emulations(Report& report, const Options& opt) {
    for (auto& tr : report.targets) {
        std::vector<Address> addresses;
        for (const auto& a : tr.addresses)
            addresses.push_back(a.address);
        for (auto& e : tr.emulations) {
            if (stop_requested())
                return;
            spdlog::debug("emulating {} against {}", e.spec.label, tr.target.input);
            e.measured = run_emulation(e.spec, addresses, opt.timeout, report.system.os,
                                       report.system.windows_build);
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
