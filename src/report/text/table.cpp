// The one table renderer of the text reports: fit the columns to the width,
// wrap each cell by words inside its column (issue 24: rows of the client
// table broke mid-word across the whole row at 80 and 120 columns).
#include "report/text/table.hpp"

#include "loopcheck/core/text/text.hpp"

#include <algorithm>
#include <numeric>

namespace loopcheck::text {

namespace {

std::size_t longest_word(std::string_view s) {
    std::size_t best = 0;
    while (!s.empty()) {
        const auto space = s.find(' ');
        best = std::max(best, columns(s.substr(0, space)));
        if (space == std::string_view::npos)
            break;
        s.remove_prefix(space + 1);
    }
    return best;
}

/// `cell` in lines of at most `width` columns: whole, its spacing kept,
/// when it fits; else broken at spaces (core's one word-wrapper), a word
/// wider than the column cut.
std::vector<std::string> wrap_cell(std::string_view cell, std::size_t width) {
    return wrap_lines(cell, width, width,
                      {.cut_long_words = true, .collapse_spaces = columns(cell) > width});
}

std::string_view cell_at(const std::vector<std::string>& row, std::size_t c) {
    return c < row.size() ? std::string_view(row[c]) : std::string_view{};
}

/// What each column needs. natural: the widest cell; body: the widest below
/// the header (a header wider than its cells wraps first: one line for the
/// whole table); floor: the longest word.
struct ColumnNeeds {
    std::vector<std::size_t> natural, body, floor;
};

ColumnNeeds measure(const Table& table, std::size_t n) {
    ColumnNeeds m{std::vector<std::size_t>(n, 0), std::vector<std::size_t>(n, 0),
                  std::vector<std::size_t>(n, 0)};
    auto take = [&](const std::vector<std::string>& row, bool header) {
        for (std::size_t c = 0; c < n; ++c) {
            const auto cols = columns(cell_at(row, c));
            m.natural[c] = std::max(m.natural[c], cols);
            if (!header)
                m.body[c] = std::max(m.body[c], cols);
            m.floor[c] = std::max(m.floor[c], longest_word(cell_at(row, c)));
        }
    };
    take(table.header, true);
    for (const auto& r : table.rows)
        take(r, false);
    return m;
}

/// Widths of the `shown` columns, natural where they fit in `avail`. Narrow
/// the widest column that can still give, one column at a time: first the
/// headers down to their cells, then each column down to its longest word,
/// then (a last resort) below, so words are cut only when nothing else fits.
std::vector<std::size_t> narrow(const ColumnNeeds& m, const std::vector<std::size_t>& shown,
                                std::size_t avail) {
    const std::size_t n = m.natural.size();
    auto w = m.natural;
    auto total = [&] {
        return std::accumulate(shown.begin(), shown.end(), std::size_t{0},
                               [&](std::size_t s, std::size_t c) { return s + w[c]; });
    };
    for (const int stage : {0, 1, 2}) {
        while (total() > avail) {
            std::size_t best = n;
            for (const auto c : shown) {
                const std::size_t least = stage == 0
                                              ? std::max({m.body[c], m.floor[c], std::size_t{1}})
                                          : stage == 1 ? std::max<std::size_t>(m.floor[c], 1)
                                                       : 1;
                if (w[c] > least && (best == n || w[c] > w[best]))
                    best = c;
            }
            if (best == n)
                break;
            --w[best];
        }
    }
    return w;
}

/// Lays one row out as lines: each cell wrapped in its column, the row as
/// tall as its tallest cell, columns two spaces apart, no trailing blanks.
void lay_out_row(std::vector<std::string>& out, const std::vector<std::string>& row,
                 const std::vector<std::size_t>& shown, const std::vector<std::size_t>& w,
                 std::size_t indent) {
    std::vector<std::vector<std::string>> parts;
    std::size_t height = 1;
    for (const auto c : shown) {
        parts.push_back(wrap_cell(cell_at(row, c), w[c]));
        height = std::max(height, parts.back().size());
    }
    for (std::size_t h = 0; h < height; ++h) {
        std::string line(indent, ' ');
        for (std::size_t i = 0; i < shown.size(); ++i) {
            const std::string_view text =
                h < parts[i].size() ? std::string_view(parts[i][h]) : std::string_view();
            if (i + 1 < shown.size()) {
                append_padded(line, text, w[shown[i]]);
                line += "  ";
            } else {
                line += text;
            }
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out.push_back(std::move(line));
    }
}

} // namespace

std::vector<std::string> table_lines(const Table& table, std::size_t width,
                                     std::size_t* header_lines) {
    std::size_t n = table.header.size();
    for (const auto& r : table.rows)
        n = std::max(n, r.size());
    const ColumnNeeds needs = measure(table, n);
    std::vector<std::size_t> shown; // columns with any text
    for (std::size_t c = 0; c < n; ++c)
        if (needs.natural[c] > 0)
            shown.push_back(c);
    if (shown.empty())
        return {};
    const std::size_t gaps = 2 * (shown.size() - 1);
    const std::size_t avail =
        width > table.indent + gaps + shown.size() ? width - table.indent - gaps : shown.size();
    const auto w = narrow(needs, shown, avail);
    std::vector<std::string> out;
    if (!table.header.empty())
        lay_out_row(out, table.header, shown, w, table.indent);
    if (header_lines)
        *header_lines = out.size();
    for (const auto& r : table.rows)
        lay_out_row(out, r, shown, w, table.indent);
    return out;
}

void write_table(Writer& w, const Table& table) {
    std::size_t header_lines = 0;
    const auto lines = table_lines(table, w.width(), &header_lines);
    // The header dimmed as one block, however many lines it wrapped to.
    if (header_lines > 0) {
        std::string head;
        for (std::size_t i = 0; i < header_lines; ++i)
            head += (i > 0 ? "\n" : "") + lines[i];
        w.line(w.paint(head, colors::dim));
    }
    for (std::size_t i = header_lines; i < lines.size(); ++i)
        w.line(lines[i]);
}

} // namespace loopcheck::text
