// The command line: CLI11 definitions, validation, and the one place
// where usage errors become exit code 2.
#pragma once

#include "cli/cmd_check.hpp"

#include <functional>
#include <string>
#include <variant>

namespace loopcheck {

/// What the command line asks for: an exit code (help, version, a usage
/// error, already printed), a subcommand's run, or the check's command.
using ParsedCommandLine = std::variant<int, std::function<int()>, CheckCommand>;

/// Reads argv: the option table's CLI11 set-up for the main command and
/// every subcommand (cli/options.cpp), then the check's validation.
ParsedCommandLine parse_command_line(int argc, char** argv);

/// Parses argv and runs the requested command; returns the process exit
/// code. Never throws.
int run_cli(int argc, char** argv);

} // namespace loopcheck
