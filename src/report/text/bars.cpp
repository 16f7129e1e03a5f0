// Horizontal bars in text, in Unicode eighth blocks or ASCII: the
// staircase's picture (the seed article draws it as a slider over 0..5
// retries, 500 ms a step); and the min-median-max line of -n rounds.
#include "report/text/bars.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace loopcheck {

std::string text_bar(double value, double full, std::size_t width, bool ascii) {
    if (!(value > 0.0) || !(full > 0.0) || width == 0)
        return {};
    const double cells = std::min(value / full, 1.0) * static_cast<double>(width);
    std::string out;
    if (ascii) {
        const auto n = static_cast<std::size_t>(std::lround(cells));
        return n == 0 ? std::string(".") : std::string(n, '#');
    }
    // U+2588 FULL BLOCK, then U+258F..U+2589: one eighth .. seven eighths.
    static constexpr std::array<std::string_view, 8> eighths = {
        "", "\u258F", "\u258E", "\u258D", "\u258C", "\u258B", "\u258A", "\u2589"};
    auto whole = static_cast<std::size_t>(std::floor(cells));
    auto part = static_cast<std::size_t>(std::lround((cells - static_cast<double>(whole)) * 8.0));
    if (part == 8) {
        ++whole;
        part = 0;
    }
    for (std::size_t i = 0; i < whole; ++i)
        out += "\u2588";
    out += eighths[part];
    return out.empty() ? std::string(eighths[1]) : out;
}

std::string spread_line(double min, double median, double max, std::size_t width, bool ascii) {
    width = std::max<std::size_t>(width, 3);
    const double span = max - min;
    const auto at =
        span > 0.0
            ? static_cast<std::size_t>(std::lround(std::clamp((median - min) / span, 0.0, 1.0) *
                                                   static_cast<double>(width - 1)))
            : 0;
    std::string out;
    for (std::size_t i = 0; i < width; ++i) {
        if (i == at)
            out += ascii ? "+" : "\u253C"; // BOX DRAWINGS LIGHT VERTICAL AND HORIZONTAL
        else if (i == 0)
            out += ascii ? "|" : "\u251C";
        else if (i == width - 1)
            out += ascii ? "|" : "\u2524";
        else
            out += ascii ? "-" : "\u2500";
    }
    return out;
}

} // namespace loopcheck
