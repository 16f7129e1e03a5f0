// The steps of every check, in order: resolve, listeners, probe rounds,
// conclusions, emulations, exit code.
#include "run/measure.hpp"

#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/measure/conclude.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/run/stop.hpp"
#include "loopcheck/run/version.hpp"
#include "run/emulation_run.hpp"
#include "run/rounds.hpp"
#include "run/targets.hpp"

#include <fmt/format.h>

namespace loopcheck {

namespace {

/// Summarises and diagnoses every target; targets from index
/// `expect_refused_from` on are expected to refuse. Such a run is the
/// self-check, and the targets before them are its own listener.
void conclude(Report& report, const CheckRequest& opt, std::size_t expect_refused_from) {
    for (std::size_t i = 0; i < report.targets.size(); ++i) {
        auto& tr = report.targets[i];
        if (!tr.resolve_error)
            for (const auto& spec : opt.emulate)
                tr.emulations.push_back({spec, {}, {}, {}, 0});
        ConcludeContext context{opt.threshold, opt.timeout, report.system.os,
                                opt.expect_refused || i >= expect_refused_from,
                                report.listen_overflows};
        context.own_listener = expect_refused_from != SIZE_MAX && i < expect_refused_from;
        // The self-check's listener and closed ports are loopcheck's own
        // throwaway sockets: core leaves out what would point at them.
        context.own_socket = expect_refused_from != SIZE_MAX;
        context.client_rows_kept = opt.keep_client_rows;
        conclude_target(tr, context);
        if (!opt.keep_client_rows)
            std::vector<ClientImpact>().swap(tr.diagnosis.clients);
    }
}

/// --emulate: after the probes, one strategy at a time so that no two
/// measurements share the wire; each beside the prediction conclude() made.
void run_emulations(Report& report, const CheckRequest& opt) {
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

/// The targets' exit codes combined; 130 when the probes were interrupted.
int combined_exit_code(const Report& report) {
    if (report.incomplete)
        return exit_code::interrupted;
    int code = exit_code::healthy;
    for (const auto& t : report.targets)
        code = exit_code::combine(code, t.diagnosis.exit_code);
    return code;
}

} // namespace

Result<Report> measure(std::vector<Target> targets, const CheckRequest& request,
                       const ProgressFn& progress, const Result<ListenerTable>* table,
                       std::size_t expect_refused_from) {
    Report report;
    report.loopcheck_version = std::string(version());
    report.command_line = request.command_line;
    report.system = platform::system_facts();
    report.threshold = request.threshold;
    report.timeout = request.timeout;
    report.count = request.count;
    // Reserved: growing the vector moved every report again at each step,
    // a cost that grows with the number of targets.
    report.targets.reserve(targets.size());
    for (auto& t : targets)
        report.targets.emplace_back().target = std::move(t);

    resolve_targets(report, request.family);
    if (table)
        attach_listeners(report, *table);
    else
        attach_listeners(report);
    const RoundsRequest rounds{request.count, request.timeout, request.syn_retries, request.no_pair,
                               request.quick};
    if (const auto planned = planned_probes(report, rounds); planned > request.max_probes)
        return usage_error(fmt::format(
            "{} connects planned ({} round(s) over every address of {} target(s)), more than "
            "--max-probes {}: raise it to run them",
            planned, request.count, report.targets.size(), request.max_probes));
    run_rounds(report, rounds, progress);
    conclude(report, request, expect_refused_from);
    run_emulations(report, request);
    report.exit_code = combined_exit_code(report);
    return report;
}

} // namespace loopcheck
