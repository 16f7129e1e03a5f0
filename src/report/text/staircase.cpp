// `loopcheck staircase` as text: one table per address with a bar per
// limit beside its numbers, the fitted step and the conclusion.
#include "loopcheck/core/text.hpp"
#include "loopcheck/report/text.hpp"
#include "report/text/bars.hpp"
#include "report/text/table.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace loopcheck {

namespace {

std::string option_cell(const StairStep& s) {
    std::string out(option_state_name(s.option));
    if (s.option == OptionState::refused && !s.option_error.empty())
        out += fmt::format(" ({})", s.option_error);
    return out;
}

std::string outcome_cell(const StairStep& s) {
    std::string out(step_outcome_name(s));
    if (s.mixed)
        out += " (mixed)";
    return out;
}

/// The bars' scale: the longest median of any address at any limit, so
/// that 127.0.0.1's and ::1's bars compare; at least 1 ms, so that a flat
/// staircase of 0.01 ms refusals does not blow its jitter up to full bars.
double bar_scale(const StaircaseReport& r) {
    double longest = 1000.0;
    for (const auto& a : r.addresses)
        for (const auto& s : a.steps)
            if (s.latency.count > 0)
                longest = std::max(longest, static_cast<double>(s.latency.median.count()));
    return longest;
}

void step_table(std::string& out, const StaircaseAddress& a, const TextStyle& style,
                std::size_t width, double full) {
    text::Table table;
    table.header = {"limit", "outcome", "median", "min", "max", "SYN rtx", "option"};
    for (const auto& s : a.steps) {
        const bool measured = s.latency.count > 0;
        table.rows.push_back(
            {std::to_string(s.limit), outcome_cell(s),
             measured ? format_duration(s.latency.median) : "-",
             measured ? format_duration(s.latency.min) : "-",
             measured ? format_duration(s.latency.max) : "-",
             s.syn_retransmissions ? std::to_string(*s.syn_retransmissions) : "n/a",
             option_cell(s)});
    }
    // The bar column takes what the numbers leave of the width: at least 10
    // columns (a wide option error then wraps inside its own column), at
    // most 40. A bar has no spaces, so the table never wraps it.
    std::size_t natural = 0;
    for (const auto& line : text::table_lines(table, 1000))
        natural = std::max(natural, columns(line));
    const std::size_t bar_width =
        std::clamp<std::size_t>(width > natural + 2 ? width - natural - 2 : 0, 10, 40);
    table.header.emplace_back();
    for (std::size_t i = 0; i < a.steps.size(); ++i) {
        const auto& s = a.steps[i];
        table.rows[i].push_back(
            s.latency.count > 0
                ? text_bar(static_cast<double>(s.latency.median.count()), full, bar_width,
                           style.ascii)
                : std::string());
    }
    for (const auto& line : text::table_lines(table, width))
        out += line + "\n";
}

/// "+500 ms", "-0.002 ms": a fitted value, which may come out negative.
std::string fitted_ms(double ms, bool plus) {
    const auto us = static_cast<std::int64_t>(std::llround(ms * 1000.0));
    return fmt::format("{}{}", us < 0 ? "-" : (plus ? "+" : ""),
                       format_duration(Micros{us < 0 ? -us : us}));
}

/// `text` wrapped at the width, every line indented by two spaces.
std::string wrapped(std::string_view text, std::size_t width) {
    std::string out;
    wrap_into(out, "  ", text, 2, width);
    return out;
}

} // namespace

std::string render_text(const StaircaseReport& r, const TextStyle& style) {
    const auto width = static_cast<std::size_t>(std::max(40, style.width));
    // The walk starts at 1 where limit 0 cannot be asked for (Windows before 1709).
    const bool from_one = !r.addresses.empty() && !r.addresses.front().steps.empty() &&
                          r.addresses.front().steps.front().limit == 1;
    std::string out;
    wrap_into(out, "",
              fmt::format("Staircase: refused connects with {} set to {}..{}, {} probe(s) per "
                          "limit",
                          syn_limit_option(r.system.os), from_one ? 1 : 0, staircase_max_limit,
                          r.count),
              2, width);
    const double full = bar_scale(r);
    out += fmt::format("Bars: the median connect at each limit; a full bar is {}\n",
                       format_duration(Micros{static_cast<std::int64_t>(full)}));
    if (r.incomplete)
        out += "INCOMPLETE: interrupted before every probe finished\n";
    for (const auto& note : r.notes)
        wrap_into(out, "", fmt::format("Note: {}", note), 2, width);
    for (const auto& a : r.addresses) {
        out += fmt::format("\n{}{}  [{}]\n", endpoint_string(a.address),
                           a.reserved ? " (a closed port loopcheck reserved)" : "",
                           staircase_shape_name(a.shape));
        step_table(out, a, style, width, full);
        if (a.fit_ms) {
            std::string limits;
            for (int l : a.fitted_limits)
                limits += fmt::format("{}{}", limits.empty() ? "" : ",", l);
            wrap_into(out, "  ",
                      fmt::format("Fit: {} per retry, {} at no retry (least squares over limits "
                                  "{})",
                                  fitted_ms(a.fit_ms->slope, true),
                                  fitted_ms(a.fit_ms->intercept, false), limits),
                      4, width);
        }
        out += wrapped(a.conclusion, width);
    }
    std::string facts = fmt::format("System: {} {}", r.system.os_name, r.system.os_version);
    for (const auto& [k, v] : r.system.tcp_settings)
        facts += fmt::format("; {}={}", k, v);
    facts += fmt::format("; timeout {}", format_duration(r.timeout));
    out += "\n";
    wrap_into(out, "", facts, 2, width);
    return out;
}

} // namespace loopcheck
