#include "loopcheck/cli.hpp"

#include "loopcheck/app.hpp"
#include "loopcheck/command.hpp"
#include "loopcheck/exit_codes.hpp"
#include "loopcheck/options.hpp"
#include "loopcheck/version.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <string>
#include <string_view>

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

Docs: docs/usage.md, docs/diagnosis.md, man loopcheck)";

std::string one_line(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    while (!s.empty() && s.back() == ' ')
        s.pop_back();
    return s;
}

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

/// True when a word of the command line is a subcommand's name or asks
/// for help (CLI11's -h, --help, --help-all, also inside a bundle as -vh).
bool may_name_a_subcommand(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view word = argv[i];
        if (word == "audit" || word == "listen" || word == "staircase" ||
            word.starts_with("--help"))
            return true;
        if (word.size() > 1 && word[0] == '-' && word[1] != '-' &&
            word.find('h') != std::string_view::npos)
            return true;
    }
    return false;
}

} // namespace

int usage_failure(const std::string& message) {
    std::fputs(fmt::format("loopcheck: error: {}\n", one_line(message)).c_str(), stderr);
    return exit_code::usage;
}

int run_cli(int argc, char** argv) {
    CLI::App app{description, "loopcheck"};
    app.set_version_flag("-V,--version", version_string());
    app.footer(footer);
    app.get_formatter()->column_width(34);

    Options opt;
    std::string timeout_text = "5s", threshold_text = "100ms", format_text = "text",
                color_text = "auto", expect_text;
    int verbose = 0;
    bool quiet = false, json = false, markdown = false, ipv4 = false, ipv6 = false;
    std::optional<int> syn_retries;
    std::vector<std::string> emulate_text;

    app.add_option("target", opt.targets,
                   "host:port, [v6]:port, URL or bare port; none = check this machine")
        ->type_name("TARGET");
    app.add_option("-t,--timeout", timeout_text,
                   "give up on one connect after this long: 250ms, 2s, 1.5 (default 5s)")
        ->type_name("DURATION");
    app.add_option("--threshold", threshold_text,
                   "a connect, refusal or fallback slower than this is slow (default 100ms)")
        ->type_name("DURATION");
    app.add_option("-n,--count", opt.count, "connect to every address N times (default 1)")
        ->type_name("N");
    app.add_flag("-4,--ipv4", ipv4, "resolve and probe IPv4 addresses only");
    app.add_flag("-6,--ipv6", ipv6, "resolve and probe IPv6 addresses only");
    app.add_option("--format", format_text, "text, json or markdown (default text)")
        ->check(CLI::IsMember({"text", "json", "markdown"}))
        ->type_name("FORMAT");
    app.add_flag("--json", json, "same as --format json");
    app.add_flag("--markdown", markdown, "same as --format markdown");
    app.add_option("--color", color_text, "auto, always or never (default auto; NO_COLOR honoured)")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->type_name("WHEN");
    app.add_option("--expect", expect_text,
                   "'refused': exit 0 when every address refuses fast (test harnesses)")
        ->check(CLI::IsMember({"refused"}))
        ->type_name("refused");
    app.add_flag("--quick", opt.quick,
                 "Windows: skip the ~2 s default-stack probes of loopback addresses and infer them "
                 "from the no-SYN-retry probe and the retry limit");
    app.add_flag("--no-pair", opt.no_pair,
                 "Windows: probe once per address, without the no-SYN-retry twin");
    app.add_option("--syn-retries", syn_retries,
                   "Windows: MaxSynRetransmissions for every probe; Linux: TCP_SYNCNT")
        ->check(CLI::Range(0, 253))
        ->type_name("N");
    app.add_option("--emulate", emulate_text,
                   "run a client's connect algorithm for real: sequential, "
                   "happy-eyeballs[=250ms], go[=300ms], node (repeatable)")
        ->allow_extra_args(false) // one strategy per --emulate; later words are targets
        ->type_name("STRATEGY");
    app.add_flag("-v,--verbose", verbose, "log each step on stderr; -vv every socket call");
    app.add_flag("-q,--quiet", quiet, "print nothing on stderr but errors");

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
        commands.push_back(staircase_command(app));
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
    for (const auto& command : commands)
        if (command.app->parsed())
            return command.run();

    auto timeout = parse_duration(timeout_text);
    if (!timeout)
        return usage_failure(fmt::format("--timeout: {}", timeout.error().message));
    if (*timeout <= Micros{0} || *timeout > max_timeout)
        return usage_failure("--timeout must be above 0 and at most 1 hour");
    auto threshold = parse_duration(threshold_text);
    if (!threshold)
        return usage_failure(fmt::format("--threshold: {}", threshold.error().message));
    if (*threshold <= Micros{0})
        return usage_failure("--threshold must be above 0");
    if (opt.count < 1 || opt.count > max_count)
        return usage_failure(fmt::format("--count must be from 1 to {}", max_count));
    if (ipv4 && ipv6)
        return usage_failure("-4 and -6 exclude each other");
    if ((json && markdown) || ((json || markdown) && format_text != "text"))
        return usage_failure("choose one output format");
    if (opt.quick && (opt.no_pair || syn_retries))
        return usage_failure(
            "--quick needs the paired probes: not with --no-pair or --syn-retries");
    if (quiet && verbose > 0)
        return usage_failure("-q and -v exclude each other");

    for (const auto& text : emulate_text) {
        auto spec = parse_emulation(text);
        if (!spec)
            return usage_failure(spec.error().message);
        opt.emulate.push_back(std::move(*spec));
    }
    opt.timeout = *timeout;
    opt.threshold = *threshold;
    opt.family = ipv4 ? platform::FamilyFilter::ipv4
                      : (ipv6 ? platform::FamilyFilter::ipv6 : platform::FamilyFilter::any);
    opt.format = json || format_text == "json"           ? Format::json
                 : markdown || format_text == "markdown" ? Format::markdown
                                                         : Format::text;
    opt.color = color_text == "always"  ? ColorMode::always
                : color_text == "never" ? ColorMode::never
                                        : ColorMode::automatic;
    opt.verbosity = quiet ? -1 : std::min(verbose, 2);
    opt.expect_refused = expect_text == "refused";
    opt.syn_retries = syn_retries;
    opt.command_line = join_command_line(argc, argv);
    return run_check(opt);
}

} // namespace loopcheck
