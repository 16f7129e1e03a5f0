// `loopcheck audit [PORT|FIRST-LAST]...`: reads the listener table once,
// keeps every listener a loopback client can reach (loopback and wildcard
// binds), and runs the check pipeline on localhost:PORT for all of their
// ports at once, so every port gets the same diagnosis `loopcheck
// localhost:PORT` gives, plus the audit's own flags (src/core/audit.cpp).
#include "loopcheck/cli/command.hpp"
#include "loopcheck/cli/options.hpp"
#include "loopcheck/cli/pipeline.hpp"
#include "loopcheck/cli/version.hpp"
#include "loopcheck/core/audit.hpp"
#include "loopcheck/core/exit_codes.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/common/probe.hpp"
#include "loopcheck/report/audit_report.hpp"

#include <cstdio>
#include <fmt/format.h>
#include <memory>

namespace loopcheck {

namespace {

struct AuditArgs {
    std::vector<std::string> ports;
    CommonArgs common;
    bool no_pair = false;
};

/// The command as the report shows it: the ports and every setting that
/// changes what is measured (a normalised form, not the exact argv).
std::string command_line(const AuditArgs& args, const Options& opt) {
    std::string out = "loopcheck audit";
    for (const auto& p : args.ports)
        out += " " + p;
    if (opt.timeout != Micros{5'000'000})
        out += " --timeout " + args.common.timeout;
    if (opt.threshold != Micros{100'000})
        out += " --threshold " + args.common.threshold;
    if (opt.no_pair)
        out += " --no-pair";
    if (opt.format != Format::text)
        out += opt.format == Format::json ? " --json" : " --markdown";
    return out;
}

int run_audit(const AuditArgs& args) {
    std::vector<PortRange> ranges;
    for (const auto& text : args.ports) {
        auto r = parse_port_range(text);
        if (!r)
            return usage_failure(r.error().message);
        ranges.push_back(*r);
    }
    auto common = validate_common(args.common);
    if (!common)
        return usage_failure(common.error().message);
    Options opt;
    apply_common(opt, *common);
    opt.no_pair = args.no_pair;
    const CommandSetup setup(opt.verbosity);
    if (auto code = setup.failed())
        return *code;

    // The table is the audit's subject: without it there is nothing to do.
    const bool one_port = ranges.size() == 1 && ranges[0].first == ranges[0].last;
    const auto table =
        platform::list_listeners(one_port ? std::optional(ranges[0].first) : std::nullopt);
    if (!table)
        return report_error(exit_code::internal, fmt::format("cannot list listening sockets: {}",
                                                             table.error().message));

    AuditReport audit;
    audit.filtered = !ranges.empty();
    audit.ports = group_ports(table->listeners, ranges, audit.not_loopback);
    log::debug("{} listener(s), {} port(s) to audit", table->listeners.size(), audit.ports.size());
    Report& check = audit.check;
    check.loopcheck_version = std::string(version());
    check.command_line = command_line(args, opt);
    check.system = platform::system_facts();
    check.threshold = opt.threshold;
    check.timeout = opt.timeout;
    for (std::size_t i = 0; i < audit.ports.size(); ++i) {
        TargetReport tr;
        tr.target = std::move(*parse_target(fmt::format("localhost:{}", audit.ports[i].port)));
        check.targets.push_back(std::move(tr));
        audit.ports[i].target = i;
    }
    resolve_targets(check, opt);
    attach_listeners(check, table);
    run_rounds(check, opt);
    log::debug("probes done"); // -v shows where an audit spends its time
    conclude(check, opt);
    conclude_audit(audit);
    log::debug("{} port(s) diagnosed", audit.ports.size());

    write_report(opt.format, {[&] { return render_audit_text(audit, text_style(opt)); },
                              [&] { return render_audit_json(audit); },
                              [&] { return render_audit_markdown(audit); }});
    return audit.exit_code;
}

} // namespace

Command add_audit_command(CLI::App& app) {
    auto args = std::make_shared<AuditArgs>();
    CLI::App* sub = app.add_subcommand(
        "audit", "every listener a loopback client can reach, and what localhost:PORT costs");
    sub->add_option("port", args->ports, "only these ports: 8000 or 8000-8100 (default: all)");
    add_common_options(*sub, args->common);
    sub->add_flag("--no-pair", args->no_pair,
                  "Windows: probe once per address, without the no-SYN-retry twin");
    sub->footer(R"(Lists every listening TCP socket bound to a loopback or wildcard address,
grouped by port: who listens where (process and pid where this user may see
them), and what localhost:PORT costs each kind of client. Connects once to
localhost on every such port, all at once, and closes at once (no data).
Flags ports localhost does not reach and single-stack ports.

Exit codes (as for checking localhost:PORT on every port, combined):
  0  nothing slow, every port reached by localhost (single-stack is only flagged)
  1  a port is slow through localhost
  2  usage error
  3  localhost does not reach a port (e.g. a listener on ::1 only while
     localhost resolves to 127.0.0.1 only)
  4  localhost did not resolve
  5  no listener table on this OS (or the socket library failed)
  130 interrupted

Examples:
  loopcheck audit                 every port on this machine
  loopcheck audit 8000 11434      two ports
  loopcheck audit 8000-8100 --json)");
    return {sub, [args] { return run_audit(*args); }};
}

} // namespace loopcheck
