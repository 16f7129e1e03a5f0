// Logging on stderr with spdlog; stdout is only ever the report.
#pragma once

namespace loopcheck {

/// -1 (-q): errors only; 0: warnings; 1 (-v): each step with microsecond
/// timestamps; 2 (-vv): every socket call and its result. Call once.
void setup_logging(int verbosity);

} // namespace loopcheck
