// The command line: argv -> the command table (src/cli/commands.cpp) or
// the main command's options -> a run; the one place where usage errors
// become exit code 2.
#include "cli/cli.hpp"

#include "cli/command.hpp"
#include "cli/help_format.hpp"
#include "cli/options.hpp"
#include "cli/usage.hpp"
#include "cli/version.hpp"
#include "loopcheck/core/input/target.hpp"
#include "loopcheck/platform/platform.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>

namespace loopcheck {

namespace {

std::string join_command_line(int argc, char** argv, Secrets secrets) {
    std::string out = "loopcheck";
    for (int i = 1; i < argc; ++i) {
        // A URL's "user:pass@" and query values never reach a report, nor
        // an argument after --token and its kind (docs/usage.md, Redaction).
        std::string arg = secrets == Secrets::keep
                              ? std::string(argv[i])
                              : redact_argument(argv[i], i > 1 ? argv[i - 1] : "");
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

/// The check's command as the parse's result, or its usage error (printed).
ParsedCommandLine checked(const CheckArgs& args, int argc, char** argv) {
    const Secrets secrets = args.common.no_redact ? Secrets::keep : Secrets::redact;
    auto command = check_command(args, join_command_line(argc, argv, secrets));
    if (!command) {
        // `loopcheck wiat`: a typo of a command, not a target without a port.
        if (!args.targets.empty())
            if (auto typo = unknown_command(args.targets.front()))
                return usage_failure(*typo);
        return usage_failure(command.error().message);
    }
    return std::move(*command);
}

} // namespace

namespace {

/// Each declared subcommand with the run its options fill in.
using Declared = std::vector<std::pair<CLI::App*, std::function<int()>>>;

// The subcommands, from the one table. `after_dashes` goes to the one
// that was named (split_after_dashes).
Declared declare_subcommands(CLI::App& app, std::string_view named,
                             const std::vector<std::string>& after_dashes) {
    Declared declared;
    for (const CommandEntry* c : subcommands()) {
        CLI::App* sub = app.add_subcommand(std::string(c->name), std::string(c->summary));
        sub->footer(std::string(c->footer));
        declared.emplace_back(
            sub, c->declare(*sub, c->name == named ? after_dashes : std::vector<std::string>{}));
    }
    return declared;
}

/// For a command that runs one after `--` (wait), the words from the
/// first `--` after its name on, cut off `words`; nothing otherwise.
std::vector<std::string> split_after_dashes(std::vector<std::string>& words,
                                            std::optional<std::size_t> sub_at) {
    if (!sub_at)
        return {};
    const auto entries = subcommands();
    const bool takes = std::any_of(entries.begin(), entries.end(), [&](const CommandEntry* c) {
        return c->command_after_dashes && c->name == words[*sub_at];
    });
    if (!takes)
        return {};
    const auto dashes = std::find(words.begin() + static_cast<std::ptrdiff_t>(*sub_at) + 1,
                                  words.end(), std::string("--"));
    if (dashes == words.end())
        return {};
    std::vector<std::string> tail(dashes + 1, words.end());
    words.erase(dashes, words.end());
    return tail;
}

/// Parses argv into `app`; the exit code when the parse ends the run (help,
/// version or a usage error), nothing when a command is to run. `sub_word`
/// is the subcommand's word, empty when there is none: a usage error shows
/// that subcommand's usage.
std::optional<ParsedCommandLine> parse_or_exit(CLI::App& app, int argc, char** argv,
                                               const Declared& declared,
                                               std::string_view sub_word) {
    // Help and version text are rendered into a string and written like a
    // report: a lost write is exit 5, not 0 (issue 28).
    std::ostringstream text;
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        const int code = app.exit(e, text);
        return write_stdout(text.str(), code);
    } catch (const CLI::CallForAllHelp& e) {
        const int code = app.exit(e, text);
        return write_stdout(text.str(), code);
    } catch (const CLI::CallForVersion& e) {
        const int code = app.exit(e, text);
        return write_stdout(text.str(), code);
    } catch (const CLI::ParseError& e) {
        const CLI::App* parsing = &app;
        if (!sub_word.empty())
            for (const auto& entry : declared)
                if (entry.first->get_name() == sub_word)
                    parsing = entry.first;
        return usage_failure(usage_message(e, *parsing));
    }
    return std::nullopt;
}

/// The run of the subcommand CLI11 parsed, or a usage error; nothing when
/// the main command (the check) is to run.
std::optional<ParsedCommandLine> parsed_subcommand(Declared& declared, const CheckArgs& args) {
    for (auto& [sub, run] : declared)
        if (sub->parsed()) {
            // `loopcheck localhost:1 audit`: CLI11 read the target as the
            // check's and ran audit without it.
            if (!args.targets.empty())
                return usage_failure(fmt::format(
                    "'{}' before '{}': a subcommand's name comes first (loopcheck {} ...)",
                    args.targets.front(), sub->get_name(), sub->get_name()));
            return std::move(run);
        }
    return std::nullopt;
}

} // namespace

ParsedCommandLine parse_command_line(int argc, char** argv) {
    set_usage_command({});
    // A shared option typed before the subcommand means what it means
    // after it: the words are reordered so that the subcommand reads them
    // (cli/usage.cpp); CLI11 would give them to the main command, which
    // ignored them.
    // `loopcheck help wiat`: a typo, not a request for the main help.
    if (auto typo = unknown_help_topic({argv + 1, argv + argc}))
        return usage_failure(*typo);
    // `loopcheck check TARGET...` and `loopcheck doctor` name the check.
    auto named = drop_check_name({argv + 1, argv + argc});
    if (!named)
        return usage_failure(named.error().message);
    std::vector<std::string> words = hoist_global_options(std::move(*named));
    const auto sub_at = subcommand_index(words);
    const std::vector<std::string> after_dashes = split_after_dashes(words, sub_at);
    std::vector<char*> hoisted{argv[0]};
    for (auto& w : words)
        hoisted.push_back(w.data());
    argc = static_cast<int>(hoisted.size());
    argv = hoisted.data();
    const std::string_view sub_word =
        sub_at ? std::string_view(words[*sub_at]) : std::string_view();
    set_usage_command(sub_word);

    CLI::App app{check_description, "loopcheck"};
    app.set_version_flag("-V,--version", version_string());
    app.footer(check_footer);
    // Within 80 columns, ending with where the manual is on this OS.
    app.formatter(help_formatter(platform::build_os()));

    CheckArgs args;
    add_check_options(app, args);
    Declared declared = declare_subcommands(app, sub_word, after_dashes);
    if (auto ended = parse_or_exit(app, argc, argv, declared, sub_word))
        return std::move(*ended);
    if (auto run = parsed_subcommand(declared, args))
        return std::move(*run);
    return checked(args, argc, argv);
}

int run_cli(int argc, char** argv) {
    // The parser and its option tables are freed before the run starts, so
    // the run reuses their heap (docs/performance.md).
    auto parsed = parse_command_line(argc, argv);
    if (const int* code = std::get_if<int>(&parsed))
        return *code;
    if (auto* run = std::get_if<std::function<int()>>(&parsed))
        return (*run)();
    return run_check_command(std::get<CheckCommand>(parsed));
}

} // namespace loopcheck
