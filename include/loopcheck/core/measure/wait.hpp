// `loopcheck wait`: what the poller observed and what it means. The poller
// (src/cli/cmd_wait.cpp) records every connect here; these pure functions
// decide when the wait is over, what the timeline shows, the findings and
// the exit code, so every rule is unit-tested without a socket.
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/input/target.hpp"
#include "loopcheck/core/listeners/listener.hpp"
#include "loopcheck/core/measure/http_answer.hpp"
#include "loopcheck/core/measure/sample.hpp"
#include "loopcheck/core/result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loopcheck {

/// What the wait is for.
enum class WaitGoal : std::uint8_t {
    any_address,   ///< default: one address of each target accepts
    all_addresses, ///< --all-addresses: every address of each target has accepted
    down,          ///< --down: no address of any target accepts any more
};

std::string_view wait_goal_name(WaitGoal g) noexcept;

/// A stretch of consecutive polls of one address with the same outcome.
struct WaitRun {
    Outcome outcome = Outcome::error;
    Micros from{0}; ///< when the first poll of the run ended, since the wait began
    Micros to{0};   ///< when the last one ended
    int polls = 0;
};

struct WaitAddress {
    Address address;
    std::vector<WaitRun> timeline;      ///< every poll, run-length encoded
    std::optional<Micros> first_accept; ///< when a poll first ended accepted
    bool reached = false;               ///< this address did what the goal asks of it
    /// Set when the wait ended while this address's connect was still
    /// unanswered: how long it had waited.
    std::optional<Micros> unanswered_for;
    /// HTTP readiness: how many GETs this address answered (or failed),
    /// and the last one's answer.
    int answers = 0;
    std::optional<HttpAnswer> last_answer;
};

/// HTTP readiness for one target: the GET it waits for.
struct WaitHttp {
    std::string path;  ///< as the request names it, exactly as typed: never printed
    std::string shown; ///< the same with query values redacted, for reports
};

struct WaitTarget {
    Target target;
    /// Why the name does not resolve (yet): the wait asks again until
    /// --for runs out, as a compose service's name appears only once its
    /// container starts.
    std::optional<Error> resolve_error;
    int resolve_attempts = 0;
    /// When the name first resolved, if not at the start of the wait.
    std::optional<Micros> resolved_at;
    /// Set when the wait is for an HTTP answer (an http:// URL, or
    /// --http PATH), not just an accepted connect.
    std::optional<WaitHttp> http;
    /// An https:// URL: loopcheck speaks no TLS, so this target waits for
    /// its port only, and the report says so.
    bool tls_unchecked = false;
    std::vector<WaitAddress> addresses; ///< in resolver order
    std::optional<Micros> done_at;      ///< when the goal was met for this target
    /// What listens on the port at the end, when the wait ran out on a
    /// local target and the table could be read.
    std::optional<std::vector<Listener>> listeners;
    std::string listener_error; ///< why the table could not be read
};

enum class WaitSeverity : std::uint8_t { warning, error };

/// A finding in the vocabulary every report shares: {id, severity,
/// message}, and the target it is about.
struct WaitFinding {
    std::string target; ///< as typed
    std::string id;     ///< "unresolved", "fallback-penalty", "wait-timed-out"
    WaitSeverity severity = WaitSeverity::warning;
    std::string message;
};

struct WaitReport {
    std::string loopcheck_version;
    std::string os; ///< "Linux 6.1.0": the OS and its version, for a ticket
    std::string command_line;
    WaitGoal goal = WaitGoal::any_address;
    bool strict = false;
    Micros limit{30'000'000}; ///< --for
    Micros interval{25'000};  ///< --interval
    /// --expect-status: the statuses an HTTP target's GET must answer.
    std::vector<StatusRange> expect_status = default_expected_statuses();
    std::vector<WaitTarget> targets;
    Micros waited{0};
    bool timed_out = false;
    bool interrupted = false;
    bool terminated = false; ///< the stop was SIGTERM: exit 143, not 130
    std::vector<WaitFinding> findings;
    int exit_code = 0;
};

/// Appends one finished poll of an address at `at` (since the wait began)
/// to its timeline and marks it reached when the outcome is what `goal`
/// wants (accepted; for --down refused or unreachable, not a timeout,
/// which a full accept queue gives too). With `needs_answer` (HTTP
/// readiness) an accept is not enough: record_answer decides.
void record_poll(WaitAddress& a, WaitGoal goal, Outcome outcome, Micros at,
                 bool needs_answer = false);

/// Records the answer to a GET sent after an accepted poll: the address is
/// reached when its status is one of `expect`.
void record_answer(WaitAddress& a, HttpAnswer answer, const std::vector<StatusRange>& expect);

/// Whether any target waits for an HTTP answer.
bool waits_for_http(const WaitReport& r);

/// Whether the goal is met for a target: any address reached (the
/// default), or every one (--all-addresses, --down). A target whose name
/// did not resolve never is.
bool target_done(const WaitTarget& t, WaitGoal goal);

/// The address a client would end up on: the first in resolver order that
/// accepted; null when none did (or for --down).
const WaitAddress* winning_address(const WaitTarget& t, WaitGoal goal);

/// The addresses before the winner in resolver order that did not accept:
/// what an in-order client tries first. Empty when there is no winner.
std::vector<const WaitAddress*> refusing_before_winner(const WaitTarget& t, WaitGoal goal);

/// The findings and the exit code, from a finished wait: the order
/// warning (an error with --strict), and for a wait that ran out, why
/// (nothing listens, it listens elsewhere, no answer, no name).
void conclude_wait(WaitReport& r);

/// The live line: "waiting for localhost:8000: ::1 refused, 127.0.0.1
/// refused - 3.2 s"; the first target not yet done, and how many more.
std::string wait_status_line(const WaitReport& r, Micros elapsed);

/// The first line in a CI log (stderr not a terminal): "loopcheck wait:
/// up to 1m for localhost:8000 (GET /health, 200-399), localhost:5432".
std::string wait_start_line(const WaitReport& r);

/// A CI log's heartbeat, every few seconds: "waiting for localhost:8000
/// (12 s of 60 s): 127.0.0.1 refused, ::1 refused"; the first target not
/// yet done, and how many more.
std::string wait_heartbeat_line(const WaitReport& r, Micros elapsed);

} // namespace loopcheck
