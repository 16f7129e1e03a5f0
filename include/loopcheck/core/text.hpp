// Small text helpers shared by the parsers.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

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

/// Appends `text` to `out` word-wrapped at `width` columns: the first line
/// after `first`, the rest indented by `indent` spaces; a word longer than
/// the width stands on a line of its own. Ends with a newline. Controls in
/// `text` are escaped (escape_controls), so one sentence stays one paragraph.
void wrap_into(std::string& out, std::string_view first, std::string_view text, std::size_t indent,
               std::size_t width);

} // namespace loopcheck
