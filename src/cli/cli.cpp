#include "loopcheck/cli/cli.hpp"

#include "loopcheck/cli/cmd_check.hpp"
#include "loopcheck/cli/command.hpp"
#include "loopcheck/cli/options.hpp"
#include "loopcheck/cli/version.hpp"
#include "loopcheck/core/exit_codes.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <functional>
#include <string>
#include <string_view>
#include <variant>

namespace loopcheck {

namespace {

constexpr const char* description =
    "loopcheck resolves a name to its ordered address list, connects to every address, times "
    "each refused or accepted connect, and says in plain words what each kind of client pays "
    "and how to fix it. With no TARGET it checks this machine itself.";

constexpr const char* footer = R"(Targets:
  localhost:11434  [::1]:8080  127.0.0.1:9  http://localhost:11434/v1  11434 (= localhost:11434)

Exit codes:
  0  healthy: every target connects and nothing is slower than --threshold
  1  slow: a refusal, fallback or connect took longer than --threshold
  2  usage error: a bad option or target; nothing was probed
  3  server down: no address of a target accepted (refusals fast)
  4  a name did not resolve
  5  internal error
  130 interrupted (the report so far is still printed)
  With several targets the first of 130, 5, 2, 4, 1, 3, 0 that applies wins.

Examples:
  loopcheck localhost:11434                  dev box: why is my client slow to reach Ollama?
  loopcheck --json localhost:8000 >r.json    CI: the exit code says healthy (0), slow (1), down (3)
  loopcheck --markdown localhost:8000        bug ticket: a report to paste into the issue
  loopcheck --expect refused 127.0.0.1:9     test harness: a closed port must refuse fast
  loopcheck scan                             codebase: which localhost URLs cost ~2 s on Windows

Docs: docs/usage.md, docs/diagnosis.md, man loopcheck)";

std::string join_command_line(int argc, char** argv) {
    std::string out = "loopcheck";
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        const bool plain =
            !arg.empty() && arg.find_first_of(" \t\"'$`\\|&;<>()*?[]{}!#~") == std::string::npos;
        out += ' ';
        if (plain) {
            out += arg;
        } else {
            out += '\'';
            for (char c : arg)
                out += c == '\'' ? std::string("'\\''") : std::string(1, c);
            out += '\'';
        }
    }
    return out;
}

/// True when a word is a subcommand's name or asks for help (CLI11's -h,
/// --help, --help-all, also inside a bundle as -vh).
bool names_a_subcommand(std::string_view word) {
    if (word == "audit" || word == "listen" || word == "scan" || word == "staircase" ||
        word == "wait" ||
        word.starts_with("--help"))
        return true;
    return word.size() > 1 && word[0] == '-' && word[1] != '-' &&
           word.find('h') != std::string_view::npos;
}

bool may_name_a_subcommand(int argc, char** argv) {
    return std::any_of(argv + 1, argv + argc,
                       [](const char* word) { return names_a_subcommand(word); });
}

/// The main command's own options, as typed.
struct CheckArgs {
    CommonArgs common;
    std::vector<std::string> targets;
    int count = 1;
    bool ipv4 = false, ipv6 = false, quick = false, no_pair = false;
    std::string expect;
    std::optional<int> syn_retries;
    std::vector<std::string> emulate;
};

void add_check_options(CLI::App& app, CheckArgs& a) {
    app.add_option("target", a.targets,
                   "host:port, [v6]:port, URL or bare port; none = check this machine")
        ->type_name("TARGET");
    app.add_option("-n,--count", a.count, "connect to every address N times (default 1)")
        ->type_name("N");
    app.add_flag("-4,--ipv4", a.ipv4, "resolve and probe IPv4 addresses only");
    app.add_flag("-6,--ipv6", a.ipv6, "resolve and probe IPv6 addresses only");
    add_common_options(app, a.common);
    app.add_option("--expect", a.expect,
                   "'refused': exit 0 when every address refuses fast (test harnesses)")
        ->check(CLI::IsMember({"refused"}))
        ->type_name("refused");
    app.add_flag("--quick", a.quick,
                 "Windows: skip the ~2 s default-stack probes of loopback addresses and infer them "
                 "from the no-SYN-retry probe and the retry limit");
    app.add_flag("--no-pair", a.no_pair,
                 "Windows: probe once per address, without the no-SYN-retry twin");
    app.add_option("--syn-retries", a.syn_retries,
                   "Windows: MaxSynRetransmissions for every probe; Linux: TCP_SYNCNT")
        ->check(CLI::Range(0, 253))
        ->type_name("N");
    app.add_option("--emulate", a.emulate,
                   "run a client's connect algorithm for real, once per round (-n): "
                   "sequential, happy-eyeballs[=250ms], go[=300ms], node (repeatable)")
        ->allow_extra_args(false) // one strategy per --emulate; later words are targets
        ->type_name("STRATEGY");
}

