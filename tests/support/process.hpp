// Runs the real loopcheck binary for end-to-end tests.
#pragma once

#include <string>
#include <vector>

namespace loopcheck::test {

struct RunResult {
    int exit_code = -1;
    std::string out;
    std::string err;
};

/// Runs loopcheck with `args` (each quoted for the shell; on Windows started
/// directly, without cmd.exe) and captures its exit code, stdout and stderr.
RunResult run_loopcheck(const std::vector<std::string>& args);

/// Runs a shell command line as given (POSIX sh, or cmd.exe on Windows)
/// and captures its exit code, stdout and stderr.
RunResult run_command(const std::string& command_line);

/// Lines of `text` (without the newline characters).
std::vector<std::string> lines(const std::string& text);

} // namespace loopcheck::test
