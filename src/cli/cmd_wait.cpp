// `loopcheck wait TARGET...`: its options, resolving the targets, and the
// report. The polling itself is in wait_poll.cpp; src/core/wait.cpp decides
// when a target's goal is met and what the report concludes.
#include "loopcheck/cli/command.hpp"
#include "loopcheck/cli/options.hpp"
#include "loopcheck/cli/version.hpp"
#include "loopcheck/cli/wait_poll.hpp"
#include "loopcheck/core/listener_queries.hpp"
#include "loopcheck/core/target.hpp"
#include "loopcheck/core/wait.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/report/wait_report.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
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

Result<WaitReport> wait_options(const WaitArgs& a, std::vector<Target>& targets) {
    auto common = validate_common(a.common);
    if (!common)
        return common.error();
    WaitReport r;
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
        auto t = parse_target(text);
        if (!t)
            return t.error();
        targets.push_back(std::move(*t));
    }
    r.limit = *limit;
    r.interval = *interval;
    r.strict = a.strict;
    r.goal = a.down ? WaitGoal::down
                    : (a.all_addresses ? WaitGoal::all_addresses : WaitGoal::any_address);
    return r;
}

std::string command_line(const WaitArgs& a) {
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
    return out;
}

/// Resolves each distinct name once, in resolver order; a literal is its
/// own address.
void resolve(WaitReport& r) {
    std::map<std::string, Result<std::vector<Address>>> answers;
    for (auto& t : r.targets) {
        if (t.target.literal) {
            t.addresses.emplace_back().address = *t.target.literal;
            continue;
        }
        auto it = answers.find(t.target.host);
        if (it == answers.end())
            it = answers
                     .emplace(t.target.host, platform::resolve(t.target.host, 0, FamilyFilter::any))
                     .first;
        if (!it->second) {
            t.resolve_error = it->second.error();
            continue;
        }
        for (Address a : *it->second) {
            a.port = t.target.port;
            t.addresses.emplace_back().address = a;
        }
    }
}

/// For each local target the wait gave up on: who listens on its port now.
void attach_listeners(WaitReport& r) {
    for (auto& t : r.targets) {
        if (t.done_at || t.resolve_error || t.addresses.empty())
            continue;
        const bool local =
            std::all_of(t.addresses.begin(), t.addresses.end(), [](const WaitAddress& a) {
                return is_loopback(a.address) || is_unspecified(a.address);
            });
        if (!local)
            continue;
        auto table = platform::list_listeners(t.target.port);
        if (!table) {
            t.listener_error = table.error().message;
            continue;
        }
        t.listeners = listeners_on_port(table->listeners, t.target.port);
    }
}

int run_wait(const WaitArgs& a) {
    std::vector<Target> targets;
    auto parsed = wait_options(a, targets);
    if (!parsed)
        return usage_failure(parsed.error().message);
    WaitReport& r = *parsed;
    const auto common = validate_common(a.common);
    const CommandSetup setup(common->verbosity);
    if (auto code = setup.failed())
        return *code;
    r.loopcheck_version = std::string(version());
    r.command_line = command_line(a);
    for (auto& t : targets)
        r.targets.push_back({std::move(t), {}, {}, {}, {}, {}});
    resolve(r);

    // A name that does not resolve is not waited for: exit 4 at once.
    const bool unresolved = std::any_of(r.targets.begin(), r.targets.end(),
                                        [](const WaitTarget& t) { return t.resolve_error; });
    if (!unresolved) {
        const SystemFacts facts = platform::system_facts();
        log::debug("waiting up to {} for {} target(s)", format_duration(r.limit), r.targets.size());
        poll_until_done(r, facts,
                        common->verbosity >= 0 && platform::is_terminal(platform::Stream::err));
        if (r.timed_out)
            attach_listeners(r);
    }
    conclude_wait(r);
    write_report(common->format,
                 {[&] { return render_wait_text(r); }, [&] { return render_wait_json(r); },
                  [&] { return render_wait_markdown(r); }});
    return r.exit_code;
}

} // namespace

Command add_wait_command(CLI::App& app) {
    auto args = std::make_shared<WaitArgs>();
    CLI::App* sub = app.add_subcommand(
        "wait", "wait until every TARGET accepts (or, with --down, none does); exit 0 when it "
                "does, 3 when --for runs out, 1 with --strict when resolver order costs clients");
    sub->footer(R"(Polls every address of every TARGET at once, each every --interval (25 ms:
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
  loopcheck wait --down --for 10s 127.0.0.1:8000)");
    sub->add_option("target", args->targets, "host:port, [v6]:port, URL or bare port")
        ->type_name("TARGET")
        ->required();
    sub->add_option("--for", args->limit, "how long to wait in all (default 30s)")
        ->type_name("DURATION");
    sub->add_option("--interval", args->interval,
                    "pause between two polls of one address (default 25ms, from 1ms to 60s)")
        ->type_name("DURATION");
    sub->add_flag("--all-addresses", args->all_addresses,
                  "wait until every address of each target has accepted");
    sub->add_flag("--strict", args->strict,
                  "exit 1 when an address before the accepting one in resolver order does not "
                  "accept (in-order clients pay for it)");
    sub->add_flag("--down", args->down,
                  "wait until every address of each target refuses (the port is free)");
    add_common_options(
        *sub, args->common,
        {.timeout = false, .threshold = false, .format = true, .color = false, .quiet = true});
    return {sub, [args] { return run_wait(*args); }};
}

} // namespace loopcheck
