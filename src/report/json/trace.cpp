// `loopcheck trace` as JSON ("loopcheck-trace/1", docs/trace.schema.json):
// the verdict, what ran, every group with its Windows cost per client row
// and its fix, every loopback connect and every process.
#include "loopcheck/report/json.hpp"
#include "report/json/writer.hpp"
#include "report/trace_lines.hpp"

#include <cstdint>
#include <fmt/format.h>

namespace loopcheck {

namespace {

void range(JsonWriter& w, std::string_view key, Micros lo, Micros hi) {
    w.key(key).begin_object();
    w.key("min").number(to_ms(lo), 3).key("max").number(to_ms(hi), 3);
    w.end_object();
}

void json_fix(JsonWriter& w, const std::optional<TraceFix>& fix) {
    if (!fix) {
        w.null();
        return;
    }
    w.begin_object();
    w.key("connect_to");
    fix->connect_to ? w.value(endpoint_string(*fix->connect_to)) : w.null();
    w.key("server");
    fix->server.empty() ? w.null() : w.value(fix->server);
    w.key("server_inferred").value(fix->server_inferred);
    w.key("server_fix").value(fix->server_fix);
    w.end_object();
}

void json_group(JsonWriter& w, const TraceGroup& g, const TraceRun& run) {
    w.begin_object();
    w.key("runtime").value(g.runtime).key("runtime_version").value(g.runtime_version);
    w.key("executables").begin_array();
    for (const auto& e : g.executables)
        w.value(Untrusted(e));
    w.end_array();
    w.key("host").value(g.host).key("port").value(static_cast<int>(g.port));
    w.key("name_source").value(name_source_name(g.name_source));
    for (auto [key, n] : {std::pair{"connects", g.connects},
                          {"accepted", g.accepted},
                          {"refused", g.refused},
                          {"failed_otherwise", g.failed_otherwise},
                          {"connections", g.connections},
                          {"fallbacks", g.fallbacks},
                          {"failures", g.failures}})
        w.key(key).value(static_cast<std::int64_t>(n));
    w.key("refused_addresses").begin_array();
    for (const auto& a : g.refused_addresses)
        w.value(endpoint_string(a));
    w.end_array();
    w.key("lost_here_ms").number(to_ms(g.lost_here), 3);
    w.key("lost_here_max_ms").number(to_ms(g.lost_here_max), 3);
    w.key("measured").value(run.windows_timing);
    w.key("measured_per_connection_ms");
    g.measured_per_connection ? w.number(to_ms(*g.measured_per_connection), 3) : w.null();
    w.key("matching_rows").begin_array();
    for (const auto& row : g.matching_rows)
        w.value(row);
    w.end_array();
    w.key("windows").begin_object();
    range(w, "per_connection_ms", g.windows_per_connection_min, g.windows_per_connection_max);
    range(w, "total_ms", g.windows_total_min, g.windows_total_max);
    w.key("may_fail").value(g.windows_may_fail);
    w.key("ipv6_assumed_refused").value(g.ipv6_assumed_refused);
    w.key("rows").begin_array();
    for (const auto& row : g.rows) {
        w.begin_object();
        w.key("client").value(row.client).key("algorithm").value(row.algorithm);
        w.key("per_connection_ms").number(to_ms(row.per_connection), 3);
        w.key("connects").value(row.connects);
        w.end_object();
    }
    w.end_array();
    w.end_object();
    w.key("fix");
    json_fix(w, g.fix);
    w.end_object();
}

void json_connect(JsonWriter& w, const TraceConnect& c, const std::string& runtime) {
    w.begin_object();
    w.key("start_ms").number(c.start_ms, 3);
    w.key("duration_ms");
    c.duration_ms ? w.number(*c.duration_ms, 3) : w.null();
    w.key("pid").value(c.pid).key("tid").value(c.tid);
    w.key("runtime").value(runtime);
    w.key("address").value(ip_string(c.destination));
    w.key("port").value(static_cast<int>(c.destination.port));
    w.key("family").value(family_name(c.destination.family));
    w.key("v4_mapped").value(c.v4_mapped).key("nonblocking").value(c.nonblocking);
    w.key("name");
    c.name.empty() ? w.null() : w.value(Untrusted(c.name));
    w.key("name_source").value(name_source_name(c.name_source));
    w.key("outcome").value(trace_outcome_name(c.outcome));
    w.key("errno").value(c.error);
    w.key("syn_retransmits").value(static_cast<std::int64_t>(c.syn_retransmits));
    w.key("program_errno");
    c.program_errno ? w.value(*c.program_errno) : w.null();
    w.end_object();
}

} // namespace

std::string render_json(const TraceReport& r) {
    JsonWriter w;
    const TraceRun& run = r.run;
    w.begin_object();
    w.key("schema").value("loopcheck-trace/1");
    w.key("loopcheck_version").value(r.loopcheck_version);
    w.key("os").value(r.os);
    w.key("verdict").value(trace_verdict_word(r));
    w.key("summary").value(trace_verdict(r));
    w.key("exit_code").value(r.exit_code);
    w.key("exit_reason").value(trace_exit_id(r.exit_reason));
    w.key("command").begin_array();
    for (const auto& a : run.command)
        w.value(Untrusted(a));
    w.end_array();
    w.key("command_exit").begin_object();
    w.key("status").value(run.exit_status).key("signal").value(run.exit_signal);
    w.key("wall_ms").number(run.wall_ms, 3);
    w.end_object();
    w.key("mode").value(trace_mode_id(run.mode));
    w.key("mode_reason").value(run.mode_reason);
    w.key("windows_order").value(run.windows_order);
    w.key("windows_order_note").value(run.windows_order_note);
    w.key("windows_timing").value(run.windows_timing);
    w.key("windows_timing_note").value(run.windows_timing_note);
    w.key("threshold_ms").number(to_ms(r.threshold), 3);
    w.key("lost_here_ms").number(to_ms(r.lost_here), 3);
    range(w, "windows_ms", r.windows_total_min, r.windows_total_max);
    w.key("limits").begin_object();
    w.key("io_uring_setups").value(static_cast<std::int64_t>(run.io_uring_setups));
    w.key("self_tracing_pids").begin_array();
    for (int pid : run.self_tracing_pids)
        w.value(pid);
    w.end_array();
    w.key("other_connects").value(static_cast<std::int64_t>(run.other_connects));
    w.end_object();
    w.key("groups").begin_array();
    for (const auto& g : r.groups)
        json_group(w, g, run);
    w.end_array();
    w.key("connects").begin_array();
    for (std::size_t i = 0; i < run.connects.size(); ++i)
        json_connect(w, run.connects[i],
                     i < r.connect_runtimes.size() ? r.connect_runtimes[i] : std::string{});
    w.end_array();
    w.key("processes").begin_array();
    for (const auto& p : run.processes) {
        w.begin_object();
        w.key("pid").value(p.pid).key("parent_pid").value(p.parent_pid);
        w.key("executable").value(Untrusted(p.executable));
        w.key("argv").begin_array();
        for (const auto& a : p.argv)
            w.value(Untrusted(a));
        w.end_array();
        w.key("runtime").value(p.runtime).key("runtime_version").value(p.runtime_version);
        w.end_object();
    }
    w.end_array();
    w.end_object();
    return w.str();
}

} // namespace loopcheck
