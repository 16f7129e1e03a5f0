// `loopcheck [TARGET...]`: the check itself (src/cli/cmd_check.cpp): parse
#pragma once

#include "loopcheck/cli/options.hpp"

namespace loopcheck {

/// Runs a check with validated options; prints the report on stdout and
/// returns the exit code.
int run_check(const Options& options);

} // namespace loopcheck
