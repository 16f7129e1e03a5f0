// The one option table: every option and argument of every command, its
// names, value, bounds, default, the commands that take it (and why not,
// for the others), its --help line and its long text. The CLI11 set-up
// (cli/options.cpp), --help, the man page's and docs/usage.md's option
// tables and the four shells' completions are all made from it
// (src/cli/option_table.cpp holds the rows; docs/hacking.md, "Adding an
// option").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace loopcheck {

/// Every command, the check (`loopcheck [TARGET...]`) first.
enum class Command : std::uint8_t {
    check,
    audit,
    listen,
    scan,
    staircase,
    trace,
    wait,
    completion
};
inline constexpr std::size_t command_count = 8;

/// "" for the check, else the word after `loopcheck`.
std::string_view command_word(Command command);

/// A set of commands, one bit each.
using Commands = std::uint16_t;
constexpr Commands only(Command c) {
    return static_cast<Commands>(1U << static_cast<unsigned>(c));
}
constexpr Commands operator|(Command a, Command b) {
    return static_cast<Commands>(only(a) | only(b));
}
constexpr Commands operator|(Commands a, Command b) {
    return static_cast<Commands>(a | only(b));
}

/// How the option is typed.
enum class Kind : std::uint8_t {
    flag,       ///< --json: no value
    counted,    ///< -v, -vv: a flag that counts
    value,      ///< --timeout 2s
    repeated,   ///< --emulate X --emulate Y: one value each time
    positional, ///< TARGET: a word that is not an option
};

/// What a completion offers for the value (or the positional).
enum class Complete : std::uint8_t {
    nothing,  ///< a number: nothing to offer
    choices,  ///< OptionRow::choices, space-separated
    duration, ///< a few durations to start from
    target,   ///< localhost:, 127.0.0.1:, [::1]:, URLs
    path,     ///< file names
    spec,     ///< listen's 127.0.0.1:0, [::1]:0, localhost:, dual:
    program,  ///< trace's COMMAND: a program on PATH
};

/// Why an option does not apply to one command: typing it there is a usage
/// error with this reason, never silently ignored.
struct NotFor {
    Command command = Command::check;
    std::string_view why{};
};

/// One option (or positional argument) as one or more commands take it.
/// Two rows may share a name when commands take it differently (staircase's
/// --count is not the check's); one command has at most one row per name.
struct OptionRow {
    std::string_view names; ///< "-t,--timeout"; a positional's name ("target")
    Kind kind = Kind::flag;
    std::string_view value{};        ///< the value's name in --help: "DURATION", "N", "TARGET"
    Commands commands = 0;           ///< the commands that take it
    std::string_view help{};         ///< the --help line
    std::string_view default_text{}; ///< as shown in the docs: "5s"; empty: none
    /// A whole number's bounds, both included (checked from here, and the
    /// error says them); none for other values.
    std::optional<std::array<long long, 2>> bounds{};
    Complete complete = Complete::nothing;
    std::string_view choices{}; ///< Complete::choices: "text json markdown"
    bool required = false;      ///< a positional that must be given
    /// -h and -V: CLI11 declares them itself; listed for the docs and the
    /// completions.
    bool builtin = false;
    /// The man page's and docs/usage.md's text: Markdown inline (`code`,
    /// [links](...)); empty: the help line.
    std::string_view text{};
    std::string_view example{};      ///< a command line for docs/usage.md; may be empty
    std::array<NotFor, 6> not_for{}; ///< why not, for commands that do not take it
};

/// Every row, in --help's order for the check, then the subcommands' own.
std::span<const OptionRow> option_table();

/// Whether `row` is taken by `command`.
bool takes(const OptionRow& row, Command command);

/// The row `command` takes under `name` ("--count", "-n" or a positional's
/// name); none when it takes no such option.
const OptionRow* find_option(Command command, std::string_view name);

/// Why `command` does not take `row`; empty when no reason is given (then
/// the option is unknown to it).
std::string_view why_not(const OptionRow& row, Command command);

/// Each name of `row`: "-t", "--timeout".
std::array<std::string_view, 2> option_names(const OptionRow& row);

/// The longest name of `row`: "--timeout".
std::string_view long_name(const OptionRow& row);

/// Whether typing `row` takes the next word as its value.
bool takes_value(const OptionRow& row);

} // namespace loopcheck
