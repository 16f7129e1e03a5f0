// `--help` within 80 columns: the formatter every command's help goes
// through, and the text fitting it uses (src/cli/help_format.cpp).
#pragma once

#include "loopcheck/core/input/machine.hpp"

#include <CLI/CLI.hpp>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace loopcheck {

/// The width every help line fits in, whatever the terminal: git and
/// cargo keep theirs within 80 too, and a man page is where the rest goes.
inline constexpr std::size_t help_width = 80;

/// The last line of every help text on `os`: where the manual is. After
/// installing the .deb or the .tar.gz no docs/ path exists, the man page
/// does; Windows has no `man`, and its zip holds README.md beside
/// loopcheck.exe. Pure, so every OS's line is tested everywhere.
std::string_view help_pointer(Os os);

/// Preformatted help text (a footer's lines) with every line longer than
/// `width` wrapped at word boundaries. A continuation keeps the line's
/// indent, or lines up under its second column where the line has one (a
/// run of two or more spaces after the first word, as in "  0  healthy").
std::string fit_help_text(std::string_view text, std::size_t width = help_width);

/// CLI11's formatter with every part laid out within help_width: the
/// description wrapped, options and subcommands in two columns with their
/// descriptions wrapped in the second, the footer fitted, help_pointer last.
/// The main command's list of commands ends with `help`, which is no CLI11
/// subcommand (cli/usage.cpp turns `help COMMAND` into `COMMAND --help`).
class HelpFormatter : public CLI::Formatter {
public:
    explicit HelpFormatter(Os os) : os_(os) {}
    std::string make_help(const CLI::App* app, std::string name,
                          CLI::AppFormatMode mode) const override;

private:
    Os os_;
};

/// A HelpFormatter for `os` to install on the main command before its
/// subcommands are added (they copy their parent's formatter).
std::shared_ptr<HelpFormatter> help_formatter(Os os);

} // namespace loopcheck
