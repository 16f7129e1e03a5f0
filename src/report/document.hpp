// The document model: what a command's report says, built once from its
// report value (src/report/<command>.cpp), and the two back-ends that write
// it: the terminal (width, colour, wrapping; src/report/text/document.cpp)
// and Markdown (src/report/markdown/document.cpp). A renderer decides what
// to say and in which order; how a format says it is the back-end's. Where
// a format says something the other does not (Markdown's provenance line
// for a ticket, the terminal's bars), the piece is marked for one medium,
// so the difference is stated in one place instead of drifting in two
// files. JSON stays schema-driven (src/report/json/).
#pragma once

#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/report/text.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace loopcheck::doc {

/// Which back-ends show a piece.
enum class Media : unsigned char { text = 1, markdown = 2, both = 3 };

constexpr bool shows(Media m, Media on) noexcept {
    return (static_cast<unsigned>(m) & static_cast<unsigned>(on)) != 0;
}

/// A colour on the terminal (with colour on); Markdown has none.
enum class Tone : unsigned char { none, bold, dim, red, green, yellow };

/// `text` in `tone` as ANSI SGR when `color`, else as it is: the program's
/// one painter.
std::string paint(std::string_view text, Tone tone, bool color);

/// A piece of inline text and what it is, which decides how each back-end
/// writes it.
struct Run {
    enum class Kind : unsigned char {
        literal,   ///< loopcheck's own fixed words and numbers: as they are everywhere
        prose,     ///< a sentence or value from the report: Markdown-escaped
        code,      ///< an address, a command line, an id: a Markdown code span
        untrusted, ///< a string from another program or the OS (core's Untrusted)
    };
    Kind kind = Kind::literal;
    std::string text{}; ///< every kind but untrusted
    Untrusted raw{};    ///< untrusted
    Tone tone = Tone::none;
    bool strong = false; ///< Markdown's **bold**
    Media media = Media::both;
};

using Text = std::vector<Run>;

Run literal(std::string text);
/// A sentence from the report, with non-breaking joins where a line must
/// not break (core's keep_together: a number and its unit).
Run prose(std::string_view text);
Run code(std::string text);
Run untrusted(Untrusted raw);
/// `run` shown by one back-end only.
Run only(Media media, Run run);
/// `run` in Markdown's bold.
Run strong(Run run);
Run toned(Tone tone, Run run);
/// A word that differs by medium: a column heading "limit" / "Limit".
Text per_medium(std::string text_words, std::string markdown_words);

/// A paragraph, a heading (level > 0: "### " in Markdown) or a list item.
/// On the terminal: `lead` then `body` wrapped at the width, later lines
/// indented by `hang` (the lead is never wrapped), all of it in `tone`.
struct Paragraph {
    Text lead{};
    Text body{};
    int level = 0;
    std::size_t hang = 2;
    Tone tone = Tone::none;      ///< the whole paragraph, after wrapping
    Tone lead_tone = Tone::none; ///< the lead alone
    bool wrap = true;            ///< false: one line, however long
    Media media = Media::both;
};

/// Paragraphs Markdown writes as a "- " list with no blank line between;
/// the terminal writes each as a paragraph (its bullet, if any, is a
/// terminal-only run of its lead).
struct List {
    std::vector<Paragraph> items{};
    Media media = Media::both;
};

/// A bar in a terminal table: `value / full` of what the other columns
/// leave of the width (10 to 40 columns).
struct Bar {
    double value = 0;
    double full = 0;
};

struct Cell {
    Text text{};
    std::optional<Bar> bar{};
};

struct Column {
    Text title{};
    Media media = Media::both;
};

struct Table {
    std::vector<Column> columns{};
    std::vector<std::vector<Cell>> rows{};
    std::size_t indent = 2;
    Media header = Media::both;   ///< where the titles show
    Tone header_tone = Tone::dim; ///< the terminal's titles
    Media media = Media::both;
};

/// A blank line on the terminal (never two in a row, none at the top). In
/// Markdown, where blocks are always a blank line apart, one at the very end
/// leaves a blank line after the last block.
struct Gap {
    Media media = Media::text;
};

/// Text a back-end writes exactly as it is (Markdown's Mermaid chart).
struct Verbatim {
    std::string text{}; ///< whole lines, each ending in a newline
    Media media = Media::markdown;
};

using Block = std::variant<Paragraph, List, Table, Gap, Verbatim>;

struct Document {
    std::vector<Block> blocks{};

    Document& add(Block b) {
        blocks.push_back(std::move(b));
        return *this;
    }
};

/// The terminal back-end: wrapped at style.width (at least 40), painted
/// when style.color, bars in ASCII when style.ascii.
std::string to_terminal(const Document& d, const TextStyle& style);
/// The Markdown back-end: blocks a blank line apart, every prose, code and
/// untrusted run neutralised (core/text/untrusted.hpp).
std::string to_markdown(const Document& d);

} // namespace loopcheck::doc
