// `loopcheck staircase` as one document: a table per address (limit ->
// outcome and times; on the terminal a bar per limit, in Markdown a chart
// GitHub draws), the fit, the conclusion, the system it ran on.
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "report/document.hpp"
#include "report/markdown/staircase_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>

namespace loopcheck {

namespace {

using namespace doc;

std::string option_cell(const StairStep& s) {
    std::string out(option_state_name(s.option));
    if (s.option == OptionState::refused && !s.option_error.empty())
        out += fmt::format(" ({})", s.option_error);
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

/// "+500 ms", "-0.002 ms": a fitted value, which may come out negative.
std::string fitted_ms(double ms, bool plus) {
    const auto us = static_cast<std::int64_t>(std::llround(ms * 1000.0));
    return fmt::format("{}{}", us < 0 ? "-" : (plus ? "+" : ""),
                       format_duration(Micros{us < 0 ? -us : us}));
}

Table step_table(const StaircaseAddress& a, double full) {
    Table t{.columns = {{per_medium("limit", "Limit")},
                        {per_medium("outcome", "Outcome")},
                        {per_medium("median", "Median")},
                        {per_medium("min", "Min")},
                        {per_medium("max", "Max")},
                        {{literal("SYN rtx")}, Media::text},
                        {{literal("option")}, Media::text},
                        {{}, Media::text}},
            .header_tone = Tone::none};
    for (const auto& s : a.steps) {
        const bool measured = s.latency.count > 0;
        const auto time = [&](Micros m) {
            return Cell{{literal(measured ? format_duration(m) : "-")}};
        };
        t.rows.push_back(
            {Cell{{literal(std::to_string(s.limit))}},
             Cell{{literal(std::string(step_outcome_name(s)) + (s.mixed ? " (mixed)" : ""))}},
             time(s.latency.median), time(s.latency.min), time(s.latency.max),
             Cell{
                 {literal(s.syn_retransmissions ? std::to_string(*s.syn_retransmissions) : "n/a")}},
             Cell{{prose(option_cell(s))}},
             measured ? Cell{{}, Bar{static_cast<double>(s.latency.median.count()), full}}
                      : Cell{}});
    }
    return t;
}

void address_section(Document& d, const StaircaseAddress& a, double full) {
    d.add(Gap{});
    d.add(
        Paragraph{.body = {code(endpoint_string(a.address)),
                           literal(a.reserved ? " (a closed port loopcheck reserved)" : ""),
                           only(Media::text, literal("  [")), only(Media::markdown, literal(": ")),
                           literal(std::string(staircase_shape_name(a.shape))),
                           only(Media::text, literal("]"))},
                  .level = 3,
                  .wrap = false});
    d.add(step_table(a, full));
    if (a.fit_ms) {
        std::string limits;
        for (int l : a.fitted_limits)
            limits += fmt::format("{}{}", limits.empty() ? "" : ",", l);
        d.add(Paragraph{
            .lead = {literal("  ")},
            .body = {prose(fmt::format(
                "Fit: {} per retry, {} at no retry (least squares over limits {})",
                fitted_ms(a.fit_ms->slope, true), fitted_ms(a.fit_ms->intercept, false), limits))},
            .hang = 4,
            .media = Media::text});
    }
    // The picture after the numbers: where Mermaid is not rendered the
    // block is code, and the table above still says everything.
    if (auto chart = staircase_chart(a); !chart.empty())
        d.add(Verbatim{std::move(chart)});
    d.add(Paragraph{.lead = {only(Media::text, literal("  "))}, .body = {prose(a.conclusion)}});
}

Document staircase_document(const StaircaseReport& r) {
    Document d;
    d.add(
        Paragraph{.body = {literal("loopcheck staircase")}, .level = 2, .media = Media::markdown});
    // The walk starts at 1 where limit 0 cannot be asked for (Windows before 1709).
    const bool from_one = !r.addresses.empty() && !r.addresses.front().steps.empty() &&
                          r.addresses.front().steps.front().limit == 1;
    d.add(Paragraph{.body = {prose(fmt::format("Staircase: refused connects with {} set to {}..{}, "
                                               "{} probe(s) per limit",
                                               syn_limit_option(r.system.os), from_one ? 1 : 0,
                                               staircase_max_limit, r.count))},
                    .media = Media::text});
    d.add(Paragraph{.body = {literal(fmt::format("Refused connects with {} set to each limit, {} "
                                                 "probe(s) per limit, timeout {}.",
                                                 syn_limit_option(r.system.os), r.count,
                                                 format_duration(r.timeout)))},
                    .media = Media::markdown});
    const double full = bar_scale(r);
    d.add(Paragraph{
        .body = {literal(fmt::format("Bars: the median connect at each limit; a full bar is {}",
                                     format_duration(Micros{static_cast<std::int64_t>(full)})))},
        .wrap = false,
        .media = Media::text});
    if (r.incomplete)
        d.add(Paragraph{.body = {strong(literal("INCOMPLETE")),
                                 literal(": interrupted before every probe finished"),
                                 only(Media::markdown, literal("."))},
                        .wrap = false});
    for (const auto& note : r.notes)
        d.add(Paragraph{.body = {literal("Note: "), prose(note)}});
    for (const auto& a : r.addresses)
        address_section(d, a, full);
    d.add(Gap{});
    Paragraph facts{.body = {literal("System: "), prose(r.system.os_name), literal(" "),
                             prose(r.system.os_version)}};
    std::string settings;
    for (const auto& [k, v] : r.system.tcp_settings)
        settings += fmt::format("; {}={}", k, v);
    facts.body.insert(facts.body.end(),
                      {only(Media::text, prose(fmt::format("{}; timeout {}", settings,
                                                           format_duration(r.timeout)))),
                       only(Media::markdown, literal("; loopcheck ")),
                       only(Media::markdown, prose(r.loopcheck_version))});
    d.add(std::move(facts));
    return d;
}

} // namespace

std::string render_text(const StaircaseReport& r, const TextStyle& style) {
    return to_terminal(staircase_document(r), style);
}

std::string render_markdown(const StaircaseReport& r) {
    return to_markdown(staircase_document(r));
}

} // namespace loopcheck
