// The neutralisers of untrusted text (core/text/untrusted.hpp): one escape per
// control class, invalid UTF-8, Markdown syntax, and the JSON writer's side.
#include "loopcheck/core/text/untrusted.hpp"
#include "report/json/writer.hpp"
#include "support/catch.hpp"

#include <string>

using namespace loopcheck;

TEST_CASE("escape_text: every control class becomes a visible escape", "[untrusted]") {
    struct Case {
        const char* what;
        std::string raw;
        std::string shown;
    };
    const Case cases[] = {
        {"ESC and BEL (an OSC title)", "\x1b]0;x\a", "\\x1b]0;x\\x07"},
        {"a colour change", "\x1b[31mEV", "\\x1b[31mEV"},
        {"NUL and other C0", std::string("a\0b\x01\x1f", 5), "a\\x00b\\x01\\x1f"},
        {"tab, newline, return", "a\tb\nc\r", "a\\tb\\nc\\r"},
        {"DEL", "a\x7f", "a\\x7f"},
        {"C1 CSI as UTF-8 (U+009B)",
         "\xc2\x9b"
         "31m",
         "\\u009b31m"},
        {"C1 NEL (U+0085)", "a\xc2\x85", "a\\u0085"},
        {"right-to-left override",
         "\xe2\x80\xae"
         "evil",
         "\\u202eevil"},
        {"embeddings and PDF", "\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad",
         "\\u202a\\u202b\\u202c\\u202d"},
        {"isolates", "\xe2\x81\xa6x\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9",
         "\\u2066x\\u2067\\u2068\\u2069"},
        {"LRM, RLM, ALM", "\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", "\\u200e\\u200f\\u061c"},
        {"line and paragraph separators",
         "a\xe2\x80\xa8"
         "b\xe2\x80\xa9",
         "a\\u2028b\\u2029"},
        {"a C1 byte that is no UTF-8",
         "\x9b"
         "31m",
         "\\x9b31m"},
        {"invalid bytes", "\xff\xfe", "\\xff\\xfe"},
        {"a cut-off sequence", "a\xe2\x80", "a\\xe2\\x80"},
        {"an overlong slash", "\xc0\xaf", "\\xc0\\xaf"},
        {"a surrogate (CESU-8)", "\xed\xa0\x80", "\\xed\\xa0\\x80"},
        {"above U+10FFFF", "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"},
        {"a backslash", "a\\x1b", "a\\\\x1b"},
        {"printable text in any script stays",
         "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x90\x8d",
         "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x90\x8d"},
        {"Markdown syntax is text's business only in Markdown", "a|b](x)`c", "a|b](x)`c"},
        // Issue 28: Unicode's format characters (category Cf) hide or act.
        {"BOM, word joiner, zero-width space",
         "\xef\xbb\xbf"
         "a\xe2\x81\xa0"
         "b\xe2\x80\x8b",
         "\\ufeffa\\u2060b\\u200b"},
        {"deprecated format controls U+206A-U+206F", "\xe2\x81\xaax\xe2\x81\xaf",
         "\\u206ax\\u206f"},
        {"soft hyphen", "a\xc2\xad", "a\\u00ad"},
        {"tag characters, eight digits", "\xf3\xa0\x81\x81\xf3\xa0\x81\xbf",
         "\\U000e0041\\U000e007f"},
    };
    for (const auto& c : cases) {
        INFO(c.what);
        CHECK(escape_text(c.raw) == c.shown);
        CHECK(is_terminal_safe(escape_text(c.raw)));
        CHECK(Untrusted(c.raw).escaped() == c.shown);
    }
}

TEST_CASE("escape_controls: the safety net leaves backslashes alone", "[untrusted]") {
    CHECK(escape_controls("C:\\Windows\\x") == "C:\\Windows\\x");
    CHECK(escape_controls("already \\x1b, then \x1b") == "already \\x1b, then \\x1b");
    CHECK(escape_controls("\xe2\x80\xae\xff") == "\\u202e\\xff");
    CHECK_FALSE(is_terminal_safe("\xe2\x80\xae"));
    CHECK_FALSE(is_terminal_safe("\xc2\x9b"));
    CHECK_FALSE(is_terminal_safe("\xff"));
    CHECK(is_terminal_safe("caf\xc3\xa9 \\ x"));
}

