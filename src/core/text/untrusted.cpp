// Neutralising text loopcheck did not write: escapes for terminals and logs, Markdown.
#include "loopcheck/core/text/untrusted.hpp"

#include <fmt/format.h>

namespace loopcheck {

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) noexcept {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80)
        return 1;
    const std::size_t len = (c >= 0xC2 && c <= 0xDF)   ? 2
                            : (c >= 0xE0 && c <= 0xEF) ? 3
                            : (c >= 0xF0 && c <= 0xF4) ? 4
                                                       : 0;
    if (len == 0 || len > s.size() - i)
        return 0;
    // The second byte's range rules out overlong forms, surrogates
    // (U+D800-U+DFFF) and code points above U+10FFFF (RFC 3629, section 4).
    const auto c1 = static_cast<unsigned char>(s[i + 1]);
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) || (c == 0xF0 && c1 < 0x90) ||
        (c == 0xF4 && c1 > 0x8F))
        return 0;
    for (std::size_t k = 1; k < len; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
            return 0;
    return len;
}

char32_t utf8_code_point(std::string_view sequence) noexcept {
    const auto c = static_cast<unsigned char>(sequence[0]);
    if (sequence.size() == 1)
        return c;
    char32_t cp = c & (0x7F >> sequence.size());
    for (std::size_t k = 1; k < sequence.size(); ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(sequence[k]) & 0x3F);
    return cp;
}

namespace {

/// Unicode's general category Cf (format characters: Unicode 15's
/// DerivedGeneralCategory.txt), which act or hide instead of showing: a
/// process name of U+FEFF, U+2060 or tag characters prints as blank.
bool is_format_code_point(char32_t c) noexcept {
    return c == 0x00AD || (c >= 0x0600 && c <= 0x0605) || c == 0x061C || c == 0x06DD ||
           c == 0x070F || (c >= 0x0890 && c <= 0x0891) || c == 0x08E2 || c == 0x180E ||
           (c >= 0x200B && c <= 0x200F) || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2060 && c <= 0x2064) || (c >= 0x2066 && c <= 0x206F) || c == 0xFEFF ||
           (c >= 0xFFF9 && c <= 0xFFFB) || c == 0x110BD || c == 0x110CD ||
           (c >= 0x13430 && c <= 0x1343F) || (c >= 0x1BCA0 && c <= 0x1BCA3) ||
           (c >= 0x1D173 && c <= 0x1D17A) || (c >= 0xE0000 && c <= 0xE007F);
}

} // namespace

bool is_control_code_point(char32_t c) noexcept {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || (c >= 0x2028 && c <= 0x2029) ||
           is_format_code_point(c);
}

namespace {

/// escape_text() and escape_controls() in one loop; they differ only in
/// what a backslash becomes.
std::string neutralise(std::string_view s, bool escape_backslash) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        // Printable ASCII, the whole of almost every string, goes over as a
        // run: a character at a time was most of a report's escaping cost.
        std::size_t run = i;
        while (run < s.size() && s[run] >= 0x20 && s[run] < 0x7f &&
               !(s[run] == '\\' && escape_backslash))
            ++run;
        if (run > i) {
            out.append(s, i, run - i);
            i = run;
            continue;
        }
        const std::size_t len = utf8_sequence_length(s, i);
        if (len == 0) {
            out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i]));
            ++i;
            continue;
        }
        const auto seq = s.substr(i, len);
        i += len;
        const char32_t cp = utf8_code_point(seq);
        if (cp == '\\' && escape_backslash) {
            out += "\\\\";
        } else if (!is_control_code_point(cp)) {
            out += seq;
        } else if (cp == '\t') {
            out += "\\t";
        } else if (cp == '\n') {
            out += "\\n";
        } else if (cp == '\r') {
            out += "\\r";
        } else if (cp < 0x80) {
            out += fmt::format("\\x{:02x}", static_cast<unsigned>(cp));
        } else if (cp <= 0xFFFF) {
            out += fmt::format("\\u{:04x}", static_cast<unsigned>(cp));
        } else { // tag characters: eight digits, so the escape reads back as one
            out += fmt::format("\\U{:08x}", static_cast<unsigned>(cp));
        }
    }
    return out;
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

} // namespace

std::string escape_text(std::string_view raw) {
    return neutralise(raw, true);
}

std::string escape_controls(std::string_view text) {
    return neutralise(text, false);
}

bool is_terminal_safe(std::string_view text) noexcept {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t len = utf8_sequence_length(text, i);
        if (len == 0 || is_control_code_point(utf8_code_point(text.substr(i, len))))
            return false;
        i += len;
    }
    return true;
}

std::string escape_markdown(std::string_view composed) {
    // The safety net first: a control that reached a sentence unescaped.
    const std::string text = escape_controls(composed);
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    // At the start of a line these open a heading, a list item, a setext
    // underline or an ordered list ("1." and "1)").
    std::size_t digits = 0;
    while (digits < text.size() && is_digit(text[digits]))
        ++digits;
    const bool ordered_list =
        digits > 0 && digits < text.size() && (text[digits] == '.' || text[digits] == ')');
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const bool inline_syntax =
            std::string_view("\\`*_[]<>|&~$").find(c) != std::string_view::npos;
        const bool at_start = i == 0 && std::string_view("#+-=").find(c) != std::string_view::npos;
        if (inline_syntax || at_start || (ordered_list && i == digits))
            out += '\\';
        out += c;
    }
    return out;
}

std::string markdown_code(std::string_view composed, MarkdownPlace where) {
    const std::string text = escape_controls(composed); // the safety net
    if (text.empty())
        return "` `"; // "``" would be no code span at all
    std::size_t longest = 0, run = 0;
    for (char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(longest + 1, '`');
    std::string body;
    for (char c : text) {
        if (c == '|' && where == MarkdownPlace::table_cell)
            body += "\\|";
        else
            body += c;
    }
    // A code span strips one space from each end when both ends have one,
    // and a backtick at an end would join the fence: pad both ends then.
    const bool all_spaces = text.find_first_not_of(' ') == std::string::npos;
    const bool pad = (text.front() == '`' || text.back() == '`' ||
                      (text.front() == ' ' && text.back() == ' ' && !all_spaces));
    const std::string_view space = pad ? " " : "";
    return fmt::format("{}{}{}{}{}", fence, space, body, space, fence);
}

} // namespace loopcheck
