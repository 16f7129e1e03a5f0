// `loopcheck staircase` as text: one table per address, the fitted step
// and the conclusion.
#include "loopcheck/core/text.hpp"
#include "loopcheck/report/text.hpp"
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

void step_table(std::string& out, const StaircaseAddress& a, std::size_t width) {
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
    if (r.incomplete)
        out += "INCOMPLETE: interrupted before every probe finished\n";
    for (const auto& note : r.notes)
        wrap_into(out, "", fmt::format("Note: {}", note), 2, width);
    for (const auto& a : r.addresses) {
        out += fmt::format("\n{}{}  [{}]\n", endpoint_string(a.address),
                           a.reserved ? " (a closed port loopcheck reserved)" : "",
                           staircase_shape_name(a.shape));
        step_table(out, a, width);
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
