// `loopcheck staircase` as JSON ("loopcheck-staircase/1").
#include "loopcheck/report/json.hpp"

#include "report/json/writer.hpp"

#include <fmt/format.h>

namespace loopcheck {

namespace {

void ms(JsonWriter& w, std::string_view key, Micros d) {
    w.key(key).number(to_ms(d), 3);
}

/// One address's steps: each limit's outcome, latency and option state.
void json_steps(JsonWriter& w, const std::vector<StairStep>& steps) {
    w.key("steps").begin_array();
    for (const auto& s : steps) {
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
}

/// One address: its shape, fit, conclusion and steps.
void json_address(JsonWriter& w, const StaircaseAddress& a) {
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
    json_steps(w, a.steps);
    w.end_object();
}

} // namespace

std::string render_json(const StaircaseReport& r) {
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
        json_address(w, a);
    }
    w.end_array();
    // Each address's conclusion again in the findings vocabulary every
    // report shares ({id, severity, message, address}).
    w.key("findings").begin_array();
    for (const auto& a : r.addresses) {
        if (a.conclusion.empty())
            continue;
        w.begin_object();
        w.key("id").value("staircase");
        w.key("severity").value("info");
        w.key("message").value(a.conclusion);
        w.key("address").value(endpoint_string(a.address));
        w.end_object();
    }
    w.end_array();
    w.key("exit_code").value(r.exit_code);
    w.end_object();
    return w.str();
}

} // namespace loopcheck
