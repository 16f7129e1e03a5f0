// Small text helpers shared by the parsers.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

/// `s` with every byte outside printable ASCII written as \xHH, so that
/// user input or file content quoted in a message can never reach the
/// terminal as a control sequence or invalid UTF-8.
std::string escape_nonprintable(std::string_view s);

/// Edits from one word to the other: insert, delete, replace, or swap two
/// neighbours ("wiat" is one swap from "wait"; optimal string alignment).
/// The did-you-mean lines' measure: commands, options, host names.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// `s` without the spaces and tabs at either end.
std::string_view trim_blanks(std::string_view s) noexcept;

/// The value of the hex digit `c` (either case), or -1.
int hex_digit_value(char c) noexcept;

/// Appends the UTF-8 form of the code point `cp` (at most U+10FFFF).
void append_utf8(std::string& out, char32_t cp);

/// Columns a string takes on a terminal: ANSI colour sequences take none.
std::size_t visible_length(std::string_view s);

/// Columns a table cell takes: one per UTF-8 character (continuation bytes
/// take none). East Asian wide characters count one, not two.
std::size_t columns(std::string_view cell) noexcept;

/// Appends `cell`, then spaces up to `width` columns (none if it is wider):
/// fmt's "{:<N}" without its per-character width lookup, for the tables
/// every report pads (docs/performance.md).
void append_padded(std::string& out, std::string_view cell, std::size_t width);

/// U+00A0, the non-breaking join: the word-wrapper never breaks a line
/// there and writes it as a plain space (keep_together() puts it in).
inline constexpr std::string_view non_breaking_join = "\xC2\xA0";

/// `text` with a non-breaking join where a line must not break: between a
/// number and its unit as format_duration writes it ("1.00 s", "12 ms,"),
/// and "pid" and its number ("(pid 4242)").
std::string keep_together(std::string_view text);

/// `text` with each non-breaking join a plain space.
std::string plain_spaces(std::string_view text);

/// How wrap_lines() breaks a text.
struct WrapRule {
    /// A word wider than a line is cut at the width (a table cell), instead
    /// of standing alone on a line wider than the width (prose).
    bool cut_long_words = false;
    /// A run of spaces is one break (help text, table cells); otherwise
    /// every space is kept, so "a  b" stays "a  b" on one line.
    bool collapse_spaces = false;
};

/// The program's one word-wrapper: `text` as lines broken at spaces (never
/// at a non-breaking join, which is written as a space), the first line at
/// most `first_room` columns, every later one `room` (columns: UTF-8
/// characters). A line holds at least one word whatever the room, unless
/// rule.cut_long_words. No line ends with a newline; nothing is escaped.
std::vector<std::string> wrap_lines(std::string_view text, std::size_t first_room, std::size_t room,
                                    WrapRule rule = {});

/// Appends `text` to `out` word-wrapped at `width` columns: the first line
/// after `first`, the rest indented by `indent` spaces; a word longer than
/// the width stands on a line of its own. Ends with a newline. Controls in
/// `text` are escaped (escape_controls), so one sentence stays one paragraph,
/// and a number keeps its unit (keep_together).
void wrap_into(std::string& out, std::string_view first, std::string_view text, std::size_t indent,
               std::size_t width);

/// wrap_into() for text that is already safe and joined: nothing escaped, no
/// join added (the document model's terminal back-end).
void wrap_safe_into(std::string& out, std::string_view first, std::string_view text,
                    std::size_t indent, std::size_t width);

/// Appends `text`'s words after `first`, wrapped at `width`, later lines
/// indented by `hang` spaces; runs of spaces are one, no line ends in a
/// space, and a word wider than the line stands alone. For `--help`'s
/// columns (cli/help_format.cpp), where `first` is the option column.
void wrap_hanging(std::string& out, std::string_view first, std::string_view text, std::size_t hang,
                  std::size_t width);

} // namespace loopcheck