TEST_CASE("escape_markdown: inline syntax and line starts", "[untrusted][markdown]") {
    CHECK(escape_markdown("a|b](x)`c") == "a\\|b\\](x)\\`c");
    CHECK(escape_markdown("<img src=x> *b* _i_ ~~s~~ &amp; $x$ \\") ==
          "\\<img src=x\\> \\*b\\* \\_i\\_ \\~\\~s\\~\\~ \\&amp; \\$x\\$ \\\\");
    CHECK(escape_markdown("[x](y)") == "\\[x\\](y)");
    CHECK(escape_markdown("![i](y)") == "!\\[i\\](y)");
    CHECK(escape_markdown("# h") == "\\# h");
    CHECK(escape_markdown("- x") == "\\- x");
    CHECK(escape_markdown("+ x") == "\\+ x");
    CHECK(escape_markdown("=") == "\\=");
    CHECK(escape_markdown("12. x") == "12\\. x");
    CHECK(escape_markdown("1) x") == "1\\) x");
    CHECK(escape_markdown("a #1 - 2.") == "a #1 - 2."); // not at the start: plain text
    CHECK(escape_markdown("12") == "12");
}

TEST_CASE("markdown_code: a fence longer than any backtick run", "[untrusted][markdown]") {
    CHECK(markdown_code("python3", MarkdownPlace::inline_text) == "`python3`");
    CHECK(markdown_code("a`b", MarkdownPlace::inline_text) == "``a`b``");
    CHECK(markdown_code("a```b``c", MarkdownPlace::inline_text) == "````a```b``c````");
    CHECK(markdown_code("`x", MarkdownPlace::inline_text) == "`` `x ``");
    CHECK(markdown_code("x`", MarkdownPlace::inline_text) == "`` x` ``");
    CHECK(markdown_code(" x ", MarkdownPlace::inline_text) == "`  x  `");
    CHECK(markdown_code(" x", MarkdownPlace::inline_text) == "` x`");
    CHECK(markdown_code("  ", MarkdownPlace::inline_text) == "`  `");
    CHECK(markdown_code("", MarkdownPlace::inline_text) == "` `");
    CHECK(markdown_code("a|b", MarkdownPlace::inline_text) == "`a|b`");
    CHECK(markdown_code("a|b", MarkdownPlace::table_cell) == "`a\\|b`");
    CHECK(Untrusted("a|b](x)`c\x1b").markdown(MarkdownPlace::table_cell) == "``a\\|b](x)`c\\x1b``");
}

TEST_CASE("JSON carries an untrusted value exactly", "[untrusted][json]") {
    JsonWriter w;
    w.begin_array()
        .value(Untrusted("\x1b[31mEV\a"))
        .value(Untrusted("\xe2\x80\xae"
                         "a\xc2\x9b\x7f"))
        .value(Untrusted("caf\xc3\xa9 \\ \"q\""))
        .value(Untrusted("bad \xff"))
        .end_array();
    // Controls as \u escapes decode to the same code points; only bytes
    // that are no UTF-8 cannot be carried, and become U+FFFD.
    CHECK(w.str() == "[\n"
                     "  \"\\u001b[31mEV\\u0007\",\n"
                     "  \"\\u202ea\\u009b\\u007f\",\n"
                     "  \"caf\xc3\xa9 \\\\ \\\"q\\\"\",\n"
                     "  \"bad \\ufffd\"\n"
                     "]\n");
}

TEST_CASE("Untrusted compares by value and is empty like a string", "[untrusted]") {
    Untrusted u = std::string("python3");
    CHECK(u == "python3");
    CHECK_FALSE(u == "python");
    CHECK_FALSE(u.empty());
    CHECK(Untrusted().empty());
}
