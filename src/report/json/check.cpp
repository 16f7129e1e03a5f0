// The JSON report ("schema": "loopcheck/1"), described field by field in
// docs/report.schema.json. Durations are milliseconds with microsecond
// precision.
#include "loopcheck/report/json.hpp"
#include "report/json/pieces.hpp"
#include "report/json/writer.hpp"
#include "report/phrasing.hpp"

#include <cstdint>

namespace loopcheck {

namespace {

void ms(JsonWriter& w, std::string_view key, Micros d) {
    w.key(key).number(to_ms(d), 3);
}

void summary(JsonWriter& w, const Summary& s) {
    w.begin_object();
    w.key("count").value(s.count);
    ms(w, "min", s.min);
    ms(w, "median", s.median);
    ms(w, "max", s.max);
    ms(w, "mean", s.mean);
    ms(w, "stddev", s.stddev);
    w.end_object();
}

void samples(JsonWriter& w, const std::vector<Sample>& list) {
    w.begin_array();
    for (const auto& s : list) {
        w.begin_object();
        w.key("outcome").value(sample_outcome_name(s));
        ms(w, "latency_ms", s.latency);
        w.key("native_code").value(s.native_code);
        w.key("native_name").value(s.native_name);
        w.key("syn_retransmissions").optional(s.syn_retransmissions);
        w.key("syn_option").value(option_state_name(s.option));
        w.key("interrupted").value(s.interrupted);
        w.key("inferred").value(s.inferred);
        w.key("syn_option_error");
        s.option_error_name.empty() ? w.null() : w.value(s.option_error_name);
        w.end_object();
    }
    w.end_array();
}

void address(JsonWriter& w, const AddressReport& a) {
    const auto& s = a.summary;
    w.begin_object();
    w.key("address").value(ip_string(a.address));
    w.key("endpoint").value(endpoint_string(a.address));
    w.key("family").value(family_name(a.address.family));
    w.key("outcome").value(summary_outcome_name(s));
    w.key("mixed").value(s.mixed);
    w.key("native_name").value(s.native_name);
    w.key("latency_ms");
    summary(w, s.latency);
    w.key("syn_retransmissions").optional(s.syn_retransmissions);
    w.key("without_syn_retries");
    if (s.fast_latency) {
        w.begin_object();
        w.key("outcome").value(outcome_name(*s.fast_outcome));
        w.key("latency_ms");
        summary(w, *s.fast_latency);
        w.end_object();
    } else {
        w.null();
    }
    w.key("syn_option_refused").value(s.fast_option_refused);
    w.key("samples");
    samples(w, a.samples);
    w.key("samples_without_syn_retries");
    samples(w, a.fast_samples);
    w.end_object();
}

/// A prediction's fields, into the object being written (a client's entry
/// adds its name in front of them).
void prediction_fields(JsonWriter& w, const ConnectPrediction& p) {
    w.key("connected").value(p.connected);
    ms(w, "connect_ms", p.time);
    w.key("via");
    p.via ? w.value(endpoint_string(*p.via)) : w.null();
    w.key("attempts").value(p.attempts);
    w.key("lower_bound").value(p.lower_bound);
}

void prediction(JsonWriter& w, const ConnectPrediction& p) {
    w.begin_object();
    prediction_fields(w, p);
    w.end_object();
}

void emulations(JsonWriter& w, const std::vector<EmulationResult>& list) {
    w.begin_array();
    for (const auto& e : list) {
        w.begin_object();
        w.key("strategy").value(e.spec.label);
        w.key("measured");
        prediction(w, e.measured);
        w.key("predicted");
        prediction(w, e.predicted);
        w.key("rounds").begin_array();
        for (const auto& r : e.rounds)
            prediction(w, r);
        w.end_array();
        w.key("off_model_rounds").value(e.rounds_off_model);
        w.end_object();
    }
    w.end_array();
}

void diagnosis(JsonWriter& w, const Diagnosis& d) {
    w.key("verdict").value(phrasing::verdict(d.verdict));
    w.key("exit_code").value(d.exit_code);
    w.key("findings").begin_array();
    for (const auto& f : d.findings) {
        w.begin_object();
        w.key("id").value(f.id);
        w.key("severity").value(severity_name(f.severity));
        w.key("cause");
        f.cause.empty() ? w.null() : w.value(f.cause);
        w.key("message").value(phrasing::finding(f));
        w.key("address");
        f.address ? w.value(endpoint_string(*f.address)) : w.null();
        w.end_object();
    }
    w.end_array();
    w.key("clients").begin_array();
    for (const auto& c : d.clients) {
        w.begin_object();
        w.key("id").value(c.id);
        w.key("versions").begin_object();
        w.key("min").optional(c.min_version);
        w.key("below").optional(c.below_version);
        w.end_object();
        w.key("client").value(c.client);
        w.key("algorithm").value(c.algorithm);
        w.key("libraries").begin_array();
        for (const auto& l : c.libraries)
            w.value(l);
        w.end_array();
        w.key("reuse").value(reuse_name(c.reuse));
        w.key("reuse_note").value(c.reuse_note);
        prediction_fields(w, c.prediction);
        w.key("windows");
        if (c.windows) {
            // What the projection assumed: Windows' own answer for
            // localhost, this machine's order otherwise.
            w.begin_object();
            prediction_fields(w, *c.windows);
            w.key("addresses").begin_array();
            for (const auto& a : d.windows.addresses)
                w.value(endpoint_string(a));
            w.end_array();
            w.key("assumed").value(d.windows.assumed);
            w.end_object();
        } else {
            w.null();
        }
        w.end_object();
    }
    w.end_array();
    w.key("fix").begin_array();
    for (const auto& f : d.fixes)
        w.value(phrasing::fix(f));
    w.end_array();
    w.key("rewritten").optional(d.rewritten);
}

void listener(JsonWriter& w, const Listener& l) {
    w.begin_object();
    w.key("address").value(ip_string(l.bound));
    w.key("endpoint").value(endpoint_string(l.bound));
    w.key("family").value(family_name(l.bound.family));
    w.key("port").value(static_cast<int>(l.bound.port));
    w.key("v6only").optional(l.v6only);
    w.key("pid");
    l.pid ? w.value(static_cast<std::int64_t>(*l.pid)) : w.null();
    w.key("process");
    l.process.empty() ? w.null() : w.value(l.process);
    w.key("uid");
    l.uid ? w.value(static_cast<std::int64_t>(*l.uid)) : w.null();
    w.key("server");
    const ServerFacts* facts = l.server ? server_facts(l.server->id) : nullptr;
    if (facts) {
        w.begin_object();
        w.key("id").value(facts->id);
        w.key("name").value(facts->name);
        w.end_object();
    } else {
        w.null();
    }
    w.end_object();
}

void listener_table(JsonWriter& w, const ListenerTableStatus& s) {
    w.begin_object();
    w.key("queried").value(s.queried);
    w.key("available").value(s.queried && !s.error);
    w.key("error").optional(s.error);
    w.key("limits");
    s.limits.empty() ? w.null() : w.value(s.limits);
    w.end_object();
}

void target(JsonWriter& w, const TargetReport& t) {
    w.begin_object();
    w.key("input").value(t.target.input);
    w.key("userinfo_redacted").value(t.target.userinfo_redacted);
    w.key("redacted").values(t.target.redacted.names());
    w.key("scheme").value(t.target.scheme);
    w.key("host").value(t.target.host);
    w.key("port").value(static_cast<int>(t.target.port));
    w.key("literal").value(t.target.literal.has_value());
    w.key("resolve_error");
    t.resolve_error ? w.value(t.resolve_error->message) : w.null();
    w.key("resolution");
    if (t.resolution) {
        w.begin_object();
        w.key("hosts_file_readable").value(t.resolution->hosts_file_readable);
        w.key("hosts_lines").begin_array();
        for (const auto& l : t.resolution->hosts_lines) {
            w.begin_object();
            w.key("line").value(l.number);
            w.key("text").value(l.text);
            w.end_object();
        }
        w.end_array();
        w.key("note").value(t.resolution->note);
        w.end_object();
    } else {
        w.null();
    }
    w.key("addresses").begin_array();
    for (const auto& a : t.addresses)
        address(w, a);
    w.end_array();
    w.key("curl_localhost").begin_array();
    for (const auto& a : t.curl_localhost)
        address(w, a);
    w.end_array();
    w.key("listeners");
    if (t.listeners) {
        w.begin_array();
        for (const auto& l : *t.listeners)
            listener(w, l);
        w.end_array();
    } else {
        w.null();
    }
    diagnosis(w, t.diagnosis);
    w.key("emulations");
    emulations(w, t.emulations);
    w.end_object();
}

} // namespace

std::string render_json(const Report& r) {
    JsonWriter w;
    w.begin_object();
    w.key("schema").value("loopcheck/1");
    w.key("loopcheck_version").value(r.loopcheck_version);
    w.key("command_line").value(r.command_line);
    w.key("system");
    json_system(w, r.system);
    w.key("settings").begin_object();
    ms(w, "timeout_ms", r.timeout);
    ms(w, "threshold_ms", r.threshold);
    w.key("count").value(r.count);
    w.end_object();
    w.key("incomplete").value(r.incomplete);
    w.key("listen_overflows");
    if (r.listen_overflows) {
        w.begin_object();
        w.key("before").value(static_cast<std::int64_t>(r.listen_overflows->before));
        w.key("after").value(static_cast<std::int64_t>(r.listen_overflows->after));
        w.end_object();
    } else {
        w.null();
    }
    w.key("quick");
    r.quick_note.empty() ? w.null() : w.value(r.quick_note);
    w.key("self_check");
    if (r.self_check) {
        w.begin_object();
        w.key("listener_port").value(static_cast<int>(r.self_check->listener_port));
        w.key("closed_port_v4").value(static_cast<int>(r.self_check->closed_port_v4));
        w.key("closed_port_v6").value(static_cast<int>(r.self_check->closed_port_v6));
        w.key("statements").begin_array();
        for (const auto& s : r.self_check->statements)
            w.value(s);
        w.end_array();
        w.end_object();
    } else {
        w.null();
    }
    w.key("listener_table");
    listener_table(w, r.listener_table);
    w.key("targets").begin_array();
    for (const auto& t : r.targets)
        target(w, t);
    w.end_array();
    w.key("exit_code").value(r.exit_code);
    w.end_object();
    return w.str();
}

void json_target(JsonWriter& w, const TargetReport& t) {
    target(w, t);
}

void json_listener(JsonWriter& w, const Listener& l) {
    listener(w, l);
}

void json_system(JsonWriter& w, const SystemFacts& s) {
    w.begin_object();
    w.key("os").value(s.os_name);
    w.key("os_version").value(s.os_version);
    w.key("windows_build").value(static_cast<std::int64_t>(s.windows_build));
    w.key("hosts_file").value(s.hosts_file);
    w.key("tcp_settings").begin_object();
    for (const auto& [k, v] : s.tcp_settings)
        w.key(k).value(v);
    w.end_object();
    const auto or_null = [&](const char* key, const std::string& v) {
        w.key(key);
        v.empty() ? w.null() : w.value(v);
    };
    or_null("distribution", s.distribution);
    or_null("architecture", s.architecture);
    or_null("environment", s.environment);
    w.key("proxies").begin_object();
    for (const auto& [k, v] : s.proxies)
        w.key(k).value(v);
    w.end_object();
    w.end_object();
}

void json_listener_table(JsonWriter& w, const ListenerTableStatus& s) {
    listener_table(w, s);
}

} // namespace loopcheck
