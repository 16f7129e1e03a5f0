// The command table: every subcommand, in --help's order, and the names
// of the main command.
#include "cli/command.hpp"

#include <array>

namespace loopcheck {

std::span<const CommandEntry* const> subcommands() {
    static const std::array<const CommandEntry*, 7> table = {
        &audit_command,     &completion_command, &listen_command, &scan_command,
        &staircase_command, &trace_command,      &wait_command};
    return table;
}

std::span<const CheckName> check_names() {
    static constexpr std::array<CheckName, 2> names = {{
        {"check", "the default command by name: loopcheck check TARGET... is loopcheck TARGET...",
         true},
        {"doctor", "check this machine itself (what loopcheck with no TARGET does)", false},
    }};
    return names;
}

} // namespace loopcheck
