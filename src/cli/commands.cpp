// The command table: every subcommand, in --help's order.
#include "cli/command.hpp"

#include <array>

namespace loopcheck {

std::span<const CommandEntry* const> subcommands() {
    static const std::array<const CommandEntry*, 7> table = {
        &audit_command,     &completion_command, &listen_command, &scan_command,
        &staircase_command, &trace_command,      &wait_command};
    return table;
}

} // namespace loopcheck
