#include "loopcheck/core/text/text.hpp"
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
    wrap_into(out, "", "took 12 ms, then 250 \xC2\xB5s.", 0, 11);
    CHECK(out == "took 12 ms,\nthen\n250 \xC2\xB5s.\n");
    out.clear();
    // Columns, not bytes: "then 250 µs." is 12 columns in 13 bytes.
    wrap_into(out, "", "took 12 ms, then 250 \xC2\xB5s.", 0, 12);
    CHECK(out == "took 12 ms,\nthen 250 \xC2\xB5s.\n");
    out.clear();
    // Only units: "3 apples" may part.
    wrap_into(out, "", "take 3 apples", 0, 7);
    CHECK(out == "take 3\napples\n");
}

TEST_CASE("wrap_lines: one wrapper for prose, cells and help", "[text]") {
    // Prose: a word wider than the line stands alone; every space is kept.
    CHECK(wrap_lines("a  b", 10, 10) == std::vector<std::string>{"a  b"});
    CHECK(wrap_lines("xx averylongword y", 6, 6) ==
          std::vector<std::string>{"xx", "averylongword", "y"});
    // A first line of its own room (after a lead), the rest another.
    CHECK(wrap_lines("one two three", 3, 9) == std::vector<std::string>{"one", "two three"});
    // Cells: runs of spaces are one break, a word wider than the column is cut.
    const WrapRule cell{.cut_long_words = true, .collapse_spaces = true};
    CHECK(wrap_lines("ab  abcdefgh c", 4, 4, cell) ==
          std::vector<std::string>{"ab", "abcd", "efgh", "c"});
    // Columns are characters, not bytes: "é" is one.
    CHECK(wrap_lines("\xc3\xa9\xc3\xa9 ab", 5, 5) ==
          std::vector<std::string>{"\xc3\xa9\xc3\xa9 ab"});
    CHECK(wrap_lines("", 5, 5) == std::vector<std::string>{""});
}

TEST_CASE("a non-breaking join never breaks and is written as a space", "[text]") {
    const std::string joined = keep_together("wait 1.00 s then 12 ms, and 3 apples");
    CHECK(joined == "wait 1.00\xc2\xa0s then 12\xc2\xa0ms, and 3 apples");
    CHECK(plain_spaces(joined) == "wait 1.00 s then 12 ms, and 3 apples");
    CHECK(wrap_lines(joined, 9, 9) ==
          std::vector<std::string>{"wait", "1.00 s", "then", "12 ms,", "and 3", "apples"});
    // Joined words wider than a cell part at their joins first; only a
    // word still wider is cut.
    const WrapRule cell{.cut_long_words = true};
    CHECK(wrap_lines("x 12\xc2\xa0ms", 4, 4, cell) == std::vector<std::string>{"x 12", "ms"});
    CHECK(wrap_lines("(pid\xc2\xa0"
                     "4242)",
                     6, 6, cell) == std::vector<std::string>{"(pid", "4242)"});
    CHECK(wrap_lines("(pid\xc2\xa0"
                     "4242)",
                     4, 4, cell) == std::vector<std::string>{"(pid", "4242", ")"});
}

TEST_CASE("wrap_hanging: help's columns, spaces collapsed, no trailing blank", "[text]") {
    std::string out;
    wrap_hanging(out, "  -t, --timeout  ", "how long  to wait for each connect", 17, 40);
    CHECK(out == "  -t, --timeout  how long to wait for\n                 each connect\n");
    out.clear();
    wrap_hanging(out, "  --flag   ", "", 11, 40);
    CHECK(out == "  --flag\n");
    out.clear();
    // The first word stays after the lead however long it is.
    wrap_hanging(out, "Usage: ", "loopcheck-with-a-very-long-name [OPTIONS]", 7, 20);
    CHECK(out == "Usage: loopcheck-with-a-very-long-name\n       [OPTIONS]\n");
}

TEST_CASE("a pid keeps its number on the line", "[text]") {
    CHECK(keep_together("ollama.exe (pid 12334) listens; pid 7 too; pids 3") ==
          "ollama.exe (pid\xc2\xa0"
          "12334) listens; pid\xc2\xa0"
          "7 too; pids 3");
    std::string out;
    wrap_into(out, "", "listens: ollama.exe (pid 12334)", 2, 24);
    CHECK(out == "listens: ollama.exe\n  (pid 12334)\n");
}
