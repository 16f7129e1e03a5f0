// What `loopcheck trace -- COMMAND` concludes from a TraceRun
// (src/core/trace/analysis.cpp, trace_cost.cpp): the connects grouped per
// (runtime, host:port), what each group lost here, what the same connects
// cost on Windows by the client table's rows for that runtime, the fix,
// and the exit code. Facts only: the reporters put them in words.
#pragma once

#include "loopcheck/core/clients/table.hpp"
#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/trace/trace.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loopcheck {

/// The fix for one group's slow or failed connects.
struct TraceFix {
    /// The address on the group's port that accepted here: the one to
    /// connect to. None when every address was refused (nothing listens).
    std::optional<Address> connect_to;
    /// The server's id in the server table (docs/servers.md), when the
    /// listener table named it or the port's usual server is assumed;
    /// empty when unknown.
    std::string server;
    bool server_inferred = false; ///< from the port's usual server, not a listener seen
    /// The server's own both-families setting (server_fix's sentence,
    /// "Or start uvicorn with ..."), or the generic one.
    std::string server_fix;
};

/// One client-table row's cost for one connection of a group on Windows.
struct TraceRowCost {
    std::string client; ///< the row's name: "Python requests / urllib / httpx (sync)"
    std::string algorithm;
    Micros per_connection{0};
    bool connects = true; ///< false: the row never connects on Windows
};

/// The connects of one runtime to one host:port.
struct TraceGroup {
    std::string runtime;                  ///< "python", ...; "" when unknown
    std::string runtime_version;          ///< "" when unknown
    std::vector<std::string> executables; ///< the executables' file names (untrusted)
    /// The name the program connected to ("localhost") or, without one,
    /// the address literal it used.
    std::string host;
    NameSource name_source = NameSource::none;
    std::uint16_t port = 0;
    std::size_t connects = 0; ///< connect() calls
    std::size_t accepted = 0, refused = 0, failed_otherwise = 0;
    /// Connections the program tried to make: a run of connects by one
    /// thread to the group's addresses until one is accepted (or an
    /// address comes round again).
    std::size_t connections = 0;
    std::size_t fallbacks = 0; ///< connections refused first, then accepted at another address
    std::size_t failures = 0;  ///< connections that never connected
    std::vector<Address> refused_addresses; ///< each address refused here, in first-seen order
    /// Measured here: from each connection's first attempt to its accepted
    /// one (or to its last failure), summed over the connections that
    /// tried more than once or failed; and the largest one.
    Micros lost_here{0};
    Micros lost_here_max{0};
    /// The client table's rows that could be this runtime, each with what
    /// one connection costs it on Windows, in the table's order; the least
    /// and the most of them below (equal when the table knows the library).
    /// A connection that accepts at once on Windows costs 0.
    std::vector<TraceRowCost> rows;
    Micros windows_per_connection_min{0};
    Micros windows_per_connection_max{0};
    /// The same over the group's connections, row by row.
    Micros windows_total_min{0};
    Micros windows_total_max{0};
    /// Some of the rows never connect on Windows (Node.js without
    /// autoSelectFamily tries ::1 alone; both addresses refused).
    bool windows_may_fail = false;
    /// ::1 was never tried here (no Windows order) and no listener table
    /// said whether the server takes it: taken as refused, as with a server
    /// that listens on 127.0.0.1 only.
    bool ipv6_assumed_refused = false;
    /// With --windows-timing: what one connection that fell back lost here
    /// on average (the program's own algorithm against Windows' refusal
    /// timing), and the rows whose Windows cost is within max(80 ms, 25 %)
    /// of it: the library the table could not tell from the runtime.
    std::optional<Micros> measured_per_connection;
    std::vector<std::string> matching_rows;
    std::optional<TraceFix> fix; ///< when the group lost time or failed, here or on Windows
};

/// Why trace exits as it does.
enum class TraceExit : std::uint8_t {
    command_status,  ///< the command's own non-zero status
    command_signal,  ///< 128 + the signal that ended it
    pays_here,       ///< the run lost more than the threshold here
    pays_on_windows, ///< the same run would lose more than the threshold on Windows
    clean,           ///< 0
};

struct TraceReport {
    TraceRun run;                   ///< what was seen (every connect for -v)
    std::vector<TraceGroup> groups; ///< the slowest on Windows first
    /// Per connect in `run.connects`: its runtime, for -v ("" unknown).
    std::vector<std::string> connect_runtimes;
    Micros threshold{100'000};
    Micros lost_here{0};         ///< over every group
    Micros windows_total_min{0}; ///< over every group
    Micros windows_total_max{0};
    std::size_t refused_connects = 0;
    TraceExit exit_reason = TraceExit::clean;
    int exit_code = 0;
    std::string loopcheck_version;
    std::string os; ///< "Linux 6.1.0", for a ticket
};

/// Marks, in place, connects with no name that are "consistent with
/// localhost": one thread tried ::1 and 127.0.0.1 (or ::ffff:127.0.0.1) on
/// one port one right after the other (NameSource::inferred, name
/// "localhost"). Connects with a name keep it.
void infer_localhost(std::vector<TraceConnect>& connects);

/// The whole conclusion: names inferred, groups, costs, fixes, exit code.
TraceReport analyze_trace(TraceRun run, Micros threshold);

/// The exit code `loopcheck trace` returns, and why: the command's own
/// non-zero status first, or 128 + the signal that ended it; else 1 when
/// the run lost more than `threshold` here or would on Windows (the most
/// the runtime's rows say); else 0.
std::pair<int, TraceExit> trace_exit_code(const TraceRun& run, Micros lost_here,
                                          Micros windows_total_max, Micros threshold);

/// The client table's rows that could be `runtime` at `version`: its own
/// rows in the version's range, and for Python every library row
/// (requests, asyncio with and without a delay, httpx, aiohttp), which the
/// interpreter's version does not tell apart. Every row when the runtime is
/// unknown.
std::vector<const ClientModel*> runtime_rows(std::string_view runtime, std::string_view version);

} // namespace loopcheck
