// The probe rounds of a check: the plan (every address of every target,
// with its no-SYN-retry twin where paired), run -n times on the probe
// schedule, each sample written back to its address.
#include "run/rounds.hpp"

#include "loopcheck/core/measure/quick.hpp"
#include "loopcheck/core/measure/syn_policy.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/run/stop.hpp"
#include "run/probe.hpp"
#include "run/targets.hpp"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>

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
Plan make_plan(const Report& report, const RoundsRequest& opt) {
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

std::size_t planned_probes(const Report& report, const RoundsRequest& opt) {
    return make_plan(report, opt).specs.size() * static_cast<std::size_t>(opt.count);
}

void run_rounds(Report& report, const RoundsRequest& opt, const ProgressFn& progress) {
    const Plan plan = make_plan(report, opt);
    if (plan.specs.empty())
        return;
    // Before Windows 10 1709 "no retries" can only be sent as one retry,
    // and no probe is paired (pair_probe()).
    if (report.system.os == Os::windows && opt.syn_retries &&
        sends_one_retry_instead(SynPolicy::fixed, *opt.syn_retries, report.system.windows_build))
        log::warn("--syn-retries {}: {}", *opt.syn_retries,
                  one_retry_note(report.system.windows_build));
    // A listener whose backlog overflows drops SYNs: the kernel's counter
    // around the probes shows whether that happened during them.
    const bool overflows = overflows_can_matter(report);
    auto read_overflows = [overflows]() -> std::optional<std::uint64_t> {
        return overflows ? platform::listen_overflows() : std::nullopt;
    };
    const auto overflows_before = read_overflows();
    const Micros started = platform::monotonic_now();
    for (int round = 0; round < opt.count && !stop_requested(); ++round) {
        log::debug("round {}: {} probe(s)", round + 1, plan.specs.size());
        // The live line says which round of how many, and the time since
        // the first round began.
        ProgressFn in_round;
        if (progress)
            in_round = [&, round](const ProbeProgress& p) {
                ProbeProgress q = p;
                q.round = opt.count > 1 ? round + 1 : 0;
                q.rounds = opt.count > 1 ? opt.count : 0;
                q.run_elapsed = platform::monotonic_now() - started;
                progress(q);
            };
        auto samples = probe(plan.specs, opt.timeout, in_round);
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const Slot& s = plan.slots[i];
            auto& tr = report.targets[s.target];
            auto& ar = (s.extra ? tr.curl_localhost : tr.addresses)[s.address];
            (s.fast ? ar.fast_samples : ar.samples).push_back(std::move(samples[i]));
        }
    }
    if (progress)
        progress({}); // the probing is over: the live line goes before what follows
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

} // namespace loopcheck
