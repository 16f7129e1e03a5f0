// The command line: CLI11 definitions, validation, and the one place
// where usage errors become exit code 2.
#pragma once

namespace loopcheck {

/// Parses argv and runs the requested command; returns the process exit
/// code. Never throws.
int run_cli(int argc, char** argv);

} // namespace loopcheck
