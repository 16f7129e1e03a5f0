// Escaping untrusted bytes for messages; the word wrapper and the table-cell padding the reports
// share; the edit distance the did-you-mean lines measure.
#include "loopcheck/core/text.hpp"

#include "loopcheck/core/untrusted.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <vector>

namespace loopcheck {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                                d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0U : 1U)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

std::string escape_nonprintable(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (unsigned char c : s) {
        if (c < 0x20 || c >= 0x7f)
            out += fmt::format("\\x{:02x}", c);
        else
            out += static_cast<char>(c);
    }
    return out;
}

std::size_t visible_length(std::string_view s) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\033') {
            while (i < s.size() && s[i] != 'm')
                ++i;
            continue;
        }
        ++n;
    }
    return n;
}

std::size_t columns(std::string_view cell) noexcept {
    std::size_t n = 0;
    for (const char c : cell)
        n += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
    return n;
}

void append_padded(std::string& out, std::string_view cell, std::size_t width) {
    out += cell;
    const std::size_t used = columns(cell);
    if (used < width)
        out.append(width - used, ' ');
}

namespace {

bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}

/// A duration's unit as format_duration writes it, with the punctuation a
/// sentence puts after it: "s", "ms,", "us)", "min.".
bool is_unit(std::string_view word) noexcept {
    while (!word.empty() && (word.back() == ',' || word.back() == '.' || word.back() == ')' ||
                             word.back() == ';' || word.back() == ':'))
        word.remove_suffix(1);
    return word == "s" || word == "ms" || word == "\xC2\xB5s" || word == "us" || word == "min" ||
           word == "h";
}

} // namespace

void wrap_into(std::string& out, std::string_view first, std::string_view untrusted_text,
               std::size_t indent, std::size_t width) {
    // Every sentence of the text reports passes here: the safety net for an
    // OS string that reached one without escape_text().
    const std::string safe = escape_controls(untrusted_text);
    const std::string_view text = safe;
    std::string line(first);
    std::size_t visible = visible_length(first);
    bool has_word = false;
    for (std::size_t pos = 0; pos < text.size();) {
        auto end = text.find(' ', pos);
        if (end == std::string_view::npos)
            end = text.size();
        // "1.00 s" stays on one line: a number and its unit are one word.
        if (end < text.size() && end > pos && is_digit(text[end - 1])) {
            auto next = text.find(' ', end + 1);
            if (next == std::string_view::npos)
                next = text.size();
            if (is_unit(text.substr(end + 1, next - end - 1)))
                end = next;
        }
        const auto word = text.substr(pos, end - pos);
        if (has_word && visible + 1 + word.size() > width) {
            out += line;
            out += '\n';
            line.assign(indent, ' ');
            visible = indent;
            has_word = false;
        }
        if (has_word) {
            line += ' ';
            ++visible;
        }
        line += word;
        visible += word.size();
        has_word = true;
        pos = end + 1;
    }
    out += line;
    out += '\n';
}

std::string_view trim_blanks(std::string_view s) noexcept {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

int hex_digit_value(char c) noexcept {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

void append_utf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

} // namespace loopcheck
