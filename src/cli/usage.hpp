// The command line's words before and after CLI11: the shared options
// typed before a subcommand moved after it, `loopcheck help`, the closest
// command or option to a typo, and CLI11's errors in loopcheck's words
// (src/cli/usage.cpp).
#pragma once

#include "loopcheck/core/result.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class ParseError;
} // namespace CLI

namespace loopcheck {

/// Where the words name a subcommand: its index in `words` (argv without
/// argv[0]), the first word that is neither an option nor an option's
/// value; nullopt when that word names none (the check's targets).
std::optional<std::size_t> subcommand_index(const std::vector<std::string>& words);

/// The words with every option typed before the subcommand moved after its
/// name, so that `loopcheck --json audit` reads as `loopcheck audit
/// --json`; `help` becomes --help (`loopcheck help wait`: `loopcheck wait
/// --help`). Other command lines come back unchanged.
std::vector<std::string> hoist_global_options(std::vector<std::string> words);

/// The words without the main command's name, where it stands in a
/// subcommand's place: `check localhost:1` -> `localhost:1`, `doctor` -> ``
/// (the self-check). The usage error when `doctor` is given a target.
/// Other command lines come back unchanged.
Result<std::vector<std::string>> drop_check_name(std::vector<std::string> words);

/// The choice closest to `typed` by edit distance, when it is close
/// enough to be what was meant (at most 2 edits, fewer than half the
/// word); nullopt otherwise.
std::optional<std::string> closest_word(std::string_view typed,
                                        const std::vector<std::string>& choices);

/// "unknown command 'wiat'; did you mean 'wait'? see loopcheck --help"
/// when a would-be target is a word close to a subcommand's name (no ':',
/// no '.', not a number); nullopt otherwise.
std::optional<std::string> unknown_command(std::string_view word);

/// `loopcheck help WORD` where WORD is no subcommand: "unknown command
/// 'wiat'; did you mean 'wait'? ..." (or without the suggestion when none
/// is close); nullopt for `help`, `help COMMAND` and other command lines.
std::optional<std::string> unknown_help_topic(const std::vector<std::string>& words);

/// CLI11's error as one line in loopcheck's words, ending with the pointer
/// to --help; `app` is the command that was being parsed (its options are
/// the choices for a misspelt one).
std::string usage_message(const CLI::ParseError& error, const CLI::App& app);

} // namespace loopcheck
