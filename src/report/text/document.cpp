// The document model's terminal back-end and the program's one painter:
// paragraphs wrapped at the width by core's one word-wrapper (never
// between a number and its unit), tables through the one table renderer,
// colour only when asked for.
#include "report/document.hpp"

#include "loopcheck/core/text/text.hpp"
#include "report/text/bars.hpp"
#include "report/text/table.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace loopcheck::doc {

std::string paint(std::string_view text, Tone tone, bool color) {
    // SGR: 1 bold, 2 dim, 31 red, 32 green, 33 yellow; 0 resets.
    static constexpr std::string_view codes[] = {"", "1", "2", "31", "32", "33"};
    if (!color || tone == Tone::none)
        return std::string(text);
    return fmt::format("\033[{}m{}\033[0m", codes[static_cast<unsigned>(tone)], text);
}

namespace {

class Terminal {
public:
    explicit Terminal(const TextStyle& style)
        : style_(style), width_(static_cast<std::size_t>(std::max(40, style.width))) {}

    void block(const Block& b) {
        std::visit([this](const auto& x) { write(x); }, b);
    }

    std::string take() { return std::move(out_); }

private:
    /// The runs the terminal shows, controls escaped, each in its tone.
    std::string runs(const Text& text) const {
        std::string s;
        for (const auto& r : text) {
            if (!shows(r.media, Media::text))
                continue;
            const auto piece =
                r.kind == Run::Kind::untrusted ? r.raw.escaped() : escape_controls(r.text);
            s += paint(piece, r.tone, style_.color);
        }
        return s;
    }

    void write(const Paragraph& p) {
        if (!shows(p.media, Media::text))
            return;
        const auto lead = paint(runs(p.lead), p.lead_tone, style_.color);
        std::string s;
        if (p.wrap) {
            wrap_safe_into(s, lead, runs(p.body), p.hang, width_);
        } else {
            s = lead + runs(p.body) + "\n";
        }
        if (p.tone != Tone::none && style_.color) {
            s.pop_back(); // the colour ends before the newline
            s = paint(s, p.tone, true) + "\n";
        }
        out_ += s;
    }

    void write(const List& l) {
        if (!shows(l.media, Media::text))
            return;
        for (const auto& item : l.items)
            write(item);
    }

    void write(const Table& t) {
        if (!shows(t.media, Media::text))
            return;
        std::vector<std::size_t> shown;
        for (std::size_t c = 0; c < t.columns.size(); ++c)
            if (shows(t.columns[c].media, Media::text))
                shown.push_back(c);
        text::Table table;
        table.indent = t.indent;
        if (shows(t.header, Media::text))
            for (const auto c : shown)
                table.header.push_back(runs(t.columns[c].title));
        bool bars = false;
        for (const auto& row : t.rows) {
            auto& cells = table.rows.emplace_back();
            for (const auto c : shown) {
                const Cell* cell = c < row.size() ? &row[c] : nullptr;
                bars = bars || (cell && cell->bar);
                cells.push_back(cell && !cell->bar ? runs(cell->text) : std::string());
            }
        }
        if (bars)
            draw_bars(table, t, shown);
        std::size_t header_lines = 0;
        const auto lines = text::table_lines(table, width_, &header_lines);
        // The header painted as one block, however many lines it wrapped to.
        std::size_t i = 0;
        if (header_lines > 0 && t.header_tone != Tone::none) {
            std::string head;
            for (; i < header_lines; ++i)
                head += (i > 0 ? "\n" : "") + lines[i];
            out_ += paint(head, t.header_tone, style_.color) + "\n";
        }
        for (; i < lines.size(); ++i)
            out_ += lines[i] + "\n";
    }

    /// Bars take what the other columns leave of the width: at least 10
    /// columns (a wide cell then wraps inside its own column), at most 40.
    /// A bar has no spaces, so the table never wraps it.
    void draw_bars(text::Table& table, const Table& t,
                   const std::vector<std::size_t>& shown) const {
        std::size_t natural = 0; // the bar cells are still empty: left out
        for (const auto& line : text::table_lines(table, 1000))
            natural = std::max(natural, columns(line));
        const std::size_t bar_width =
            std::clamp<std::size_t>(width_ > natural + 2 ? width_ - natural - 2 : 0, 10, 40);
        for (std::size_t r = 0; r < t.rows.size(); ++r)
            for (std::size_t i = 0; i < shown.size(); ++i)
                if (shown[i] < t.rows[r].size())
                    if (const auto& bar = t.rows[r][shown[i]].bar)
                        table.rows[r][i] = text_bar(bar->value, bar->full, bar_width, style_.ascii);
    }

    void write(const Gap& g) {
        // A blank line, unless the last line already is one or nothing was
        // written: sections that may be empty never leave two.
        if (shows(g.media, Media::text) && !out_.empty() && !out_.ends_with("\n\n"))
            out_ += '\n';
    }

    void write(const Verbatim& v) {
        if (shows(v.media, Media::text))
            out_ += v.text;
    }

    const TextStyle& style_;
    std::size_t width_;
    std::string out_;
};

} // namespace

std::string to_terminal(const Document& d, const TextStyle& style) {
    Terminal t(style);
    for (const auto& b : d.blocks)
        t.block(b);
    return t.take();
}

} // namespace loopcheck::doc
