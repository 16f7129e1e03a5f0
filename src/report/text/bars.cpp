// Horizontal bars in text, in Unicode eighth blocks or ASCII: the
// staircase's picture (the seed article draws it as a slider over 0..5
// retries, 500 ms a step).
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

} // namespace loopcheck
