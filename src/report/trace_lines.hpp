// The words `loopcheck trace` says in both text and Markdown
// (src/report/trace_lines.cpp), from the facts core's analysis gives, so
// both formats (and the JSON's "summary") say the same.
#pragma once

#include "loopcheck/core/trace/report.hpp"

#include <string>
#include <string_view>

namespace loopcheck {

/// The verdict's word: "SLOW", "SLOW ON WINDOWS", "FAILED", "OK", "NOT TRACED".
std::string_view trace_verdict_word(const TraceReport& r);
/// The one verdict line after the word: "10 connections to localhost:8000
/// would lose 2.50 s to 20.0 s on Windows".
std::string trace_verdict(const TraceReport& r);
/// "seccomp+ptrace", "LD_PRELOAD shim only", "none".
std::string_view trace_mode_name(TraceMode m);
/// "seccomp_ptrace", "preload", "none": the JSON's words.
std::string_view trace_mode_id(TraceMode m);
/// What ran: "python3 app.py (exit 0 after 0.43 s); seccomp+ptrace;
/// Windows' localhost order".
std::string trace_what_ran(const TraceReport& r);
/// What the trace cannot see in this run, in one sentence; empty when
/// nothing: io_uring connects, self-tracing processes.
std::string trace_limits(const TraceReport& r);
/// "python 3.11", "an unknown program (dial)".
std::string group_runtime(const TraceGroup& g);
/// "localhost:8000", "[::1]:8000" (a literal), with `how_named` "(name
/// inferred)" after a name the trace inferred.
std::string group_target(const TraceGroup& g, bool how_named = true);
/// "[::1]:8000, 10 times; each connection then fell back to
/// 127.0.0.1:8000"; empty when nothing was refused.
std::string group_refused(const TraceGroup& g);
/// "0.21 ms lost (Linux refuses at once)", "6.11 s lost, 2.04 s the most
/// for one connection (measured: Windows' timing)".
std::string group_here(const TraceGroup& g, const TraceRun& run);
/// "0.25 s to 2.00 s per connection, 2.50 s to 20.0 s for the run's 10".
std::string group_windows(const TraceGroup& g);
/// "2.04 s per connection, as Python requests / urllib / httpx (sync) and 2
/// more rows": the timing mode's measurement and the rows it matches; empty
/// without one.
std::string group_measured(const TraceGroup& g);
/// "2.00 s  Python requests / urllib / httpx (sync): sequential".
std::string row_cost(const TraceRowCost& row);
/// The fix in one paragraph: the address to connect to, then the server's
/// own setting.
std::string group_fix(const TraceGroup& g);
/// "exit 1: on Windows the run would lose more than --threshold 100 ms".
std::string trace_exit_line(const TraceReport& r);
/// "refused", "accepted", "timed out", ...
std::string_view trace_outcome_name(TraceOutcome o);
/// "shim", "inferred", "none".
std::string_view name_source_name(NameSource s);
/// "pays_here", "pays_on_windows", ...: the JSON's words.
std::string_view trace_exit_id(TraceExit e);

} // namespace loopcheck
