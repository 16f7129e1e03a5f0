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

} // namespace loopcheck
