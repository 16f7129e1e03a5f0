// The command line: CLI11 definitions, validation, and the one place
// where usage errors become exit code 2.
#pragma once

#include "cli/cmd_check.hpp"

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace loopcheck {

/// What the command line asks for: an exit code (help, version, a usage
/// error, already printed), a subcommand's run, or the check's command.
using ParsedCommandLine = std::variant<int, std::function<int()>, CheckCommand>;

/// Reads argv. With `shortcut`, a command line whose words can only be
/// targets (or that has none) is read without building CLI11's tables;
/// without it CLI11 reads every command line. Both give the same result.
ParsedCommandLine parse_command_line(int argc, char** argv, bool shortcut = true);

/// The targets when every word after argv[0] is one: not empty, not an
/// option (a leading '-'), not a subcommand's name. std::nullopt otherwise.
std::optional<std::vector<std::string>> plain_targets(int argc, char** argv);

/// Parses argv and runs the requested command; returns the process exit
/// code. Never throws.
int run_cli(int argc, char** argv);

} // namespace loopcheck
