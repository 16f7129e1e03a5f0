// What `loopcheck trace -- COMMAND` observed, as values: the platform's
// tracer (src/platform/linux/) fills a TraceRun, core's trace analysis
// (src/core/) turns it into a report, and the reporters print that. Nothing
// here knows how the connects were seen (ptrace, eBPF, a preload shim): the
// run says which mode ran, so the report can.
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/listeners/listener.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loopcheck {

/// How one traced connect ended, as the tracer saw it on its own duplicate
/// of the socket (never by reading the program's SO_ERROR, which would
/// steal the error from the program).
enum class TraceOutcome : std::uint8_t {
    accepted,  ///< the handshake completed (ESTABLISHED, or connect() returned 0)
    refused,   ///< ECONNREFUSED: a reset answered the SYN
    timed_out, ///< ETIMEDOUT: the kernel gave up retransmitting the SYN
    abandoned, ///< the program closed the socket while it was still SYN_SENT
    error,     ///< another errno (see TraceConnect::error)
    unknown,   ///< the program or the trace ended before the outcome was seen
};

/// Where TraceConnect::name came from.
enum class NameSource : std::uint8_t {
    none,     ///< no name is known: the program connected to an address
    shim,     ///< the preload shim saw the program's getaddrinfo() for it
    inferred, ///< consistent with localhost: one process tried ::1 and
              ///< 127.0.0.1 on the same port in a row
};

/// Which mechanism observed the connects.
enum class TraceMode : std::uint8_t {
    seccomp_ptrace, ///< a seccomp filter traps connect(); ptrace serves it
    preload,        ///< the preload shim alone (dynamically linked programs)
    none,           ///< tracing was refused: nothing was observed
};

/// One TCP connect() to a loopback destination (127.0.0.0/8, ::1, or
/// ::ffff:127.0.0.0/104, the last reported as its IPv4 address).
struct TraceConnect {
    double start_ms = 0;               ///< since the command started
    std::optional<double> duration_ms; ///< connect() to outcome; none if unknown
    int pid = 0;                       ///< the thread-group id
    int tid = 0;                       ///< the thread that called connect()
    Address destination;               ///< family, bytes and port
    bool v4_mapped = false;            ///< the program wrote ::ffff:127.x.y.z
    bool nonblocking = false;          ///< connect() returned EINPROGRESS
    std::string name;                  ///< the name the program resolved, if known
    NameSource name_source = NameSource::none;
    TraceOutcome outcome = TraceOutcome::unknown;
    int error = 0;                     ///< the errno for refused/timed_out/error
    std::uint32_t syn_retransmits = 0; ///< TCP_INFO's count when last read
    /// What the program itself read for this connect: connect()'s own
    /// errno for a blocking one, its getsockopt(SO_ERROR) for a
    /// non-blocking one; none when the program never asked.
    std::optional<int> program_errno;
};

/// One process the command ran (each execve gives a new entry).
struct TraceProcess {
    int pid = 0;
    int parent_pid = 0;
    std::string executable;        ///< /proc/PID/exe at the exec (untrusted text)
    std::vector<std::string> argv; ///< its first arguments, bounded (untrusted)
    std::string runtime;           ///< "python", "node", "java", "go", "curl", ... or ""
    std::string runtime_version;   ///< "3.11.2", "20.19.2", "go1.19.8", ... or ""
};

/// What one traced run of a command saw.
struct TraceRun {
    TraceMode mode = TraceMode::none;
    std::string mode_reason;             ///< why this mode and not a better one
    std::vector<std::string> command;    ///< the command as given (untrusted)
    std::vector<TraceConnect> connects;  ///< loopback TCP connects, in start order
    std::vector<TraceProcess> processes; ///< every exec seen, in order
    std::uint64_t other_connects = 0;    ///< connects to non-loopback or non-TCP peers
    std::uint64_t io_uring_setups = 0;   ///< io_uring_setup() calls: connects there are invisible
    std::vector<int> self_tracing_pids;  ///< processes that tried ptrace() themselves
    bool windows_order = false;          ///< ran with Windows' answer for localhost
    std::string windows_order_note;      ///< what ran instead, when that was refused
    bool windows_timing = false;         ///< refusals slowed on real packets (tarpit/namespace)
    std::string windows_timing_note;     ///< what --windows-timing could not slow, when any
    double wall_ms = 0;                  ///< the command's own wall time
    int exit_status = 0;                 ///< its exit status, when it exited
    int exit_signal = 0;                 ///< the signal that ended it, else 0
    /// The listening sockets on the loopback ports the command connected
    /// to, read by the run layer while the command ran (at the first
    /// connect to each port) or when it ended, each with its server
    /// recognised (Listener::server): the report's fix names the server's
    /// own setting. Empty when the table could not be read.
    std::vector<Listener> listeners;
};

} // namespace loopcheck