/// The check's options from what was typed, or the one-line usage error.
Result<Options> check_options(const CheckArgs& a) {
    auto common = validate_common(a.common);
    if (!common)
        return common.error();
    if (a.count < 1 || a.count > max_count)
        return usage_error(fmt::format("--count must be from 1 to {}", max_count));
    if (a.ipv4 && a.ipv6)
        return usage_error("-4 and -6 exclude each other");
    if (a.quick && (a.no_pair || a.syn_retries))
        return usage_error("--quick needs the paired probes: not with --no-pair or --syn-retries");
    Options opt;
    apply_common(opt, *common);
    for (const auto& text : a.emulate) {
        auto spec = parse_emulation(text);
        if (!spec)
            return spec.error();
        opt.emulate.push_back(std::move(*spec));
    }
    opt.targets = a.targets;
    opt.count = a.count;
    opt.family = a.ipv4 ? FamilyFilter::ipv4 : (a.ipv6 ? FamilyFilter::ipv6 : FamilyFilter::any);
    opt.expect_refused = a.expect == "refused";
    opt.no_pair = a.no_pair;
    opt.quick = a.quick;
    opt.syn_retries = a.syn_retries;
    return opt;
}

/// The check's options as the parse's result, or its usage error (printed).
ParsedCommandLine checked(const CheckArgs& args, int argc, char** argv) {
    auto opt = check_options(args);
    if (!opt)
        return usage_failure(opt.error().message);
    opt->command_line = join_command_line(argc, argv);
    return std::move(*opt);
}

} // namespace

std::optional<std::vector<std::string>> plain_targets(int argc, char** argv) {
    std::vector<std::string> targets;
    for (int i = 1; i < argc; ++i) {
        const std::string_view word = argv[i];
        // An option, "--", "-" or an empty word: CLI11 decides what they mean.
        if (word.empty() || word.front() == '-')
            return std::nullopt;
        if (names_a_subcommand(word))
            return std::nullopt;
        targets.emplace_back(word);
    }
    return targets;
}

ParsedCommandLine parse_command_line(int argc, char** argv, bool shortcut) {
    // `loopcheck localhost:11434` and the bare self-check are most runs, and
    // CLI11 building the check's option table is a third of such a run's
    // instructions and a dozen page faults (docs/performance.md, "The fourth
    // round"). Words that CLI11 could only read as targets skip it; the
    // defaults and the validation are the same ones (CheckArgs,
    // check_options), and tests compare the two readings.
    if (shortcut)
        if (auto targets = plain_targets(argc, argv)) {
            CheckArgs args;
            args.targets = std::move(*targets);
            return checked(args, argc, argv);
        }

    CLI::App app{description, "loopcheck"};
    app.set_version_flag("-V,--version", version_string());
    app.footer(footer);
    app.get_formatter()->column_width(34);

    CheckArgs args;
    add_check_options(app, args);
    // Subcommands; each one's file adds itself here. Building their option
    // tables is a quarter of a one-target run's instructions
    // (docs/performance.md), so they are built only when the command line
    // could need them: a word that names one, or a request for help, which
    // lists them. Otherwise CLI11 would read no word as a subcommand anyway
    // (it matches their names exactly), and the parse is the same.
    std::vector<Command> commands;
    if (may_name_a_subcommand(argc, argv)) {
        commands.push_back(add_audit_command(app));
        commands.push_back(add_listen_command(app));
        commands.push_back(add_scan_command(app));
        commands.push_back(staircase_command(app));
        commands.push_back(add_wait_command(app));
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return usage_failure(e.what());
    }
    for (auto& command : commands)
        if (command.app->parsed())
            return std::move(command.run);
    return checked(args, argc, argv);
}

int run_cli(int argc, char** argv) {
    // The parser and its option tables are freed before the run starts, so
    // the run reuses their heap instead of touching new pages: each new page
    // is a fault, and faults are most of a short run's time
    // (docs/performance.md, "The third round").
    auto parsed = parse_command_line(argc, argv);
    if (const int* code = std::get_if<int>(&parsed))
        return *code;
    if (auto* run = std::get_if<std::function<int()>>(&parsed))
        return (*run)();
    return run_check(std::get<Options>(parsed));
}

} // namespace loopcheck
