// `loopcheck staircase` as JSON ("loopcheck-staircase/1").
#include "loopcheck/report/json.hpp"
#include "report/json/writer.hpp"

#include <cstdint>
#include <fmt/format.h>

namespace loopcheck {

namespace {

/// One address's steps: each limit's outcome, latency and option state.
void json_steps(JsonWriter& w, const std::vector<StairStep>& steps) {
    w.key("steps").array(steps, [](JsonWriter& j, const StairStep& s) {
        j.begin_object();
        j.key("limit").value(s.limit);
        j.key("outcome").value(step_outcome_name(s));
        j.key("mixed").value(s.mixed);
        j.key("native_name").value(s.native_name);
        j.key("latency_ms").begin_object();
        j.key("count").value(s.latency.count);
        j.key("min").millis(s.latency.min);
        j.key("median").millis(s.latency.median);
        j.key("max").millis(s.latency.max);
        j.end_object();
        j.key("syn_retransmissions").optional(s.syn_retransmissions);
        j.key("option").value(option_state_name(s.option));
        j.key("option_error");
        s.option_error.empty() ? j.null() : j.value(s.option_error);
        j.end_object();
    });
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
        w.key("limits").values(a.fitted_limits);
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
    w.key("timeout_ms").millis(r.timeout);
    w.key("count").value(r.count);
    w.key("max_limit").value(staircase_max_limit);
    w.end_object();
    w.key("notes").values(r.notes);
    w.key("incomplete").value(r.incomplete);
    w.key("addresses").array(r.addresses, json_address);
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
