// Checks the untrusted-text tests share: nothing a terminal acts on, and
// Markdown that renders as loopcheck wrote it.
#pragma once

#include "loopcheck/core/text/untrusted.hpp"
#include "support/catch.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace loopcheck::test {

inline std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const auto end = std::min(text.find('\n', pos), text.size());
        out.push_back(text.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

/// No control, bidi or non-UTF-8 byte anywhere but the newlines.
inline void check_terminal_safe(const std::string& out) {
    for (const auto& line : split_lines(out)) {
        INFO(escape_text(line));
        CHECK(is_terminal_safe(line));
    }
}

/// The cell separators of a GFM table row: pipes not escaped by an odd run
/// of backslashes (GFM splits cells before it looks at code spans).
inline std::size_t separators(const std::string& row) {
    std::size_t n = 0, backslashes = 0;
    for (char c : row) {
        if (c == '|' && backslashes % 2 == 0)
            ++n;
        backslashes = c == '\\' ? backslashes + 1 : 0;
    }
    return n;
}

/// Outside code spans a line has no unescaped [ ] or tag-opening <, and every code span
/// closes on its line: no name turned into a link, an image, HTML or an
/// open code span.
inline void check_inline(const std::string& line) {
    INFO(escape_text(line));
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '\\') {
            ++i;
            continue;
        }
        if (c == '`') {
            std::size_t run = 0;
            while (i + run < line.size() && line[i + run] == '`')
                ++run;
            const std::string fence(run, '`');
            // The closing run has exactly the opening's length.
            std::size_t close = i + run;
            for (;;) {
                close = line.find(fence, close);
                if (close == std::string::npos)
                    break;
                std::size_t len = 0;
                while (close + len < line.size() && line[close + len] == '`')
                    ++len;
                if (len == run)
                    break;
                close += len;
            }
            REQUIRE(close != std::string::npos);
            i = close + run - 1;
            continue;
        }
        CHECK(c != '[');
        CHECK(c != ']');
        // HTML and autolinks start with < and a letter, /, ! or ?.
        const char next = i + 1 < line.size() ? line[i + 1] : ' ';
        CHECK_FALSE((c == '<' && (std::isalpha(static_cast<unsigned char>(next)) || next == '/' ||
                                  next == '!' || next == '?')));
    }
}

/// Markdown that renders as loopcheck wrote it: every table row has its
/// header's column count, and inline text is checked by check_inline.
inline void check_markdown(const std::string& md) {
    check_terminal_safe(md);
    const auto lines = split_lines(md);
    bool fenced = false;
    std::size_t columns = 0;
    for (const auto& line : lines) {
        if (line.rfind("```", 0) == 0) {
            fenced = !fenced;
            continue;
        }
        // loopcheck's own <details> blocks: their summaries are its fixed text.
        if (fenced || line == "<details>" || line == "</details>" ||
            line == "<summary>Raw samples</summary>" ||
            (line.rfind("<summary>Each client (", 0) == 0 && line.ends_with(" rows)</summary>")))
            continue;
        if (line.rfind("|", 0) == 0) {
            INFO(escape_text(line));
            if (columns == 0)
                columns = separators(line);
            CHECK(separators(line) == columns);
        } else {
            columns = 0;
        }
        check_inline(line);
    }
    CHECK_FALSE(fenced);
}

} // namespace loopcheck::test
