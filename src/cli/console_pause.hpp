// Whether loopcheck waits for Enter before it exits: started by a
// double-click, Windows gives it a console of its own that closes the
// moment it ends, and the self-check would only flash by.
#pragma once

#include <optional>
#include <string_view>

namespace loopcheck {

/// True when loopcheck is the only process on its console
/// (`processes_on_console`, platform::processes_on_console(): 1) and its
/// report went to that console (`output_on_console`): nobody else keeps
/// the window open, and there is something in it to read. A shell shares
/// its console (2 or more); POSIX and a redirected stdin give nullopt.
bool pause_before_exit(std::optional<unsigned> processes_on_console,
                       bool output_on_console) noexcept;

/// The line shown while it waits.
inline constexpr std::string_view pause_prompt =
    "loopcheck started in a window of its own: press Enter to close it.";

} // namespace loopcheck
