// Subcommands (loopcheck staircase, audit, listen, scan, wait): each lives in its own
// src/cli/cmd_<name>.cpp, registers itself on the CLI11 app and runs when chosen.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace loopcheck {

struct Command {
    CLI::App* app = nullptr;  ///< the CLI11 subcommand
    std::function<int()> run; ///< called after a successful parse; returns the exit code
};

/// `loopcheck audit`: every listener a loopback client can reach, and what
/// localhost:PORT costs (src/cli/cmd_audit.cpp).
Command add_audit_command(CLI::App& app);

/// `loopcheck listen`: throwaway listeners to reproduce a set-up
/// (src/cli/cmd_listen.cpp).
Command add_listen_command(CLI::App& app);
/// `loopcheck scan [PATH...]`: the loopback URLs in a codebase and what
/// each costs (src/cli/cmd_scan.cpp).
Command add_scan_command(CLI::App& app);
/// `loopcheck staircase [TARGET]` (src/cli/cmd_staircase.cpp).
Command staircase_command(CLI::App& app);
/// `loopcheck wait TARGET...` (src/cli/cmd_wait.cpp).
Command add_wait_command(CLI::App& app);

} // namespace loopcheck
