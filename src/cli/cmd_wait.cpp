// `loopcheck wait TARGET...`: its options, the request, and the report
// (the wait itself is src/run/wait.cpp).
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "loopcheck/core/input/target.hpp"
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "loopcheck/run/wait.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <functional>
#include <memory>

namespace loopcheck {

namespace {

constexpr Micros min_interval{1'000};
constexpr Micros max_interval{60'000'000};

struct WaitArgs {
    std::vector<std::string> targets;
    std::string limit = "30s";
    std::string interval = "25ms";
    bool all_addresses = false, strict = false, down = false;
    CommonArgs common;
};

std::string command_line(const WaitArgs& a, Secrets secrets) {
    std::string out = "loopcheck wait";
    if (a.limit != "30s")
        out += " --for " + a.limit;
    if (a.interval != "25ms")
        out += " --interval " + a.interval;
    if (a.all_addresses)
        out += " --all-addresses";
    if (a.strict)
        out += " --strict";
    if (a.down)
        out += " --down";
    for (const auto& t : a.targets)
        out += " " + t;
    // A URL's "user:pass@" and query values never reach a report.
    return secrets == Secrets::keep ? out : redact_urls(out);
}

/// The request from what was typed, or the one-line usage error.
Result<WaitRequest> wait_request(const WaitArgs& a) {
    auto common = validate_common(a.common);
    if (!common)
        return common.error();
    WaitRequest r;
    auto limit = parse_duration(a.limit);
    if (!limit)
        return usage_error(fmt::format("--for: {}", limit.error().message));
    if (*limit <= Micros{0} || *limit > max_timeout)
        return usage_error("--for must be above 0 and at most 1 hour");
    auto interval = parse_duration(a.interval);
    if (!interval)
        return usage_error(fmt::format("--interval: {}", interval.error().message));
    if (*interval < min_interval || *interval > max_interval)
        return usage_error("--interval must be from 1ms to 60s");
    if (a.down && (a.all_addresses || a.strict))
        return usage_error("--down excludes --all-addresses and --strict");
    for (const auto& text : a.targets) {
        auto t = parse_target(text, common->redaction.secrets);
        if (!t)
            return t.error();
        r.targets.push_back(std::move(*t));
    }
    r.limit = *limit;
    r.interval = *interval;
    r.strict = a.strict;
    r.goal = a.down ? WaitGoal::down
                    : (a.all_addresses ? WaitGoal::all_addresses : WaitGoal::any_address);
    r.command_line = command_line(a, common->redaction.secrets);
    return r;
}

int run(const WaitArgs& a) {
    auto request = wait_request(a);
    if (!request)
        return usage_failure(request.error().message);
    const auto common = validate_common(a.common);
    const CommandSetup setup(common->verbosity);
    if (auto code = setup.failed())
        return *code;
    LiveLine live(live_lines_wanted(common->verbosity));
    const WaitReport r = run_wait(*request, live.function());
    live.clear();
    return write_report(common->output(),
                        {[&] { return render_text(r, text_style(ColorMode::never)); },
                         [&] { return render_json(r); }, [&] { return render_markdown(r); }},
                        r.exit_code);
}

std::function<int()> declare(CLI::App& sub) {
    auto args = std::make_shared<WaitArgs>();
    constexpr Command c = Command::wait;
    add_table_option(sub, c, "target", args->targets);
    add_table_option(sub, c, "--for", args->limit);
    add_table_option(sub, c, "--interval", args->interval);
    add_table_option(sub, c, "--all-addresses", args->all_addresses);
    add_table_option(sub, c, "--strict", args->strict);
    add_table_option(sub, c, "--down", args->down);
    add_common_options(sub, args->common, c);
    return [args] { return run(*args); };
}

} // namespace

const CommandEntry wait_command{
    "wait",
    "wait until every TARGET accepts (or, with --down, none does); exit 0 when it does, 3 when "
    "--for runs out, 1 with --strict when resolver order costs clients",
    R"(Polls every address of every TARGET at once, each every --interval (25 ms:
about 40 connects a second per address, each closed at once, no data sent),
until each TARGET has an address that accepts. A later address in resolver
order accepting while an earlier one does not is a warning (an error with
--strict). A name that does not resolve is not waited for.

Exit codes: 0 done, 1 --strict and resolver order costs in-order clients,
2 usage error (nothing waited for), 3 --for ran out (the report says why),
4 a name did not resolve, 5 internal error, 130 interrupted.

Examples:
  loopcheck wait localhost:8000 && npm test
  loopcheck wait --for 2m --strict localhost:8000 localhost:5432
  loopcheck wait --down --for 10s 127.0.0.1:8000)",
    declare};

} // namespace loopcheck
