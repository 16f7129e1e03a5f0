// `loopcheck audit [PORT|FIRST-LAST]...`: its options, the request, and
// the report (the audit itself is src/run/audit.cpp).
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "loopcheck/run/audit.hpp"

#include <CLI/CLI.hpp>
#include <functional>
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
std::string command_line(const AuditArgs& args, const AuditRequest& opt, Format format) {
    std::string out = "loopcheck audit";
    for (const auto& p : args.ports)
        out += " " + p;
    if (opt.timeout != Micros{5'000'000})
        out += " --timeout " + args.common.timeout;
    if (opt.threshold != Micros{100'000})
        out += " --threshold " + args.common.threshold;
    if (opt.no_pair)
        out += " --no-pair";
    if (format != Format::text)
        out += format == Format::json ? " --json" : " --markdown";
    return out;
}

int run(const AuditArgs& args) {
    AuditRequest request;
    for (const auto& text : args.ports) {
        auto r = parse_port_range(text);
        if (!r)
            return usage_failure(r.error().message);
        request.ranges.push_back(*r);
    }
    auto common = validate_common(args.common);
    if (!common)
        return usage_failure(common.error().message);
    request.timeout = common->timeout;
    request.threshold = common->threshold;
    request.no_pair = args.no_pair;
    request.command_line = command_line(args, request, common->format);
    const CommandSetup setup(common->verbosity);
    if (auto code = setup.failed())
        return *code;

    ProgressLine progress(live_lines_wanted(common->verbosity));
    const auto audit = run_audit(request, progress.callback());
    progress.clear();
    if (!audit)
        return run_failure(audit.error());
    return write_report(common->output(),
                        {[&] { return render_text(*audit, text_style(common->color)); },
                         [&] { return render_json(*audit); },
                         [&] { return render_markdown(*audit); }},
                        audit->exit_code);
}

std::function<int()> declare(CLI::App& sub, std::vector<std::string> /*after_dashes*/) {
    auto args = std::make_shared<AuditArgs>();
    constexpr Command c = Command::audit;
    add_table_option(sub, c, "port", args->ports);
    add_common_options(sub, args->common, c);
    add_table_option(sub, c, "--no-pair", args->no_pair);
    return [args] { return run(*args); };
}

} // namespace

const CommandEntry audit_command{
    "audit", "every listener a loopback client can reach, and what localhost:PORT costs",
    R"(Lists every listening TCP socket bound to a loopback or wildcard address,
grouped by port: who listens where (process and pid where this user may see
them), and what localhost:PORT costs each kind of client. Connects once to
localhost on every such port, all at once, and closes at once (no data).
Flags ports localhost does not reach and single-stack ports.

Exit codes (as for checking localhost:PORT on every port, combined):
  0  nothing slow, every port reached by localhost (single-stack is only flagged)
  1  a port is slow through localhost
  2  usage error
  3  localhost reaches a port for no client (its listener refused)
  4  localhost did not resolve
  5  no listener table on this OS (or the socket library failed)
  6  some clients reach a port and others fail: a listener on ::1 only while
     localhost resolves to 127.0.0.1 only (curl tries ::1 itself; Python,
     Java and Go do not), or one Node.js 17 to 19 never tries
  130 interrupted

Examples:
  loopcheck audit                 every port on this machine
  loopcheck audit 8000 11434      two ports
  loopcheck audit 8000-8100 --json)",
    declare};

} // namespace loopcheck
