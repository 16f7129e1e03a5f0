// UTF-16 to UTF-8 with lone surrogates as U+FFFD (Windows names and messages).
#include "loopcheck/core/text/utf16.hpp"

#include "loopcheck/core/text/text.hpp"

#include <cstdint>

namespace loopcheck {

namespace {

constexpr char32_t replacement = 0xFFFD;

bool is_high_surrogate(char16_t c) {
    return c >= 0xD800 && c <= 0xDBFF;
}
bool is_low_surrogate(char16_t c) {
    return c >= 0xDC00 && c <= 0xDFFF;
}

} // namespace

std::string utf16_to_utf8(std::u16string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char16_t c = text[i];
        if (is_high_surrogate(c)) {
            if (i + 1 < text.size() && is_low_surrogate(text[i + 1])) {
                const char32_t cp = 0x10000 + ((static_cast<char32_t>(c) - 0xD800) << 10) +
                                    (static_cast<char32_t>(text[i + 1]) - 0xDC00);
                append_utf8(out, cp);
                ++i;
            } else {
                append_utf8(out, replacement); // a high surrogate with no low one after it
            }
        } else if (is_low_surrogate(c)) {
            append_utf8(out, replacement); // a low surrogate with no high one before it
        } else {
            append_utf8(out, c);
        }
    }
    return out;
}

} // namespace loopcheck
