// `loopcheck staircase [TARGET]`: the probing, limit by limit, on the probe
// schedule; the summaries, fit and conclusion are in src/core/measure/staircase.cpp.
#include "loopcheck/run/staircase.hpp"

#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/measure/syn_policy.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/run/stop.hpp"
#include "loopcheck/run/version.hpp"
#include "run/probe.hpp"
#include "run/targets.hpp"

#include <fmt/format.h>

namespace loopcheck {

namespace {

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
    auto resolved = Resolver(FamilyFilter::any).addresses(t);
    if (!resolved)
        return resolved.error();
    std::vector<Probed> out;
    for (const auto& a : *resolved)
        out.push_back({a, false});
    return out;
}

constexpr std::size_t limits = staircase_max_limit + 1;

/// `count` rounds of probes at limits first..staircase_max_limit; the
/// samples of address a at limit l are at [a * limits + l]. One limit at a
/// time, every address at once: probes started together finish in the
/// same wait, so a later start reads a shorter latency; across limits that
/// would tilt the fit, across addresses it does not.
std::vector<std::vector<Sample>> probe_limits(const std::vector<Probed>& addresses,
                                              std::size_t first, const StaircaseRequest& request,
                                              const ProgressFn& progress) {
    std::vector<std::vector<Sample>> samples(addresses.size() * limits);
    const Micros started = platform::monotonic_now();
    for (int round = 0; round < request.count && !stop_requested(); ++round) {
        for (std::size_t l = first; l < limits && !stop_requested(); ++l) {
            std::vector<ProbeSpec> specs;
            for (const auto& p : addresses)
                specs.push_back({p.address, SynPolicy::fixed, static_cast<int>(l)});
            log::debug("staircase round {}, limit {}: {} probe(s)", round + 1, l, specs.size());
            // The live line says which limit is being timed, in which round.
            ProgressFn at_limit;
            if (progress)
                at_limit = [&, round, l](const ProbeProgress& p) {
                    ProbeProgress q = p;
                    q.limit = static_cast<int>(l);
                    q.round = request.count > 1 ? round + 1 : 0;
                    q.rounds = request.count > 1 ? request.count : 0;
                    q.run_elapsed = platform::monotonic_now() - started;
                    progress(q);
                };
            auto got = probe(specs, request.timeout, at_limit);
            for (std::size_t a = 0; a < got.size(); ++a)
                samples[a * limits + l].push_back(std::move(got[a]));
        }
    }
    return samples;
}

} // namespace

Result<StaircaseReport> run_staircase(const StaircaseRequest& request, const ProgressFn& progress) {
    StaircaseReport report;
    report.loopcheck_version = std::string(version());
    report.system = platform::system_facts();
    report.target = request.target ? request.target->input : std::string();
    report.timeout = request.timeout;
    report.count = request.count;

    std::vector<platform::Socket> held;
    auto addresses =
        request.target ? resolve_target(*request.target) : reserve_closed_ports(held, report.notes);
    if (!addresses)
        return addresses.error();

    // Before Windows 10 1709 a limit of 0 could only be sent as one retry
    // (syn_policy.hpp): it is skipped, and the report says so.
    const auto first = static_cast<std::size_t>(
        staircase_first_limit(report.system.os, report.system.windows_build));
    if (first > 0)
        report.notes.push_back(one_retry_note(report.system.windows_build) +
                               "; the staircase starts at limit 1");
    const auto samples = probe_limits(*addresses, first, request, progress);
    if (progress)
        progress({}); // the probing is over
    report.incomplete = stop_requested();
    for (std::size_t a = 0; a < addresses->size(); ++a) {
        std::vector<StairStep> steps;
        for (std::size_t l = first; l < limits; ++l)
            steps.push_back(summarize_step(static_cast<int>(l), samples[a * limits + l]));
        const auto& p = (*addresses)[a];
        report.addresses.push_back(
            conclude_staircase(p.address, p.reserved, std::move(steps), report.system.os));
    }
    report.exit_code = report.incomplete ? exit_code::interrupted : exit_code::healthy;
    return report;
}

} // namespace loopcheck
