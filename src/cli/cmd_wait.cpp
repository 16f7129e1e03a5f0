// `loopcheck wait TARGET...`: its options, the request, and the report
// (the wait itself is src/run/wait.cpp).
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/input/target.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "loopcheck/run/wait.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
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
    std::string http;          ///< --http PATH; "" for none
    std::string expect_status; ///< --expect-status; "" for the default
    bool all_addresses = false, strict = false, down = false;
    std::vector<std::string> command; ///< after `--`
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
    if (!a.http.empty())
        out += " --http " + a.http;
    if (!a.expect_status.empty())
        out += " --expect-status " + a.expect_status;
    for (const auto& t : a.targets)
        out += " " + t;
    // The command's words are its own (they may hold a password): the
    // report names only that there is one.
    if (!a.command.empty())
        out +=
            " -- " + Untrusted(a.command.front()).escaped() + (a.command.size() > 1 ? " ..." : "");
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
    if (!a.http.empty()) {
        // As a request names it: a path from the root, no spaces or
        // controls (a request line is split at spaces).
        const bool printable = std::all_of(a.http.begin(), a.http.end(), [](char c) {
            return static_cast<unsigned char>(c) > 0x20 && c != 0x7f;
        });
        if (a.http.front() != '/' || !printable)
            return usage_error(fmt::format(
                "--http: '{}' is not a path (it starts with / and has no spaces: /health)",
                Untrusted(a.http).escaped()));
        r.http_path = a.http;
    }
    if (!a.expect_status.empty()) {
        auto ranges = parse_status_ranges(a.expect_status);
        if (!ranges)
            return ranges.error();
        r.expect_status = std::move(*ranges);
    }
    if (a.down && (!a.http.empty() || !a.expect_status.empty()))
        return usage_error("--down waits for the port to close: --http and --expect-status do "
                           "not apply");
    for (const auto& text : a.targets) {
        auto t = parse_target(text, common->redaction.secrets);
        if (!t)
            return t.error();
        r.targets.push_back(std::move(*t));
    }
    const bool any_http =
        r.http_path || std::any_of(r.targets.begin(), r.targets.end(),
                                   [](const Target& t) { return t.scheme == "http"; });
    if (!a.expect_status.empty() && !any_http)
        return usage_error("--expect-status needs an http:// target or --http PATH");
    if (a.down && any_http)
        return usage_error("--down waits for the port to close: give host:port, not an "
                           "http:// URL");
    r.limit = *limit;
    r.interval = *interval;
    r.strict = a.strict;
    r.goal = a.down ? WaitGoal::down
                    : (a.all_addresses ? WaitGoal::all_addresses : WaitGoal::any_address);
    r.command_line = command_line(a, common->redaction.secrets);
    return r;
}

/// Whether the command after `--` runs: the wait is over and nothing
/// failed (--strict's order error is a failure; its warning is not).
bool command_runs(int exit_code) {
    return exit_code == exit_code::healthy;
}

/// Runs the command after `--` in loopcheck's place (platform.hpp); what
/// comes back is its exit status, or 126/127 with a line on stderr when
/// it could not start.
int run_command(const std::vector<std::string>& command) {
    std::fflush(stdout);
    std::fflush(stderr);
    const platform::CommandEnd end = platform::run_in_place(command);
    if (!end.error.empty())
        std::fputs(fmt::format("loopcheck: error: cannot run {}: {}\n",
                               Untrusted(command.front()).escaped(), end.error)
                       .c_str(),
                   stderr);
    return end.status;
}

/// A CI log's line on stderr: the start line and the heartbeat.
void log_line(const std::string& line) {
    std::fputs((line + "\n").c_str(), stderr);
    std::fflush(stderr);
}

int run(const WaitArgs& a) {
    auto request = wait_request(a);
    if (!request)
        return usage_failure(request.error().message);
    const auto common = validate_common(a.common);
    const CommandSetup setup(common->verbosity);
    if (auto code = setup.failed())
        return *code;
    // A terminal gets the self-erasing line; a CI log (stderr not a
    // terminal) a start line and a heartbeat every few seconds; -q neither.
    const bool terminal = live_lines_wanted(common->verbosity);
    LiveLine live(terminal);
    const LiveLineFn heartbeat =
        !terminal && common->verbosity >= 0 ? LiveLineFn(log_line) : LiveLineFn();
    const WaitReport r = run_wait(*request, live.function(), heartbeat);
    live.clear();
    Output output = common->output();
    output.on_stderr = !a.command.empty();
    const int code =
        write_report(output,
                     {[&] { return render_text(r, text_style(ColorMode::never)); },
                      [&] { return render_json(r); }, [&] { return render_markdown(r); }},
                     r.exit_code);
    if (a.command.empty() || !command_runs(code))
        return code;
    return run_command(a.command);
}

std::function<int()> declare(CLI::App& sub, std::vector<std::string> after_dashes) {
    auto args = std::make_shared<WaitArgs>();
    args->command = std::move(after_dashes);
    constexpr Command c = Command::wait;
    add_table_option(sub, c, "target", args->targets);
    add_table_option(sub, c, "--for", args->limit);
    add_table_option(sub, c, "--timeout", args->limit);
    add_table_option(sub, c, "--interval", args->interval);
    add_table_option(sub, c, "--http", args->http);
    add_table_option(sub, c, "--expect-status", args->expect_status);
    add_table_option(sub, c, "--all-addresses", args->all_addresses);
    add_table_option(sub, c, "--strict", args->strict);
    add_table_option(sub, c, "--down", args->down);
    add_common_options(sub, args->common, c);
    return [args] { return run(*args); };
}

} // namespace

const CommandEntry wait_command{
    "wait",
    "wait until every TARGET accepts, or an http:// URL answers 2xx/3xx (with --down, until "
    "none accepts); then exit 0 or run the COMMAND after --",
    R"(And with a command: loopcheck wait [OPTIONS] TARGET... -- COMMAND [ARGS...]

Polls every address of every TARGET at once, each every --interval (25 ms:
about 40 connects a second per address, each closed at once), until each
TARGET has an address that accepts. For an http:// URL (or with --http
PATH) an accept is not enough: a GET of the path must answer a status in
--expect-status (200-399), so a 503 while the application starts is "not
yet". A later address in resolver order coming up while an earlier one
does not is a warning (an error with --strict). A name that does not
resolve yet is asked for again until --for (-t) runs out. Without a
terminal, stderr gets a start line and a line every 5 s (not with -q).

After -- : the command to run once every target is up, in loopcheck's
place; its exit status is loopcheck's (127 not found). The report goes to
stderr then. On Windows a .cmd or .bat needs `cmd /c NAME`.

Exit codes: 0 done, 1 --strict and resolver order costs in-order clients,
2 usage error (nothing waited for), 3 --for ran out (the report says why),
4 a name never resolved, 5 internal error, 130 Ctrl-C, 143 SIGTERM; with a
COMMAND, its own exit status once it ran.

Examples:
  loopcheck wait localhost:8000 && npm test
  loopcheck wait -t 2m http://localhost:8000/health -- python3 app.py
  loopcheck wait --for 2m --strict localhost:8000 localhost:5432
  loopcheck wait --down --for 10s 127.0.0.1:8000)",
    declare, true};

} // namespace loopcheck
