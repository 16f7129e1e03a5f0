// The decisions of `loopcheck wait` (include/loopcheck/core/measure/wait.hpp).
#include "loopcheck/core/measure/wait.hpp"

#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/listeners/queries.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

namespace {

bool wanted(WaitGoal goal, Outcome o) noexcept {
    // --down needs a definite "nothing here": a connect nobody answers may
    // be a server whose accept queue is full, which still holds the port.
    return goal == WaitGoal::down ? (o == Outcome::refused || o == Outcome::unreachable)
                                  : o == Outcome::accepted;
}

/// "refused", "no answer after 100 ms", "not polled yet", "answered 503
/// Service Unavailable", "accepted, then reset before a status line".
std::string last_state(const WaitAddress& a) {
    if (a.unanswered_for)
        return fmt::format("no answer after {}", format_duration(*a.unanswered_for));
    if (a.timeline.empty())
        return "not polled yet";
    if (a.last_answer && a.timeline.back().outcome == Outcome::accepted)
        return a.last_answer->status ? "answered " + answer_text(*a.last_answer)
                                     : "accepted, then " + answer_text(*a.last_answer);
    return std::string(outcome_name(a.timeline.back().outcome));
}

/// " (expecting 200-399)" when any address answered a GET: the statuses
/// the answers were held against.
std::string expectation(const WaitTarget& t, const std::vector<StatusRange>& expect) {
    const bool answered =
        std::any_of(t.addresses.begin(), t.addresses.end(),
                    [](const WaitAddress& a) { return a.last_answer.has_value(); });
    return answered && t.http
               ? fmt::format("; GET {} expects {}", t.http->shown, status_ranges_text(expect))
               : std::string();
}

std::string joined_endpoints(const std::vector<const WaitAddress*>& as) {
    std::vector<std::string> parts;
    for (const auto* a : as)
        parts.push_back(endpoint_string(a->address));
    return fmt::format("{}", fmt::join(parts, ", "));
}

/// Why a target that should have come up did not, in one sentence.
std::string why_not_up(const WaitTarget& t, Micros limit, const std::vector<StatusRange>& expect) {
    std::vector<const WaitAddress*> missing;
    for (const auto& a : t.addresses)
        if (!a.reached)
            missing.push_back(&a);
    std::vector<std::string> states;
    for (const auto* a : missing)
        states.push_back(fmt::format("{} {}", ip_string(a->address), last_state(*a)));
    std::string text = fmt::format("not up after {} ({}{})", format_duration(limit),
                                   fmt::join(states, ", "), expectation(t, expect));
    const bool all_silent = std::all_of(missing.begin(), missing.end(), [](const auto* a) {
        return a->unanswered_for ||
               (!a->timeline.empty() && a->timeline.back().outcome == Outcome::timeout);
    });
    if (t.listeners) {
        if (t.listeners->empty()) {
            text += fmt::format(": nothing listens on port {}", t.target.port);
        } else {
            std::vector<const WaitAddress*> unreached;
            for (const auto* a : missing)
                if (serving(*t.listeners, a->address) == nullptr)
                    unreached.push_back(a);
            if (!unreached.empty())
                text +=
                    fmt::format(": {}, which {} {} not reach", describe_listening(*t.listeners),
                                joined_endpoints(unreached), unreached.size() == 1 ? "does" : "do");
            else if (all_silent)
                text += fmt::format(": {}, but no connect was answered: its accept queue may be "
                                    "full, or a firewall drops the SYNs",
                                    describe_listening(*t.listeners));
            else
                text += fmt::format(": {}", describe_listening(*t.listeners));
        }
    } else if (all_silent) {
        text += ": no connect was answered: a firewall drops the SYNs, or the server's accept "
                "queue is full";
    } else if (!t.listener_error.empty()) {
        text += fmt::format(" (who listens is unknown: {})", t.listener_error);
    }
    return text;
}

std::string why_not_down(const WaitTarget& t, Micros limit) {
    std::vector<const WaitAddress*> still;
    for (const auto& a : t.addresses)
        if (!a.reached)
            still.push_back(&a);
    std::string text = fmt::format("still accepting after {}: {}", format_duration(limit),
                                   joined_endpoints(still));
    if (t.listeners && !t.listeners->empty())
        text += fmt::format(" ({})", describe_listening(*t.listeners));
    return text;
}

} // namespace

std::string_view wait_goal_name(WaitGoal g) noexcept {
    switch (g) {
    case WaitGoal::any_address:
        return "any-address";
    case WaitGoal::all_addresses:
        return "all-addresses";
    case WaitGoal::down:
        return "down";
    }
    return "any-address";
}

