// The staircase's two renderings. Like the main reporters they format the
// report and compute nothing.
#include "loopcheck/report/staircase_report.hpp"

#include "loopcheck/core/text.hpp"
#include "report/json_writer.hpp"

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

void ms(JsonWriter& w, std::string_view key, Micros d) {
    w.key(key).number(to_ms(d), 3);
}

} // namespace

std::string render_staircase_text(const StaircaseReport& r) {
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

std::string render_staircase_json(const StaircaseReport& r) {
    JsonWriter w;
    w.begin_object();
    w.key("schema").value("loopcheck-staircase/1");
    w.key("loopcheck_version").value(r.loopcheck_version);
    w.key("system").begin_object();
    w.key("os").value(r.system.os_name);
    w.key("os_version").value(r.system.os_version);
    w.key("windows_build").value(static_cast<std::int64_t>(r.system.windows_build));
    w.key("tcp_settings").begin_object();
    for (const auto& [k, v] : r.system.tcp_settings)
        w.key(k).value(v);
    w.end_object();
    w.end_object();
    w.key("target");
    r.target.empty() ? w.null() : w.value(r.target);
    w.key("option").value(syn_limit_option(r.system.os));
    w.key("settings").begin_object();
    ms(w, "timeout_ms", r.timeout);
    w.key("count").value(r.count);
    w.key("max_limit").value(staircase_max_limit);
    w.end_object();
    w.key("notes").begin_array();
    for (const auto& n : r.notes)
        w.value(n);
    w.end_array();
    w.key("incomplete").value(r.incomplete);
    w.key("addresses").begin_array();
    for (const auto& a : r.addresses) {
        w.begin_object();
        w.key("endpoint").value(endpoint_string(a.address));
        w.key("family").value(family_name(a.address.family));
        w.key("reserved_closed_port").value(a.reserved);
        w.key("shape").value(staircase_shape_name(a.shape));
        w.key("fit");
        if (a.fit_ms) {
            w.begin_object();
            w.key("step_ms").number(a.fit_ms->slope, 3);
            w.key("intercept_ms").number(a.fit_ms->intercept, 3);
            w.key("limits").begin_array();
            for (int l : a.fitted_limits)
                w.value(l);
            w.end_array();
            w.end_object();
        } else {
            w.null();
        }
        // The kernel's SYN count against the fitted shape: corroboration only.
        w.key("kernel_count").value(kernel_count_name(a.kernel_count));
        w.key("conclusion").value(a.conclusion);
        w.key("steps").begin_array();
        for (const auto& s : a.steps) {
            w.begin_object();
            w.key("limit").value(s.limit);
            w.key("outcome").value(step_outcome_name(s));
            w.key("mixed").value(s.mixed);
            w.key("native_name").value(s.native_name);
            w.key("latency_ms").begin_object();
            w.key("count").value(s.latency.count);
            ms(w, "min", s.latency.min);
            ms(w, "median", s.latency.median);
            ms(w, "max", s.latency.max);
            w.end_object();
            w.key("syn_retransmissions").optional(s.syn_retransmissions);
            w.key("option").value(option_state_name(s.option));
            w.key("option_error");
            s.option_error.empty() ? w.null() : w.value(s.option_error);
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
    w.key("exit_code").value(r.exit_code);
    w.end_object();
    return w.str();
}

} // namespace loopcheck
