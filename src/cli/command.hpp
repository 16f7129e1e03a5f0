// The one command table: every subcommand's name, help and options, and
// the function that turns its options into a request, runs it and renders
// the report. Dispatch and --help both read it (src/cli/cli.cpp).
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace loopcheck {

struct CommandEntry {
    std::string_view name;    ///< the word after `loopcheck`
    std::string_view summary; ///< one line in `loopcheck --help`
    std::string_view footer;  ///< the end of `loopcheck NAME --help`
    /// Declares the command's options on its CLI11 subcommand and returns
    /// what runs after a successful parse: options -> request -> run ->
    /// report on stdout -> exit code. `after_dashes`: the words after `--`
    /// for a command that runs one once it is done (`wait TARGET... --
    /// COMMAND`), cut off before CLI11 parses, which cannot put a second
    /// list of positionals after a first; empty for the others.
    std::function<int()> (*declare)(CLI::App& sub, std::vector<std::string> after_dashes);
    /// Whether `--` ends this command's own words (wait), rather than
    /// being left to CLI11 (trace's COMMAND is its only positional).
    bool command_after_dashes = false;
};

/// `loopcheck audit` (src/cli/cmd_audit.cpp).
extern const CommandEntry audit_command;
/// `loopcheck completion` (src/cli/cmd_completion.cpp).
extern const CommandEntry completion_command;
/// `loopcheck listen` (src/cli/cmd_listen.cpp).
extern const CommandEntry listen_command;
/// `loopcheck scan` (src/cli/cmd_scan.cpp).
extern const CommandEntry scan_command;
/// `loopcheck staircase` (src/cli/cmd_staircase.cpp).
extern const CommandEntry staircase_command;
/// `loopcheck trace` (src/cli/cmd_trace.cpp).
extern const CommandEntry trace_command;
/// `loopcheck wait` (src/cli/cmd_wait.cpp).
extern const CommandEntry wait_command;

/// Every subcommand, in --help's order.
std::span<const CommandEntry* const> subcommands();

/// A name of the main command, the check, which runs without one:
/// `loopcheck check TARGET...` is `loopcheck TARGET...`, and `loopcheck
/// doctor` the self-check (`loopcheck` alone). cli/usage.cpp drops the
/// word before the parse; --help and the completions list them.
struct CheckName {
    std::string_view name;
    std::string_view summary;
    bool takes_targets = false;
};

/// `check` and `doctor`.
std::span<const CheckName> check_names();

} // namespace loopcheck
