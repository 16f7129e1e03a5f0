// The words `loopcheck trace` says in text and Markdown (trace_lines.hpp).
// Untrusted pieces (the command, executables) are escaped here, once.
#include "report/trace_lines.hpp"

#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/text/untrusted.hpp"

#include <cstdint>
#include <fmt/format.h>

namespace loopcheck {

namespace {

std::string range(Micros lo, Micros hi) {
    if (lo == hi)
        return format_duration(hi);
    return fmt::format("{} to {}", format_duration(lo), format_duration(hi));
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string command_line(const TraceRun& run) {
    std::string out;
    for (const auto& a : run.command) {
        if (!out.empty())
            out += ' ';
        out += escape_text(a);
        if (out.size() > 60) {
            out += " ...";
            break;
        }
    }
    return out;
}

const TraceGroup* worst(const TraceReport& r) {
    return r.groups.empty() ? nullptr : &r.groups.front();
}

} // namespace

std::string_view trace_mode_name(TraceMode m) {
    switch (m) {
    case TraceMode::seccomp_ptrace:
        return "seccomp+ptrace";
    case TraceMode::preload:
        return "LD_PRELOAD shim only";
    case TraceMode::none:
        return "none";
    }
    return "none";
}

std::string_view trace_mode_id(TraceMode m) {
    switch (m) {
    case TraceMode::seccomp_ptrace:
        return "seccomp_ptrace";
    case TraceMode::preload:
        return "preload";
    case TraceMode::none:
        return "none";
    }
    return "none";
}

std::string_view trace_outcome_name(TraceOutcome o) {
    switch (o) {
    case TraceOutcome::accepted:
        return "accepted";
    case TraceOutcome::refused:
        return "refused";
    case TraceOutcome::timed_out:
        return "timed out";
    case TraceOutcome::abandoned:
        return "abandoned";
    case TraceOutcome::error:
        return "error";
    case TraceOutcome::unknown:
        return "unknown";
    }
    return "unknown";
}

std::string_view name_source_name(NameSource s) {
    switch (s) {
    case NameSource::shim:
        return "shim";
    case NameSource::inferred:
        return "inferred";
    case NameSource::none:
        return "none";
    }
    return "none";
}

std::string_view trace_exit_id(TraceExit e) {
    switch (e) {
    case TraceExit::command_status:
        return "command_status";
    case TraceExit::command_signal:
        return "command_signal";
    case TraceExit::pays_here:
        return "pays_here";
    case TraceExit::pays_on_windows:
        return "pays_on_windows";
    case TraceExit::clean:
        return "clean";
    }
    return "clean";
}

std::string_view trace_verdict_word(const TraceReport& r) {
    if (r.run.mode == TraceMode::none)
        return "NOT TRACED";
    switch (r.exit_reason) {
    case TraceExit::pays_here:
        return "SLOW";
    case TraceExit::pays_on_windows:
        return "SLOW ON WINDOWS";
    case TraceExit::command_status:
    case TraceExit::command_signal:
        return r.windows_total_max > r.threshold || r.lost_here > r.threshold ? "FAILED, SLOW"
                                                                              : "FAILED";
    case TraceExit::clean:
        return "OK";
    }
    return "OK";
}

std::string trace_verdict(const TraceReport& r) {
    if (r.run.mode == TraceMode::none)
        return escape_text(r.run.mode_reason);
    const TraceGroup* g = worst(r);
    if (!g || r.run.connects.empty())
        return "no loopback TCP connects seen";
    const std::string target = group_target(*g, false);
    if (r.lost_here > r.threshold)
        return fmt::format("{} lost by {} to {}{}", format_duration(r.lost_here),
                           plural(g->connections, "connection", "connections"), target,
                           r.groups.size() > 1 && r.lost_here > g->lost_here ? " and others" : "");
    if (r.windows_total_max > r.threshold)
        return fmt::format(
            "up to {} lost by {} to {}{}", format_duration(r.windows_total_max),
            plural(g->connections, "connection", "connections"), target,
            r.groups.size() > 1 && r.windows_total_max > g->windows_total_max ? " and others" : "");
    return fmt::format("{} to loopback, none slow here or on Windows",
                       plural(r.run.connects.size(), "connect", "connects"));
}

std::string trace_what_ran(const TraceReport& r) {
    const TraceRun& run = r.run;
    std::string ended = run.exit_signal ? fmt::format("killed by signal {}", run.exit_signal)
                                        : fmt::format("exit {}", run.exit_status);
    std::string out =
        fmt::format("{} ({} after {}); {}", command_line(run), ended,
                    format_duration(Micros{static_cast<std::int64_t>(run.wall_ms * 1000)}),
                    trace_mode_name(run.mode));
    if (run.windows_order)
        out += "; Windows' localhost order (::1 first)";
    else if (!run.windows_order_note.empty())
        out += "; " + escape_text(run.windows_order_note);
    if (run.windows_timing)
        out += "; Windows' refusal timing";
    if (!run.windows_timing_note.empty())
        out += "; " + escape_text(run.windows_timing_note);
    return out;
}

std::string trace_limits(const TraceReport& r) {
    std::string out;
    if (r.run.io_uring_setups > 0)
        out += fmt::format("{} io_uring set-up(s): connects made through io_uring are not seen. ",
                           r.run.io_uring_setups);
    if (!r.run.self_tracing_pids.empty())
        out += fmt::format("{} tried to trace itself (ptrace): a debugger or sanitizer cannot "
                           "run under the tracer. ",
                           plural(r.run.self_tracing_pids.size(), "process", "processes"));
    if (!out.empty())
        out.pop_back();
    return out;
}

std::string group_runtime(const TraceGroup& g) {
    if (g.runtime.empty())
        return g.executables.empty()
                   ? std::string("an unknown program")
                   : fmt::format("an unknown program ({})", escape_text(g.executables.front()));
    return g.runtime_version.empty() ? g.runtime
                                     : fmt::format("{} {}", g.runtime, g.runtime_version);
}

std::string group_target(const TraceGroup& g, bool how_named) {
    const bool v6 = g.host.find(':') != std::string::npos;
    std::string out =
        v6 ? fmt::format("[{}]:{}", g.host, g.port) : fmt::format("{}:{}", g.host, g.port);
    if (how_named && g.name_source == NameSource::inferred)
        out += " (name inferred)";
    return out;
}

std::string group_refused(const TraceGroup& g) {
    if (g.refused_addresses.empty())
        return {};
    std::string addresses;
    for (const auto& a : g.refused_addresses)
        addresses += (addresses.empty() ? "" : " and ") + endpoint_string(a);
    std::string out = fmt::format("{}, {}", addresses, plural(g.refused, "time", "times"));
    if (g.fallbacks > 0)
        out += fmt::format("; {} then fell back to {}",
                           g.fallbacks == g.connections
                               ? std::string("each connection")
                               : plural(g.fallbacks, "connection", "connections"),
                           g.fix && g.fix->connect_to ? endpoint_string(*g.fix->connect_to)
                                                      : std::string("another address"));
    if (g.failures > 0)
        out += fmt::format("; {} never connected", plural(g.failures, "connection", "connections"));
    return out;
}

std::string group_here(const TraceGroup& g, const TraceRun& run) {
    if (run.windows_timing)
        return fmt::format("{} lost, {} the most for one connection (measured with Windows' "
                           "refusal timing)",
                           format_duration(g.lost_here), format_duration(g.lost_here_max));
    return fmt::format("{} lost (Linux refuses at once)", format_duration(g.lost_here));
}

std::string group_windows(const TraceGroup& g) {
    std::string out = fmt::format("{} per connection, {} for the run's {}",
                                  range(g.windows_per_connection_min, g.windows_per_connection_max),
                                  range(g.windows_total_min, g.windows_total_max),
                                  plural(g.connections, "connection", "connections"));
    if (g.windows_may_fail)
        out += "; some clients never connect there";
    if (g.ipv6_assumed_refused)
        out += " (::1 taken as refused: it was not tried and no listener table said)";
    return out;
}

std::string group_measured(const TraceGroup& g) {
    if (!g.measured_per_connection)
        return {};
    std::string out = fmt::format("{} per connection", format_duration(*g.measured_per_connection));
    if (g.matching_rows.empty())
        return out + ", as none of the table's rows for this runtime";
    out += ", as " + g.matching_rows.front();
    if (g.matching_rows.size() > 1)
        out += fmt::format(" and {} more", plural(g.matching_rows.size() - 1, "row", "rows"));
    return out;
}

std::string row_cost(const TraceRowCost& row) {
    return fmt::format("{}  {}{}", format_duration(row.per_connection), row.client,
                       row.connects ? "" : " (fails)");
}

std::string group_fix(const TraceGroup& g) {
    if (!g.fix)
        return {};
    const TraceFix& f = *g.fix;
    std::string out;
    if (f.connect_to)
        out = fmt::format(
            "Connect to {}, the address the server listens on{}. ", endpoint_string(*f.connect_to),
            g.name_source != NameSource::none ? fmt::format(", not {}", g.host) : std::string{});
    else
        out =
            fmt::format("Nothing accepted on port {}: start the server, or fix the port. ", g.port);
    out += f.server_fix;
    if (f.server_inferred)
        out += fmt::format(" (assumed: {} is its usual port)", g.port);
    return out;
}

std::string trace_exit_line(const TraceReport& r) {
    switch (r.exit_reason) {
    case TraceExit::command_status:
        return fmt::format("exit {}: the command's own status", r.exit_code);
    case TraceExit::command_signal:
        return fmt::format("exit {}: the command was killed by signal {}", r.exit_code,
                           r.run.exit_signal);
    case TraceExit::pays_here:
        return fmt::format("exit 1: the run lost more than --threshold {} here",
                           format_duration(r.threshold));
    case TraceExit::pays_on_windows:
        return fmt::format("exit 1: on Windows the run would lose more than --threshold {}",
                           format_duration(r.threshold));
    case TraceExit::clean:
        return fmt::format("exit 0: nothing over --threshold {}", format_duration(r.threshold));
    }
    return {};
}

} // namespace loopcheck
