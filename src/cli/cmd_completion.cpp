// `loopcheck completion SHELL`: prints the shell's completion script,
// made from the option table (cli/completion.cpp).
#include "cli/command.hpp"
#include "cli/completion.hpp"
#include "cli/options.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <functional>
#include <memory>

namespace loopcheck {

namespace {

int run(const std::string& name) {
    const auto shell = shell_named(name);
    if (!shell)
        return usage_failure(
            fmt::format("SHELL must be bash, zsh, fish or powershell, not '{}'", name));
    return write_stdout(completion_script(*shell), exit_code::healthy);
}

std::function<int()> declare(CLI::App& sub, std::vector<std::string> /*after_dashes*/) {
    auto shell = std::make_shared<std::string>();
    add_table_option(sub, Command::completion, "shell", *shell);
    return [shell] { return run(*shell); };
}

} // namespace

const CommandEntry completion_command{
    "completion", "print the completion script for bash, zsh, fish or powershell",
    R"(Prints a script that completes loopcheck's commands, options and their
values in SHELL. To load it:
  bash        source <(loopcheck completion bash)
  zsh         loopcheck completion zsh > ~/.zfunc/_loopcheck
              (~/.zfunc on $fpath before compinit)
  fish        loopcheck completion fish >
                ~/.config/fish/completions/loopcheck.fish
  powershell  loopcheck completion powershell | Out-String | Invoke-Expression
              (in $PROFILE)

Exit codes: 0 printed, 2 usage error, 5 the script could not be written.)",
    declare};

} // namespace loopcheck
