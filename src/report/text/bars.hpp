// Horizontal bars in text: the staircase's limits as a picture beside
// their numbers (src/report/text/bars.cpp).
#pragma once

#include <cstddef>
#include <string>

namespace loopcheck {

/// A bar `value / full * width` columns long: Unicode blocks with eighths
/// (U+2588 and U+2589..U+258F) or, with `ascii`, '#' per whole column. Empty
/// for 0 (or less, or a `full` of 0); a value above 0 that would round to
/// nothing gets the thinnest mark ("▏", or "." in ASCII), so that it does
/// not read as zero. Never wider than `width` columns.
std::string text_bar(double value, double full, std::size_t width, bool ascii);

/// The rounds of one address as a line `width` columns long (at least 3):
/// its ends are the fastest and slowest round, the cross the median, placed
/// in proportion ("├──┼───────┤", ASCII "|--+-------|"). All three equal:
/// the cross at the start.
std::string spread_line(double min, double median, double max, std::size_t width, bool ascii);

} // namespace loopcheck
