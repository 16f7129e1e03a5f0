// The shells' completion scripts, made from the option table and the
// command table (src/cli/completion.cpp): `loopcheck completion SHELL`
// prints them, and completions/ holds them as generated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace loopcheck {

enum class Shell : std::uint8_t { bash, zsh, fish, powershell };

/// "bash" -> Shell::bash; none for a shell without a script.
std::optional<Shell> shell_named(std::string_view name);

/// The file completions/ keeps the script in: "loopcheck.bash", "_loopcheck"
/// (zsh's naming), "loopcheck.fish", "loopcheck.ps1".
std::string_view completion_file(Shell shell);

/// The whole completion script for `shell`: every command (help too), each
/// command's options, the values of those that take one, its arguments.
std::string completion_script(Shell shell);

} // namespace loopcheck
