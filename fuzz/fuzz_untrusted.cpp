// libFuzzer: the neutralisers of untrusted text (core/text/untrusted.hpp). For
// any bytes: the text form holds no control, bidi or non-UTF-8 byte and
// reads back to exactly the input; the Markdown forms escape what they
// must; JSON carries the input exactly (bytes that are no UTF-8 as U+FFFD).
#include "loopcheck/core/text/text.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "report/json/writer.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

using namespace loopcheck;

namespace {

void require(bool ok) {
    if (!ok)
        __builtin_trap();
}

/// `n` hex digits at s[i]; nullopt when they are not there.
std::optional<unsigned> hex_at(std::string_view s, std::size_t i, std::size_t n) {
    if (i + n > s.size())
        return std::nullopt;
    unsigned v = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const int d = hex_digit_value(s[i + k]);
        if (d < 0)
            return std::nullopt;
        v = v * 16 + static_cast<unsigned>(d);
    }
    return v;
}

/// escape_text() read back: \\ \t \n \r \xNN (a byte) \uXXXX (a code point).
std::string unescape_text(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\') {
            out += s[i];
            continue;
        }
        require(i + 1 < s.size());
        const char e = s[++i];
        if (e == '\\') {
            out += '\\';
        } else if (e == 't') {
            out += '\t';
        } else if (e == 'n') {
            out += '\n';
        } else if (e == 'r') {
            out += '\r';
        } else if (e == 'x') {
            const auto v = hex_at(s, i + 1, 2);
            require(v.has_value());
            out += static_cast<char>(*v);
            i += 2;
        } else if (e == 'u') {
            const auto v = hex_at(s, i + 1, 4);
            require(v.has_value() && is_control_code_point(*v));
            append_utf8(out, static_cast<char32_t>(*v));
            i += 4;
        } else {
            require(false); // an escape escape_text() never writes
        }
    }
    return out;
}

/// Byte patterns that must not survive, checked without the module's own
/// UTF-8 decoder: C0, DEL, C1 (C2 80..9F), ALM (D8 9C), LRM/RLM (E2 80
/// 8E/8F), LS..RLO (E2 80 A8..AE), LRI..PDI (E2 81 A6..A9).
void require_no_control_bytes(std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        require(c >= 0x20 && c != 0x7f);
        const auto next = [&](std::size_t k) {
            return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0;
        };
        require(!(c == 0xC2 && next(1) >= 0x80 && next(1) <= 0x9F));
        require(!(c == 0xD8 && next(1) == 0x9C));
        if (c == 0xE2 && next(1) == 0x80)
            require(!(next(2) == 0x8E || next(2) == 0x8F || (next(2) >= 0xA8 && next(2) <= 0xAE)));
        if (c == 0xE2 && next(1) == 0x81)
            require(!(next(2) >= 0xA6 && next(2) <= 0xA9));
    }
    require(is_terminal_safe(s));
}

/// One JSON string literal (JsonWriter output) decoded.
std::string json_decode(std::string_view s) {
    require(s.size() >= 2 && s.front() == '"' && s.back() == '"');
    s = s.substr(1, s.size() - 2);
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        require(c >= 0x20 && c != '"'); // raw controls and quotes are escaped
        if (c != '\\') {
            out += s[i];
            continue;
        }
        require(i + 1 < s.size());
        const char e = s[++i];
        switch (e) {
        case '"':
        case '\\':
        case '/':
            out += e;
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'u': {
            const auto v = hex_at(s, i + 1, 4);
            require(v.has_value() && (*v < 0xD800 || *v > 0xDFFF)); // no surrogates written
            append_utf8(out, static_cast<char32_t>(*v));
            i += 4;
            break;
        }
        default:
            require(false);
        }
    }
    return out;
}

/// `raw` with every byte that starts no well-formed UTF-8 sequence replaced
/// by U+FFFD: what JSON can carry of it.
std::string with_replacements(std::string_view raw) {
    std::string out;
    for (std::size_t i = 0; i < raw.size();) {
        const auto len = utf8_sequence_length(raw, i);
        if (len == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out += raw.substr(i, len);
            i += len;
        }
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string raw(reinterpret_cast<const char*>(data), size);

    // Text: safe for a terminal, and unambiguous.
    const auto text = escape_text(raw);
    require_no_control_bytes(text);
    require(unescape_text(text) == raw);
    require(Untrusted(raw).escaped() == text);
    require_no_control_bytes(escape_controls(raw));

    // Markdown prose: every syntax character behind a backslash, and the
    // backslashes taken away give the text back.
    const auto md = escape_markdown(text);
    std::string unescaped;
    for (std::size_t i = 0; i < md.size(); ++i) {
        if (md[i] == '\\') {
            require(i + 1 < md.size());
            ++i;
        } else {
            require(std::string_view("\\`*_[]<>|&~$").find(md[i]) == std::string_view::npos);
        }
        unescaped += md[i];
    }
    require(unescaped == text);

    // A Markdown code span: its fence is longer than any run inside, and in
    // a table cell no pipe is left unescaped.
    const auto code = markdown_code(text, MarkdownPlace::table_cell);
    std::size_t fence = 0;
    while (fence < code.size() && code[fence] == '`')
        ++fence;
    require(fence > 0 && code.size() >= 2 * fence);
    require(code.compare(code.size() - fence, fence, std::string(fence, '`')) == 0);
    const auto inside = std::string_view(code).substr(fence, code.size() - 2 * fence);
    std::size_t run = 0, backslashes = 0;
    for (char c : inside) {
        run = c == '`' ? run + 1 : 0;
        require(run < fence);
        require(c != '|' || backslashes % 2 == 1);
        backslashes = c == '\\' ? backslashes + 1 : 0;
    }
    require(inside.empty() || (inside.front() != '`' && inside.back() != '`'));

    // JSON: the exact input, or as exact as JSON can be.
    JsonWriter w;
    w.value(Untrusted(raw));
    auto doc = w.str();
    require(!doc.empty() && doc.back() == '\n');
    doc.pop_back();
    require_no_control_bytes(doc);
    require(json_decode(doc) == with_replacements(raw));
    return 0;
}