void record_poll(WaitAddress& a, WaitGoal goal, Outcome outcome, Micros at, bool needs_answer) {
    a.unanswered_for.reset();
    if (!a.timeline.empty() && a.timeline.back().outcome == outcome) {
        a.timeline.back().to = at;
        ++a.timeline.back().polls;
    } else {
        a.timeline.push_back({outcome, at, at, 1});
    }
    if (outcome == Outcome::accepted && !a.first_accept)
        a.first_accept = at;
    if (wanted(goal, outcome) && !(needs_answer && outcome == Outcome::accepted))
        a.reached = true;
}

void record_answer(WaitAddress& a, HttpAnswer answer, const std::vector<StatusRange>& expect) {
    ++a.answers;
    if (answer.status && status_expected(expect, *answer.status))
        a.reached = true;
    a.last_answer = std::move(answer);
}

bool waits_for_http(const WaitReport& r) {
    return std::any_of(r.targets.begin(), r.targets.end(),
                       [](const WaitTarget& t) { return t.http.has_value(); });
}

bool target_done(const WaitTarget& t, WaitGoal goal) {
    if (t.resolve_error || t.addresses.empty())
        return false;
    auto reached = [](const WaitAddress& a) { return a.reached; };
    return goal == WaitGoal::any_address
               ? std::any_of(t.addresses.begin(), t.addresses.end(), reached)
               : std::all_of(t.addresses.begin(), t.addresses.end(), reached);
}

const WaitAddress* winning_address(const WaitTarget& t, WaitGoal goal) {
    if (goal == WaitGoal::down)
        return nullptr;
    // Reached, not first_accept: for HTTP readiness the winner is the
    // first address whose GET answered as expected.
    for (const auto& a : t.addresses)
        if (a.reached)
            return &a;
    return nullptr;
}

std::vector<const WaitAddress*> refusing_before_winner(const WaitTarget& t, WaitGoal goal) {
    std::vector<const WaitAddress*> out;
    const WaitAddress* winner = winning_address(t, goal);
    if (winner == nullptr)
        return out;
    for (const auto& a : t.addresses) {
        if (&a == winner)
            break;
        // An address that accepted (for HTTP readiness: but did not answer
        // as expected) costs an in-order client no refusal.
        if (!a.first_accept)
            out.push_back(&a);
    }
    return out;
}

namespace {

/// The mirror of the order warning: up on IPv6 only, with an IPv4 address
/// polled and never accepting. Clients that try IPv4 only fail there (the
/// check's `clients-fail`, PARTIAL); the wait is about "up", so this warns
/// and never changes its exit code, not even with --strict.
std::optional<WaitFinding> ipv4_clients_fail(const WaitTarget& t, WaitGoal goal) {
    const WaitAddress* winner = winning_address(t, goal);
    if (winner == nullptr || winner->address.family != Family::ipv6)
        return std::nullopt;
    std::vector<const WaitAddress*> failed;
    for (const auto& a : t.addresses) {
        if (a.address.family != Family::ipv4)
            continue;
        if (a.first_accept)
            return std::nullopt; // an IPv4-only client connects
        if (!a.timeline.empty() || a.unanswered_for)
            failed.push_back(&a);
    }
    if (failed.empty())
        return std::nullopt; // no IPv4 address, or none polled: nothing seen
    std::vector<std::string> states;
    for (const auto* a : failed)
        states.push_back(fmt::format("{} {}", ip_string(a->address), last_state(*a)));
    return WaitFinding{
        t.target.input, "clients-fail", WaitSeverity::warning,
        fmt::format("up on {}, but {}: some clients never try {} and fail (Java and Node.js <= "
                    "16 try IPv4 only); loopcheck {} names them",
                    ip_string(winner->address), fmt::join(states, ", "), ip_string(winner->address),
                    t.target.input)};
}

} // namespace

