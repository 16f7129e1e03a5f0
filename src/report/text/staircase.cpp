// `loopcheck staircase` as text: one table per address, the fitted step
// and the conclusion.
#include "loopcheck/report/text.hpp"

#include "loopcheck/core/text.hpp"

#include <algorithm>
#include <array>
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

void step_table(std::string& out, const StaircaseAddress& a) {
    using Row = std::array<std::string, 7>;
    std::vector<Row> rows;
    rows.push_back({"limit", "outcome", "median", "min", "max", "SYN rtx", "option"});
    for (const auto& s : a.steps) {
        const bool measured = s.latency.count > 0;
        rows.push_back({std::to_string(s.limit), outcome_cell(s),
                        measured ? format_duration(s.latency.median) : "-",
                        measured ? format_duration(s.latency.min) : "-",
                        measured ? format_duration(s.latency.max) : "-",
                        s.syn_retransmissions ? std::to_string(*s.syn_retransmissions) : "n/a",
                        option_cell(s)});
    }
    // Widths in characters, not bytes: an option's error text may be UTF-8
    // (a localised Winsock message).
    std::array<std::size_t, 7> widths{};
    for (const auto& r : rows)
        for (std::size_t c = 0; c < r.size(); ++c)
            widths[c] = std::max(widths[c], columns(r[c]));
    for (const auto& r : rows) {
        std::string line = " ";
        for (std::size_t c = 0; c < r.size(); ++c) {
            line += ' ';
            append_padded(line, r[c], widths[c] + 1);
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
}

/// "+500 ms", "-0.002 ms": a fitted value, which may come out negative.
std::string fitted_ms(double ms, bool plus) {
    const auto us = static_cast<std::int64_t>(std::llround(ms * 1000.0));
    return fmt::format("{}{}", us < 0 ? "-" : (plus ? "+" : ""),
                       format_duration(Micros{us < 0 ? -us : us}));
}

/// `text` wrapped at 100 columns, every line indented by two spaces.
std::string wrapped(std::string_view text) {
    std::string out;
    wrap_into(out, "  ", text, 2, 100);
    return out;
}

} // namespace

std::string render_text(const StaircaseReport& r) {
    // The walk starts at 1 where limit 0 cannot be asked for (Windows before 1709).
    const bool from_one = !r.addresses.empty() && !r.addresses.front().steps.empty() &&
                          r.addresses.front().steps.front().limit == 1;
    std::string out =
        fmt::format("Staircase: refused connects with {} set to {}..{}, {} probe(s) per limit\n",
                    syn_limit_option(r.system.os), from_one ? 1 : 0, staircase_max_limit, r.count);
    if (r.incomplete)
        out += "INCOMPLETE: interrupted before every probe finished\n";
    for (const auto& note : r.notes)
        out += fmt::format("Note: {}\n", note);
    for (const auto& a : r.addresses) {
        out += fmt::format("\n{}{}  [{}]\n", endpoint_string(a.address),
                           a.reserved ? " (a closed port loopcheck reserved)" : "",
                           staircase_shape_name(a.shape));
        step_table(out, a);
        if (a.fit_ms) {
            std::string limits;
            for (int l : a.fitted_limits)
                limits += fmt::format("{}{}", limits.empty() ? "" : ",", l);
            out += fmt::format("  Fit: {} per retry, {} at no retry (least squares over limits "
                               "{})\n",
                               fitted_ms(a.fit_ms->slope, true),
                               fitted_ms(a.fit_ms->intercept, false), limits);
        }
        out += wrapped(a.conclusion);
    }
    out += fmt::format("\nSystem: {} {}", r.system.os_name, r.system.os_version);
    for (const auto& [k, v] : r.system.tcp_settings)
        out += fmt::format("; {}={}", k, v);
    out += fmt::format("; timeout {}\n", format_duration(r.timeout));
    return out;
}

} // namespace loopcheck
