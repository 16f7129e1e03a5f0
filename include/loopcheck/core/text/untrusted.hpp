// Text loopcheck did not write (process names, hosts-file lines, the
// resolver's and the OS's messages) and the one place that makes it safe to
// print in each output format. Pure: no OS header, no logging.
//
// A terminal acts on control bytes (ESC starts colour changes and OSC
// sequences that set the window title or write the clipboard), and a bidi
// override reverses the rest of a line; Markdown turns `]( ` and backticks
// into links and code spans. Every report that shows such a string shows
// it through one of the functions below.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace loopcheck {

class JsonWriter;

/// The length (1 to 4) of the well-formed UTF-8 sequence that starts at
/// s[i]; 0 when the byte there starts none (a stray continuation byte, an
/// overlong form, a surrogate, a code point above U+10FFFF, a cut-off
/// sequence).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) noexcept;

/// The code point of one well-formed sequence (utf8_sequence_length bytes).
char32_t utf8_code_point(std::string_view sequence) noexcept;

/// Code points that act or hide instead of showing: C0 controls, DEL, C1
/// controls (U+0080-U+009F), the line and paragraph separators (U+2028,
/// U+2029), which some viewers break lines at, and Unicode's format
/// characters (category Cf: the bidi controls U+061C, U+200E, U+200F,
/// U+202A-U+202E, U+2066-U+2069, and U+00AD, U+200B-U+200D, U+2060-U+2064,
/// U+206A-U+206F, U+FEFF, the tag characters U+E0000-U+E007F, ...).
bool is_control_code_point(char32_t c) noexcept;

/// One untrusted value as text for a terminal or a log: each control code
/// point becomes a visible escape (`\t`, `\n`, `\r`, `\x1b` for the other
/// C0 controls and DEL, `\u009b`, `\u202e` for the rest, `\U000e0041`
/// above U+FFFF), each byte that is
/// not part of well-formed UTF-8 becomes `\xNN` (NN >= 80), and a backslash
/// becomes `\\`, so the escaped form reads back to exactly one original.
/// Everything else, any printable character in any script, stays as it is.
std::string escape_text(std::string_view raw);

/// The safety net for composed text (an error line, a log message) that may
/// already hold escape_text() pieces: escapes what escape_text() does but
/// leaves backslashes alone, so nothing is escaped twice.
std::string escape_controls(std::string_view text);

/// True when escape_controls() would return `text` unchanged.
bool is_terminal_safe(std::string_view text) noexcept;

/// Text that should already be free of controls (escape_text() pieces in
/// loopcheck's own sentences; any control left is escaped as by
/// escape_controls) made to render as itself in a Markdown paragraph, list
/// item or table cell: a backslash before every
/// character CommonMark, GitHub or GitLab would act on inline
/// (\ ` * _ [ ] < > | & ~ $), and before a # + - = or digit-and-dot at the
/// very start. ( ) and ! are left alone: they only make a link or image
/// after [ or ], which are always escaped.
std::string escape_markdown(std::string_view text);

enum class MarkdownPlace : unsigned char {
    inline_text, ///< a paragraph or list item
    table_cell,  ///< a GFM table cell, where `|` ends the cell even in a code span
};

/// `text` (controls escaped as by escape_controls) as a Markdown code span whose fence is one
/// backtick longer than the longest run inside it (CommonMark 6.1), padded with a space where it
/// starts or ends with a backtick; in a table cell every `|` is written `\|` (GFM 4.10). Nothing
/// inside a code span is a link, an entity or HTML.
std::string markdown_code(std::string_view text, MarkdownPlace where);

/// A string loopcheck read from another process, a file or the OS. The raw
/// bytes are reachable only by the JSON writer (which writes them exactly,
/// escaped as JSON) and through the neutralisers: a report cannot print an
/// Untrusted by accident, because fmt has no formatter for it and there is
/// no conversion back to std::string.
class Untrusted {
public:
    Untrusted() = default;
    // Implicit on purpose: wrapping a string is always the safe direction.
    Untrusted(std::string raw) : raw_(std::move(raw)) {} // NOLINT(google-explicit-constructor)
    Untrusted(const char* raw) : raw_(raw) {}            // NOLINT(google-explicit-constructor)

    [[nodiscard]] bool empty() const noexcept { return raw_.empty(); }

    /// For text reports, logs and sentences: escape_text().
    [[nodiscard]] std::string escaped() const { return escape_text(raw_); }
    /// For Markdown: escape_text() inside a code span (markdown_code).
    [[nodiscard]] std::string markdown(MarkdownPlace where) const {
        return markdown_code(escape_text(raw_), where);
    }

    /// The same text changed by `f` on its raw form (redaction: a secret is
    /// found in what was read, not in its escaped echo).
    template <class F>
    [[nodiscard]] Untrusted transformed(F&& f) const {
        return Untrusted(std::string(std::forward<F>(f)(std::string_view(raw_))));
    }

    friend bool operator==(const Untrusted&, const Untrusted&) = default;

private:
    friend class JsonWriter;
    std::string raw_;
};

} // namespace loopcheck
