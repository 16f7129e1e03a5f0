#include "loopcheck/core/text.hpp"
#include "support/catch.hpp"

#include <fmt/format.h>

using namespace loopcheck;

TEST_CASE("a cell takes a column per character, not per byte", "[text]") {
    CHECK(columns("") == 0);
    CHECK(columns("127.0.0.1:11434") == 15);
    CHECK(columns("\xe2\x89\xa5 2 s") == 5); // "≥ 2 s": 3 bytes, 1 column
    CHECK(columns("caf\xc3\xa9") == 4);      // "café"
    CHECK(columns("\xf0\x9f\x90\x8d") == 1); // one 4-byte character
}

TEST_CASE("padding a cell matches fmt's left alignment", "[text]") {
    for (const std::string_view cell :
         {"", "x", "refused", "2.03 s via 127.0.0.1:11434", "caf\xc3\xa9", "\xe2\x89\xa5 2 s"}) {
        for (const std::size_t width : {0U, 1U, 4U, 7U, 30U}) {
            INFO(cell << " / " << width);
            std::string out = "> ";
            append_padded(out, cell, width);
            CHECK(out == fmt::format("> {:<{}}", cell, width));
        }
    }
}

TEST_CASE("padding appends and never cuts", "[text]") {
    std::string out = "a";
    append_padded(out, "longer than the width", 3);
    append_padded(out, "b", 2);
    CHECK(out == "alonger than the widthb ");
}

TEST_CASE("wrapped text breaks between words and indents the rest", "[text]") {
    std::string out;
    wrap_into(out, "  - ", "one two three four five", 4, 14);
    CHECK(out == "  - one two\n    three four\n    five\n");
    out.clear();
    wrap_into(out, "", "averyveryverylongword x", 2, 8);
    CHECK(out == "averyveryverylongword\n  x\n");
}

TEST_CASE("hex digits in either case", "[text]") {
    CHECK(hex_digit_value('0') == 0);
    CHECK(hex_digit_value('9') == 9);
    CHECK(hex_digit_value('a') == 10);
    CHECK(hex_digit_value('F') == 15);
    for (char c : {'g', 'G', ' ', '/', ':', '@', '`', '\0'})
        CHECK(hex_digit_value(c) == -1);
}

TEST_CASE("code points in UTF-8: one to four bytes at each boundary", "[text]") {
    const auto utf8 = [](char32_t cp) {
        std::string out;
        append_utf8(out, cp);
        return out;
    };
    CHECK(utf8(U'A') == "A");
    CHECK(utf8(0x7F) == "\x7f");
    CHECK(utf8(0x80) == "\xc2\x80");
    CHECK(utf8(0xE9) == "\xc3\xa9");
    CHECK(utf8(0x7FF) == "\xdf\xbf");
    CHECK(utf8(0x800) == "\xe0\xa0\x80");
    CHECK(utf8(0xFFFD) == "\xef\xbf\xbd");
    CHECK(utf8(0x10000) == "\xf0\x90\x80\x80");
    CHECK(utf8(0x10FFFF) == "\xf4\x8f\xbf\xbf");
}

TEST_CASE("trim_blanks: spaces and tabs at either end, nothing else", "[text]") {
    CHECK(trim_blanks("  \tx = 1\t ") == "x = 1");
    CHECK(trim_blanks("") == "");
    CHECK(trim_blanks(" \t ") == "");
    CHECK(trim_blanks("\nx\n") == "\nx\n"); // line ends are the caller's
}

TEST_CASE("wrap_into keeps a number and its unit on one line", "[text]") {
    std::string out;
    // "1.00" ends the first line's room: its "s" goes down with it.
    wrap_into(out, "", "no answer within 1.00 s: timed out", 0, 22);
    CHECK(out == "no answer within\n1.00 s: timed out\n");
    out.clear();
    wrap_into(out, "", "took 12 ms, then 250 \xC2\xB5s.", 0, 12);
    CHECK(out == "took 12 ms,\nthen\n250 \xC2\xB5s.\n");
    out.clear();
    // Only units: "3 apples" may part.
    wrap_into(out, "", "take 3 apples", 0, 7);
    CHECK(out == "take 3\napples\n");
}
