// The document model's Markdown back-end: blocks a blank line apart, each
// run neutralised for where it stands (core/text/untrusted.hpp), tables in GFM.
#include "report/document.hpp"

#include "loopcheck/core/text/text.hpp"

namespace loopcheck::doc {

namespace {

std::string runs(const Text& text, MarkdownPlace where) {
    std::string s;
    for (const auto& r : text) {
        if (!shows(r.media, Media::markdown))
            continue;
        std::string piece;
        switch (r.kind) {
        case Run::Kind::literal:
            piece = r.text;
            break;
        case Run::Kind::prose:
            piece = escape_markdown(plain_spaces(r.text)); // Markdown wraps for itself
            break;
        case Run::Kind::code:
            piece = markdown_code(r.text, where);
            break;
        case Run::Kind::untrusted:
            piece = r.raw.markdown(where);
            break;
        }
        s += r.strong ? "**" + piece + "**" : piece;
    }
    return s;
}

class Markdown {
public:
    void block(const Block& b) {
        std::visit([this](const auto& x) { write(x); }, b);
    }

    std::string take() { return std::move(out_); }

private:
    /// Every block after the first starts after a blank line.
    void start() {
        if (any_)
            out_ += '\n';
        any_ = true;
    }

    static std::string line(const Paragraph& p) {
        return runs(p.lead, MarkdownPlace::inline_text) + runs(p.body, MarkdownPlace::inline_text);
    }

    void write(const Paragraph& p) {
        if (!shows(p.media, Media::markdown))
            return;
        start();
        if (p.level > 0)
            out_ += std::string(static_cast<std::size_t>(p.level), '#') + " ";
        out_ += line(p) + "\n";
    }

    void write(const List& l) {
        if (!shows(l.media, Media::markdown))
            return;
        bool first = true;
        for (const auto& item : l.items) {
            if (!shows(item.media, Media::markdown))
                continue;
            if (first)
                start();
            first = false;
            out_ += "- " + line(item) + "\n";
        }
    }

    void row(const std::vector<std::string>& cells) {
        out_ += "|";
        for (const auto& c : cells)
            out_ += " " + c + " |";
        out_ += "\n";
    }

    void write(const Table& t) {
        if (!shows(t.media, Media::markdown))
            return;
        std::vector<std::size_t> shown;
        for (std::size_t c = 0; c < t.columns.size(); ++c)
            if (shows(t.columns[c].media, Media::markdown))
                shown.push_back(c);
        start();
        std::vector<std::string> cells;
        for (const auto c : shown)
            cells.push_back(runs(t.columns[c].title, MarkdownPlace::table_cell));
        row(cells);
        out_ += "|";
        for (std::size_t i = 0; i < shown.size(); ++i)
            out_ += "---|";
        out_ += "\n";
        for (const auto& r : t.rows) {
            cells.clear();
            for (const auto c : shown)
                cells.push_back(c < r.size() ? runs(r[c].text, MarkdownPlace::table_cell)
                                             : std::string());
            row(cells);
        }
    }

    void write(const Gap& g) {
        if (shows(g.media, Media::markdown))
            start();
    }

    void write(const Verbatim& v) {
        if (!shows(v.media, Media::markdown))
            return;
        start();
        out_ += v.text;
    }

    std::string out_;
    bool any_ = false;
};

} // namespace

std::string to_markdown(const Document& d) {
    Markdown m;
    for (const auto& b : d.blocks)
        m.block(b);
    return m.take();
}

} // namespace loopcheck::doc
