// `loopcheck [TARGET...]`: the main command's options, its request, and
// its run (src/cli/cmd_check.cpp).
#pragma once

#include "cli/options.hpp"
#include "loopcheck/run/check.hpp"

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace loopcheck {

/// The check's request and how its report is written.
struct CheckCommand {
    CheckRequest request;
    Output output;

    friend bool operator==(const CheckCommand&, const CheckCommand&) = default;
};

/// The main command's options, as typed.
struct CheckArgs {
    CommonArgs common;
    std::vector<std::string> targets;
    int count = 1;
    bool ipv4 = false, ipv6 = false, quick = false, no_pair = false;
    std::string expect;
    std::optional<int> syn_retries;
    std::vector<std::string> emulate;
    /// An int, as --count: CLI11 reads "-1" into a size_t as 2^64-1 and
    /// clamps a long long, where an int too large fails to convert.
    int max_probes = static_cast<int>(default_max_probes);
};

/// The main command's description and --help footer.
extern const char* const check_description;
extern const char* const check_footer;

/// Declares the main command's options on `app`, writing into `args`.
void add_check_options(CLI::App& app, CheckArgs& args);

/// The check's command from what was typed, or the one-line usage error.
Result<CheckCommand> check_command(const CheckArgs& args, std::string command_line);

/// Runs the check; prints the report on stdout and returns the exit code.
int run_check_command(const CheckCommand& command);

} // namespace loopcheck
