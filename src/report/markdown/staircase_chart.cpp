// The staircase's Mermaid chart (see staircase_chart.hpp). Everything in
// the block is a number or a fixed word: nothing untrusted reaches
// Mermaid's parser, whose quoting rules differ from Markdown's.
#include "report/markdown/staircase_chart.hpp"

#include "loopcheck/core/input/address.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>

namespace loopcheck {

namespace {

/// A y-axis top above the tallest bar, rounded up to a whole 100 ms (or
/// 1 ms below 100 ms), so that the steps of a 500 ms staircase land on
/// readable ticks and a flat one is not drawn as noise at full height.
double axis_top(double max_ms) {
    const double unit = max_ms >= 100.0 ? 100.0 : 1.0;
    return std::max(unit, std::ceil(max_ms * 1.1 / unit) * unit);
}

/// The address for the title, when it is only digits, hex, dots, colons and
/// brackets (a scope id names an interface, which could be anything).
std::string title_address(const Address& a) {
    std::string e = endpoint_string(a);
    const bool plain = std::all_of(e.begin(), e.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) || c == '.' || c == ':' || c == '[' ||
               c == ']';
    });
    return plain ? e + ": " : std::string();
}

} // namespace

std::string staircase_chart(const StaircaseAddress& a) {
    std::string labels;
    std::string bars;
    double max_ms = 0;
    int measured = 0;
    for (const auto& s : a.steps) {
        if (s.interrupted || s.latency.count == 0)
            continue;
        const double ms = static_cast<double>(s.latency.median.count()) / 1000.0;
        max_ms = std::max(max_ms, ms);
        labels += fmt::format("{}{}", measured == 0 ? "" : ", ", s.limit);
        bars += fmt::format("{}{:.1f}", measured == 0 ? "" : ", ", ms);
        ++measured;
    }
    if (measured < 2)
        return {};
    return fmt::format("```mermaid\n"
                       "xychart-beta\n"
                       "    title \"{}median refused connect by SYN retry limit\"\n"
                       "    x-axis \"SYN retransmissions allowed\" [{}]\n"
                       "    y-axis \"ms\" 0 --> {:.0f}\n"
                       "    bar [{}]\n"
                       "```\n",
                       title_address(a.address), labels, axis_top(max_ms), bars);
}

} // namespace loopcheck
