// `loopcheck staircase [TARGET]`: the command line and the probing; the
// summaries, fit and conclusion are in src/core/staircase.cpp, the output
// in src/report/staircase_report.cpp.
#include "loopcheck/cli/command.hpp"
#include "loopcheck/cli/options.hpp"
#include "loopcheck/cli/progress.hpp"
#include "loopcheck/cli/version.hpp"
#include "loopcheck/core/exit_codes.hpp"
#include "loopcheck/core/staircase.hpp"
#include "loopcheck/core/syn_policy.hpp"
#include "loopcheck/core/target.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/common/probe.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/report/staircase_report.hpp"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <memory>

namespace loopcheck {

namespace {

/// Probes per limit: enough for a median, bounded so that a typo cannot
/// keep Windows busy for hours (each probe may take 2.5 s there).
constexpr int max_staircase_count = 100;

struct StaircaseOptions {
    std::string target;
    int count = 3;
    CommonArgs common;
};

struct Probed {
    Address address;
    bool reserved = false;
};

/// A closed port on 127.0.0.1 and the same port (or any) on ::1, held by
/// `held` until the probes are done.
Result<std::vector<Probed>> reserve_closed_ports(std::vector<platform::Socket>& held,
                                                 std::vector<std::string>& notes) {
    std::vector<Probed> out;
    auto v4 = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    if (!v4)
        return v4.error();
    auto a4 = platform::local_address(*v4);
    if (!a4)
        return a4.error();
    held.push_back(std::move(*v4));
    out.push_back({*a4, true});

    auto v6 = platform::bind_closed(ipv6_loopback(a4->port));
    if (!v6)
        v6 = platform::bind_closed(ipv6_loopback());
    if (v6) {
        if (auto a6 = platform::local_address(*v6)) {
            held.push_back(std::move(*v6));
            out.push_back({*a6, true});
        }
    } else {
        notes.push_back(fmt::format("IPv6 loopback is not available here ({}); only 127.0.0.1 "
                                    "was probed",
                                    v6.error().message));
    }
    return out;
}

Result<std::vector<Probed>> resolve_target(const Target& t) {
    std::vector<Probed> out;
    if (t.literal) {
        out.push_back({*t.literal, false});
        return out;
    }
    auto resolved = platform::resolve(t.host, t.port, FamilyFilter::any);
    if (!resolved)
        return resolved.error();
    for (const auto& a : *resolved)
        out.push_back({a, false});
    return out;
}

constexpr std::size_t staircase_limits = staircase_max_limit + 1;

/// `count` rounds of probes at limits first..staircase_max_limit; the
/// samples of address a at limit l are at [a * staircase_limits + l]. One
/// limit at a time, every address at once: probes started together finish
/// in the same wait, so a later start reads a shorter latency; across
/// limits that would tilt the fit, across addresses it does not.
std::vector<std::vector<Sample>> probe_limits(const std::vector<Probed>& addresses,
                                              std::size_t first, int count, Micros timeout) {
    std::vector<std::vector<Sample>> samples(addresses.size() * staircase_limits);
    ProgressLine progress(platform::is_terminal(platform::Stream::err));
    for (int round = 0; round < count && !stop_requested(); ++round) {
        for (std::size_t l = first; l < staircase_limits && !stop_requested(); ++l) {
            std::vector<ProbeSpec> specs;
            for (const auto& p : addresses)
                specs.push_back({p.address, SynPolicy::fixed, static_cast<int>(l)});
            log::debug("staircase round {}, limit {}: {} probe(s)", round + 1, l, specs.size());
            auto got = probe(specs, timeout, progress.callback());
            for (std::size_t a = 0; a < got.size(); ++a)
                samples[a * staircase_limits + l].push_back(std::move(got[a]));
        }
    }
    progress.clear();
    return samples;
}

int run_staircase(const StaircaseOptions& o) {
    if (o.count < 1 || o.count > max_staircase_count)
        return usage_failure(fmt::format("--count must be from 1 to {}", max_staircase_count));
    auto common = validate_common(o.common);
    if (!common)
        return usage_failure(common.error().message);
    std::optional<Target> target;
    if (!o.target.empty()) {
        auto t = parse_target(o.target);
        if (!t)
            return usage_failure(t.error().message);
        target = std::move(*t);
    }
    const CommandSetup setup(common->verbosity);
    if (auto code = setup.failed())
        return *code;

    StaircaseReport report;
    report.loopcheck_version = std::string(version());
    report.system = platform::system_facts();
    report.target = o.target;
    report.timeout = common->timeout;
    report.count = o.count;

    std::vector<platform::Socket> held;
    auto addresses = target ? resolve_target(*target) : reserve_closed_ports(held, report.notes);
    if (!addresses)
        return report_error(addresses.error().kind == ErrorKind::resolve ? exit_code::unresolved
                                                                         : exit_code::internal,
                            addresses.error().message);

    // Before Windows 10 1709 a limit of 0 could only be sent as one retry
    // (syn_policy.hpp): it is skipped, and the report says so.
    const auto first = static_cast<std::size_t>(
        staircase_first_limit(report.system.os, report.system.windows_build));
    if (first > 0)
        report.notes.push_back(one_retry_note(report.system.windows_build) +
                               "; the staircase starts at limit 1");
    const auto samples = probe_limits(*addresses, first, o.count, common->timeout);
    report.incomplete = stop_requested();

    for (std::size_t a = 0; a < addresses->size(); ++a) {
        std::vector<StairStep> steps;
        for (std::size_t l = first; l < staircase_limits; ++l)
            steps.push_back(summarize_step(static_cast<int>(l), samples[a * staircase_limits + l]));
        const auto& p = (*addresses)[a];
        report.addresses.push_back(
            conclude_staircase(p.address, p.reserved, std::move(steps), report.system.os));
    }
    report.exit_code = report.incomplete ? exit_code::interrupted : exit_code::healthy;

    write_report(common->format, {[&] { return render_staircase_text(report); },
                                  [&] { return render_staircase_json(report); },
                                  {}});
    return report.exit_code;
}

} // namespace

Command staircase_command(CLI::App& app) {
    auto o = std::make_shared<StaircaseOptions>();
    CLI::App* sub = app.add_subcommand(
        "staircase", "time refused connects with the SYN retry limit set to 0..5 (Windows: "
                     "~500 ms per retry; flat where a reset ends the connect)");
    sub->add_option("target", o->target,
                    "host:port that refuses; default: a closed port on 127.0.0.1 and ::1");
    sub->add_option("-n,--count", o->count, "probes per limit (default 3, at most 100)");
    add_common_options(*sub, o->common,
                       {.threshold = false, .format = false, .color = false, .quiet = false});
    sub->footer("Exit codes: 0 measured, 2 usage error, 4 the name did not resolve, 5 internal "
                "error, 130 interrupted. See docs/windows.md (staircase).");
    return {sub, [o] { return run_staircase(*o); }};
}

} // namespace loopcheck
