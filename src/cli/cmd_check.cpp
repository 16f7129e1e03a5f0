// `loopcheck [TARGET...]`: the main command's options, turned into a
// CheckRequest, run, and written in the chosen format.
#include "cli/cmd_check.hpp"

#include "cli/progress.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace loopcheck {

const char* const check_description =
    "loopcheck resolves a name to its ordered address list, connects to every address, times "
    "each refused or accepted connect, and says in plain words what each kind of client pays "
    "and how to fix it. With no TARGET it checks this machine itself.";

const char* const check_footer = R"(Targets:
  localhost:11434  [::1]:8080  127.0.0.1:9  http://localhost:11434/v1  11434 (= localhost:11434)

Exit codes:
  0  healthy: every target connects and nothing is slower than --threshold
  1  slow: a refusal, fallback or connect took longer than --threshold
  2  usage error: a bad option or target; nothing was probed
  3  server down: no address of a target accepted (refusals fast)
  4  a name did not resolve
  5  internal error, or the report could not be written (disk full, EPIPE)
  6  partial: some clients fail; 7 --expect refused, but it accepted
  130 interrupted (the report so far is still printed)
  141 SIGPIPE: the reader of stdout went away
  With several targets the first of 130, 5, 2, 4, 7, 6, 1, 3, 0 that applies wins.

Examples:
  loopcheck localhost:11434                  dev box: why is my client slow to reach Ollama?
  loopcheck --json localhost:8000 >r.json    CI: exit 0 healthy, 1 slow, 3 down, 6 partial
  loopcheck --markdown localhost:8000        bug ticket: a report to paste into the issue
  loopcheck --expect refused 127.0.0.1:9     test harness: a closed port must refuse fast
  loopcheck scan                             codebase: which localhost URLs cost ~2 s on Windows)";

void add_check_options(CLI::App& app, CheckArgs& a) {
    constexpr Command c = Command::check;
    add_table_option(app, c, "target", a.targets);
    add_table_option(app, c, "--count", a.count);
    add_table_option(app, c, "--ipv4", a.ipv4);
    add_table_option(app, c, "--ipv6", a.ipv6);
    add_common_options(app, a.common, c);
    add_table_option(app, c, "--expect", a.expect);
    add_table_option(app, c, "--quick", a.quick);
    add_table_option(app, c, "--no-pair", a.no_pair);
    add_table_option(app, c, "--syn-retries", a.syn_retries);
    add_table_option(app, c, "--max-probes", a.max_probes);
    add_table_option(app, c, "--emulate", a.emulate);
}

Result<CheckCommand> check_command(const CheckArgs& a, std::string command_line) {
    auto common = validate_common(a.common);
    if (!common)
        return common.error();
    if (auto bad = bounds_error("", "--count", std::to_string(a.count)))
        return usage_error(*bad);
    // Checked here, not by CLI11, so that the message is loopcheck's own.
    if (!a.expect.empty() && a.expect != "refused")
        return usage_error(fmt::format("--expect takes only 'refused', not '{}'", a.expect));
    if (a.syn_retries)
        if (auto bad = bounds_error("", "--syn-retries", std::to_string(*a.syn_retries)))
            return usage_error(*bad);
    if (auto bad = bounds_error("", "--max-probes", std::to_string(a.max_probes)))
        return usage_error(*bad);
    if (a.ipv4 && a.ipv6)
        return usage_error("-4 and -6 exclude each other");
    if (a.quick && (a.no_pair || a.syn_retries))
        return usage_error("--quick needs the paired probes: not with --no-pair or --syn-retries");
    CheckCommand c;
    c.output = common->output();
    CheckRequest& r = c.request;
    for (const auto& text : a.emulate) {
        auto spec = parse_emulation(text);
        if (!spec)
            return spec.error();
        r.emulate.push_back(std::move(*spec));
    }
    r.targets.reserve(a.targets.size()); // 10,000 targets: no regrowth moving them all
    for (const auto& text : a.targets) {
        auto t = parse_target(text, c.output.redaction.secrets);
        if (!t)
            return t.error();
        r.targets.push_back(std::move(*t));
    }
    r.timeout = common->timeout;
    r.threshold = common->threshold;
    r.count = a.count;
    r.family = a.ipv4 ? FamilyFilter::ipv4 : (a.ipv6 ? FamilyFilter::ipv6 : FamilyFilter::any);
    r.expect_refused = a.expect == "refused";
    r.no_pair = a.no_pair;
    r.quick = a.quick;
    r.syn_retries = a.syn_retries;
    r.max_probes = static_cast<std::size_t>(a.max_probes);
    // The one-line-per-target text report shows no client rows: none kept.
    r.keep_client_rows = !(c.output.format == Format::text && c.output.verbosity <= 0 &&
                           r.targets.size() > text_full_reports_up_to);
    r.command_line = std::move(command_line);
    return c;
}

int run_check_command(const CheckCommand& command) {
    const CommandSetup setup(command.output.verbosity);
    if (auto code = setup.failed())
        return *code;
    ProgressLine progress(live_lines_wanted(command.output.verbosity));
    auto report = run_check(command.request, progress.callback());
    progress.clear();
    if (!report)
        return run_failure(report.error());
    return write_report(
        command.output,
        {[&] {
             return render_text(*report,
                                text_style(command.output.color, command.output.verbosity > 0));
         },
         [&] { return render_json(*report); }, [&] { return render_markdown(*report); }},
        report->exit_code);
}

} // namespace loopcheck
