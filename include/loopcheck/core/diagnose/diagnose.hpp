// The diagnosis engine: from the addresses in resolver order and what each
// connect did, name what is wrong, what each kind of client pays, and the
// fix. Pure: no sockets, no clock. Every finding id is documented in
// docs/diagnosis.md with the evidence it needs.
#pragma once

#include "loopcheck/core/clients/impact.hpp"
#include "loopcheck/core/diagnose/facts.hpp"
#include "loopcheck/core/input/machine.hpp"
#include "loopcheck/core/input/target.hpp"
#include "loopcheck/core/listeners/listener.hpp"
#include "loopcheck/core/measure/netstat.hpp"
#include "loopcheck/core/measure/observation.hpp"
#include "loopcheck/core/result.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

enum class Severity : std::uint8_t { ok, info, warning, error };
std::string_view severity_name(Severity s) noexcept;

/// Stable finding ids (the JSON report and the docs use these strings).
namespace finding_id {
inline constexpr std::string_view healthy = "healthy";
inline constexpr std::string_view slow_refusal = "slow-refusal";
inline constexpr std::string_view fallback_penalty = "fallback-penalty";
inline constexpr std::string_view single_stack_listener = "single-stack-listener";
inline constexpr std::string_view server_down = "server-down";
inline constexpr std::string_view no_answer = "no-answer";
inline constexpr std::string_view short_timeout = "short-timeout";
inline constexpr std::string_view slow_accept = "slow-accept";
inline constexpr std::string_view unresolved = "unresolved";
/// Something listens on the port, but on no address the target reaches.
inline constexpr std::string_view listener_elsewhere = "listener-elsewhere";
/// An accept needed a SYN retransmission: the listener's backlog overflowed.
inline constexpr std::string_view accept_queue_full = "accept-queue-full";
/// Client rows that fail here while another address or client connects:
/// the finding names each row (the PARTIAL verdict).
inline constexpr std::string_view clients_fail = "clients-fail";
/// Client rows that connect here but wait longer than the threshold.
inline constexpr std::string_view clients_slow = "clients-slow";
/// ::1 is not configured here (EADDRNOTAVAIL): IPv6 is off on loopback.
inline constexpr std::string_view ipv6_off = "ipv6-off";
/// --expect refused, and an address accepted.
inline constexpr std::string_view not_refused = "not-refused";
} // namespace finding_id

/// Why a refusal was slow.
namespace cause {
inline constexpr std::string_view syn_retransmission = "syn-retransmission";
inline constexpr std::string_view unknown = "unknown";
} // namespace cause

/// What already says a finding's fact on the one-screen report, which then
/// leaves the finding to -v. Core decides it (Diagnoser::covers), from the
/// facts; no report reads a sentence to find out.
enum class CoveredBy : std::uint8_t {
    nothing,
    verdict,     ///< the verdict line words it in full (unresolved, fallback-penalty)
    client_fold, ///< the client fold names every row it lists, with its cost
    /// Another finding (`Finding::covering`) times it, and the address
    /// table holds its retries and its time without them (slow-refusal
    /// under server-down or fallback-penalty).
    finding,
};

struct Finding {
    std::string id;
    Severity severity = Severity::info;
    std::string cause; ///< for slow-refusal; empty otherwise
    /// The finding's facts, one struct per id (core/diagnose/facts.hpp); the words
    /// are report/phrasing.cpp's.
    facts::FindingFacts facts;
    std::optional<Address> address; ///< the address the finding is about, if one
    CoveredBy covered_by = CoveredBy::nothing;
    std::string covering{}; ///< CoveredBy::finding: the id of the finding that says it
};

struct Diagnosis {
    /// The verdict: its form (OK, SLOW, PARTIAL, DOWN, UNEXPECTED,
    /// UNRESOLVED or INCOMPLETE), word, exit code and the facts its line
    /// names (decide_verdict, core/diagnose/verdict.hpp).
    facts::Verdict verdict;
    std::vector<Finding> findings;
    std::vector<ClientImpact> clients;
    /// Every client model comes to the same result within 1 ms, so a
    /// report may say so in one line instead of a table.
    bool clients_agree = false;
    /// Off Windows: the rows' "on Windows" predictions agree too (true on
    /// Windows, where there are none). A report shows the table when either
    /// is false.
    bool clients_agree_on_windows = true;
    /// What to do, first the fix the one-screen report shows.
    std::vector<facts::Fix> fixes;
    /// The index in `fixes` of the listening server's own setting, when the
    /// server was recognised (docs/servers.md): the one-screen report shows
    /// it beside the first fix.
    std::optional<std::size_t> server_fix;
    /// The input rewritten to the address that accepted, when that avoids
    /// a fallback, here or on Windows (the first fix, as a value scripts
    /// can use).
    std::optional<std::string> rewritten;
    int exit_code = 0;
    /// Off Windows: what the rows' "on Windows" predictions assumed.
    WindowsProjection windows;
};

struct DiagnosisInput {
    const Target* target = nullptr;
    std::span<const Observation> addresses; ///< in resolver order
    Micros threshold{100'000};
    Micros timeout{5'000'000};
    Os os = Os::other;
    bool expect_refused = false;
    /// ConcludeContext::own_listener: no clients-fail or clients-slow
    /// finding, so the verdict is about what the probe measured.
    bool own_listener = false;
    /// ConcludeContext::own_socket: the target is one of loopcheck's own
    /// throwaway sockets (the self-check's listener and closed ports),
    /// single-stack on purpose: no single-stack-listener finding and no
    /// fix, which would point at loopcheck itself (issue 24).
    bool own_socket = false;
    /// What listens on the target's port on this machine
    /// (platform::list_listeners), when the target is local and the table
    /// could be read; nullopt otherwise. Findings and fixes then name the
    /// process and the address it is bound to.
    std::optional<std::span<const Listener>> listeners;
    /// The kernel's ListenOverflows counter before and after the probes
    /// (Linux), for the accept-queue-full finding; nullopt elsewhere.
    std::optional<ListenOverflows> listen_overflows;
    /// TargetReport::curl_localhost, summarised: for the curl rows only.
    std::span<const Observation> curl_localhost;
    /// ClientContext::full_rows: off when the caller keeps no client rows
    /// (then Diagnosis::windows and clients_agree_on_windows say nothing).
    bool full_client_rows = true;
};

Diagnosis diagnose(const DiagnosisInput& in);
Diagnosis diagnose_unresolved(const Target& target, const Error& error);

/// The wait a stack puts between SYN retransmissions after a refusal or a
/// lost SYN: 500 ms on Windows (KB175523; measured as a 500 ms staircase),
/// 1 s on Linux and macOS (the initial RTO; linear on Linux 6.7+). Zero when
/// unknown.
Micros syn_retry_step(Os os) noexcept;

/// How many whole retry steps `latency` is, when it is within 10 % of a step
/// of one (1 or more); nullopt when it fits none.
std::optional<int> fits_retry_steps(Micros latency, Micros step) noexcept;

} // namespace loopcheck
