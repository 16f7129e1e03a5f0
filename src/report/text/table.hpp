// The one table renderer of the text reports (check, audit, staircase,
// wait, scan): columns fitted to the width, cells wrapped by words inside
// their own column, never across the row.
#pragma once

#include "report/text/writer.hpp"

#include <string>
#include <vector>

namespace loopcheck::text {

struct Table {
    std::vector<std::string> header; ///< empty: no header row
    std::vector<std::vector<std::string>> rows;
    std::size_t indent = 2;
};

/// The table's lines, none wider than `width` columns unless a single
/// character column could not fit: each column as wide as its widest cell
/// when the row fits, else the widest columns narrowed (not below their
/// longest word while any column can still give) and the cells wrapped. A
/// column empty in every row, header included, is left out.
/// `header_lines`, when given, is set to the lines the header took.
std::vector<std::string> table_lines(const Table& table, std::size_t width,
                                     std::size_t* header_lines = nullptr);

/// Writes the table through `w` at its width, the header row dimmed.
void write_table(Writer& w, const Table& table);

} // namespace loopcheck::text
