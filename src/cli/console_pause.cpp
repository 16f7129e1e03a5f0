// The double-click pause's decision (cli/console_pause.hpp).
#include "cli/console_pause.hpp"

namespace loopcheck {

bool pause_before_exit(std::optional<unsigned> processes_on_console,
                       bool output_on_console) noexcept {
    return processes_on_console == 1u && output_on_console;
}

} // namespace loopcheck
