// Escaping untrusted bytes for messages; the word wrapper and the table-cell padding the reports
// share; the edit distance the did-you-mean lines measure.
#include "loopcheck/core/text/text.hpp"

#include "loopcheck/core/text/untrusted.hpp"

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

std::string keep_together(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 8);
    std::size_t pos = 0;
    for (;;) {
        const auto end = text.find(' ', pos);
        if (end == std::string_view::npos) {
            out += text.substr(pos);
            return out;
        }
        out += text.substr(pos, end - pos);
        auto next = text.find(' ', end + 1);
        if (next == std::string_view::npos)
            next = text.size();
        // "1.00 s" stays on one line: a number and its unit are one word;
        // so does "(pid 4242)".
        const auto word = text.substr(pos, end - pos), after = text.substr(end + 1, next - end - 1);
        const bool join =
            (!word.empty() && is_digit(word.back()) && is_unit(after)) ||
            ((word == "pid" || word == "(pid") && !after.empty() && is_digit(after.front()));
        out += join ? non_breaking_join : std::string_view(" ");
        pos = end + 1;
    }
}

namespace {

/// `word` as written: each non-breaking join a plain space.
void append_word(std::string& line, std::string_view word) {
    for (std::size_t at; (at = word.find(non_breaking_join)) != std::string_view::npos;) {
        line += word.substr(0, at);
        line += ' ';
        word.remove_prefix(at + non_breaking_join.size());
    }
    line += word;
}

} // namespace

std::string plain_spaces(std::string_view text) {
    std::string out;
    append_word(out, text);
    return out;
}

namespace {

/// Bytes of `s` that make up its first `cols` columns (UTF-8 aware).
std::size_t prefix_bytes(std::string_view s, std::size_t cols) noexcept {
    std::size_t i = 0, seen = 0;
    for (; i < s.size(); ++i) {
        if ((static_cast<unsigned char>(s[i]) & 0xC0U) != 0x80U) {
            if (seen == cols)
                break;
            ++seen;
        }
    }
    return i;
}

} // namespace

std::vector<std::string> wrap_lines(std::string_view text, std::size_t first_room, std::size_t room,
                                    WrapRule rule) {
    std::vector<std::string> out;
    std::string line;
    std::size_t used = 0; // columns of `line`
    bool has_word = false;
    const auto room_now = [&] {
        return std::max<std::size_t>(out.empty() ? first_room : room, rule.cut_long_words ? 1 : 0);
    };
    const auto next_line = [&] {
        out.push_back(std::move(line));
        line.clear();
        used = 0;
        has_word = false;
    };
    const auto place = [&](std::string_view word, const auto& self) -> void {
        auto cols = columns(word);
        // Joined words wider than a whole line part at their joins before
        // anything is cut inside a word: "(pid" over "4242)", not "(pid 42".
        if (rule.cut_long_words && cols > std::max<std::size_t>(has_word ? room : room_now(), 1) &&
            word.find(non_breaking_join) != std::string_view::npos) {
            for (std::size_t at; (at = word.find(non_breaking_join)) != std::string_view::npos;) {
                self(word.substr(0, at), self);
                word.remove_prefix(at + non_breaking_join.size());
            }
            self(word, self);
            return;
        }
        if (has_word && used + 1 + cols > room_now())
            next_line();
        while (rule.cut_long_words && cols > room_now()) {
            if (has_word)
                next_line();
            const auto cut = prefix_bytes(word, room_now());
            append_word(line, word.substr(0, cut));
            next_line();
            word.remove_prefix(cut);
            cols = columns(word);
        }
        if (rule.cut_long_words && word.empty())
            return;
        if (has_word) {
            line += ' ';
            ++used;
        }
        append_word(line, word);
        used += cols;
        has_word = true;
    };
    // Words are what lies between single spaces; a space at the very end
    // starts no word.
    for (std::size_t pos = 0; pos < text.size();) {
        auto end = text.find(' ', pos);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view word = text.substr(pos, end - pos);
        pos = end + 1;
        if (!word.empty() || !rule.collapse_spaces)
            place(word, place);
    }
    if (has_word || out.empty())
        out.push_back(std::move(line));
    return out;
}

namespace {

std::size_t room_after(std::size_t used, std::size_t width) noexcept {
    return width > used ? width - used : 0;
}

} // namespace

void wrap_safe_into(std::string& out, std::string_view first, std::string_view text,
                    std::size_t indent, std::size_t width) {
    const auto lines =
        wrap_lines(text, room_after(visible_length(first), width), room_after(indent, width));
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i == 0)
            out += first;
        else
            out.append(indent, ' ');
        out += lines[i];
        out += '\n';
    }
}

void wrap_into(std::string& out, std::string_view first, std::string_view untrusted_text,
               std::size_t indent, std::size_t width) {
    // Every sentence of the text reports passes here: the safety net for an
    // OS string that reached one without escape_text().
    wrap_safe_into(out, first, keep_together(escape_controls(untrusted_text)), indent, width);
}

void wrap_hanging(std::string& out, std::string_view first, std::string_view text, std::size_t hang,
                  std::size_t width) {
    const auto lines = wrap_lines(text, room_after(columns(first), width), room_after(hang, width),
                                  {.collapse_spaces = true});
    std::string all;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i == 0)
            all += first;
        else
            all.append(hang, ' ');
        all += lines[i];
        if (i + 1 < lines.size())
            all += '\n';
    }
    while (!all.empty() && all.back() == ' ')
        all.pop_back();
    out += all;
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