void conclude_wait(WaitReport& r) {
    r.findings.clear();
    int code = exit_code::healthy;
    for (const auto& t : r.targets) {
        const std::string& name = t.target.input;
        if (t.tls_unchecked)
            r.findings.push_back(
                {name, "tls-not-checked", WaitSeverity::warning,
                 "TLS is not checked: waiting for the port only (loopcheck sends no GET over "
                 "TLS; give the server's http:// URL, or --http PATH, to wait for an answer)"});
        if (t.resolve_error) {
            if (r.interrupted)
                continue; // no verdict on what was cut short
            r.findings.push_back(
                {name, "unresolved", WaitSeverity::error,
                 t.resolve_attempts > 1
                     ? fmt::format("the name did not resolve in {} ({} tries): {}",
                                   format_duration(r.waited), t.resolve_attempts,
                                   t.resolve_error->message)
                     : fmt::format("the name did not resolve: {}", t.resolve_error->message)});
            code = exit_code::combine(code, exit_code::unresolved);
            continue;
        }
        const bool done = target_done(t, r.goal);
        if (done) {
            const auto before = refusing_before_winner(t, r.goal);
            const WaitAddress* winner = winning_address(t, r.goal);
            if (!before.empty() && winner != nullptr) {
                std::vector<std::string> states;
                for (const auto* a : before)
                    states.push_back(fmt::format("{} {}", ip_string(a->address), last_state(*a)));
                r.findings.push_back(
                    {name, "fallback-penalty",
                     r.strict ? WaitSeverity::error : WaitSeverity::warning,
                     fmt::format(
                         "up on {}, but {} come{} first in resolver order ({}): clients that try "
                         "addresses in order (Python, .NET) wait for {} on every connection, "
                         "about 2 s per connection on Windows, where a refused loopback connect "
                         "is retried; listen on {} too, or connect to {}",
                         ip_string(winner->address), joined_endpoints(before),
                         before.size() == 1 ? "s" : "", fmt::join(states, ", "),
                         before.size() == 1 ? "its refusal" : "their refusals",
                         joined_endpoints(before), endpoint_string(winner->address))});
                if (r.strict)
                    code = exit_code::combine(code, exit_code::slow);
            }
            if (auto f = ipv4_clients_fail(t, r.goal))
                r.findings.push_back(std::move(*f));
            continue;
        }
        if (!r.timed_out)
            continue; // interrupted: no verdict on what was cut short
        r.findings.push_back({name, "wait-timed-out", WaitSeverity::error,
                              r.goal == WaitGoal::down ? why_not_down(t, r.limit)
                                                       : why_not_up(t, r.limit, r.expect_status)});
        code = exit_code::combine(code, exit_code::server_down);
    }
    r.exit_code = !r.interrupted ? code
                  : r.terminated ? exit_code::terminated
                                 : exit_code::interrupted;
}

namespace {

/// The first target not yet done, what each of its addresses last did,
/// and how many targets are pending in all.
struct Pending {
    const WaitTarget* first = nullptr;
    std::string states;
    std::size_t count = 0;
};

Pending pending_targets(const WaitReport& r) {
    Pending p;
    for (const auto& t : r.targets) {
        if (target_done(t, r.goal) && !t.resolve_error)
            continue;
        ++p.count;
        if (p.first == nullptr)
            p.first = &t;
    }
    if (p.first == nullptr)
        return p;
    if (p.first->resolve_error) {
        p.states = "the name does not resolve yet";
        return p;
    }
    std::vector<std::string> states;
    for (const auto& a : p.first->addresses)
        states.push_back(fmt::format(
            "{} {}", ip_string(a.address),
            a.timeline.empty() && !a.unanswered_for ? std::string("pending") : last_state(a)));
    p.states = fmt::format("{}", fmt::join(states, ", "));
    return p;
}

} // namespace

std::string wait_status_line(const WaitReport& r, Micros elapsed) {
    const auto seconds = static_cast<double>(elapsed.count()) / 1e6;
    const Pending p = pending_targets(r);
    if (p.first == nullptr)
        return fmt::format("{}: done - {:.1f} s", r.goal == WaitGoal::down ? "down" : "up",
                           seconds);
    std::string line =
        fmt::format("waiting for {}{}: {} - {:.1f} s", p.first->target.input,
                    r.goal == WaitGoal::down ? " to go down" : "", p.states, seconds);
    if (p.count > 1)
        line += fmt::format(" (+{} more)", p.count - 1);
    return line;
}

std::string wait_start_line(const WaitReport& r) {
    std::vector<std::string> targets;
    for (const auto& t : r.targets) {
        std::string one = t.target.input;
        if (t.http)
            one += fmt::format(" (GET {}, {})", t.http->shown, status_ranges_text(r.expect_status));
        targets.push_back(std::move(one));
    }
    // "up to 60 s", as the heartbeat's "(12 s of 60 s)" reads it.
    const std::string limit = r.limit.count() % 1'000'000 == 0
                                  ? fmt::format("{} s", r.limit.count() / 1'000'000)
                                  : format_duration(r.limit);
    return fmt::format("loopcheck wait: up to {} for {}{}", limit, fmt::join(targets, ", "),
                       r.goal == WaitGoal::down ? " to go down" : "");
}

std::string wait_heartbeat_line(const WaitReport& r, Micros elapsed) {
    const Pending p = pending_targets(r);
    if (p.first == nullptr)
        return {};
    // Whole seconds: a CI log is read after the fact, a line every few
    // seconds, and "12 s of 60 s" is what a reader compares.
    std::string line =
        fmt::format("waiting for {}{} ({} s of {} s): {}", p.first->target.input,
                    r.goal == WaitGoal::down ? " to go down" : "", elapsed.count() / 1'000'000,
                    (r.limit.count() + 999'999) / 1'000'000, p.states);
    if (p.count > 1)
        line += fmt::format(" (+{} more)", p.count - 1);
    return line;
}

} // namespace loopcheck
