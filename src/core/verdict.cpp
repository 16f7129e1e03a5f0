// The verdict rules: a target's findings -> the verdict line, its severity
// word and the exit code (the table in docs/diagnosis.md, "The verdict").
#include "core/verdict.hpp"

#include "loopcheck/core/exit_codes.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace loopcheck {

namespace {

bool has(std::span<const Finding> findings, std::string_view id, Severity at_least) {
    return std::any_of(findings.begin(), findings.end(),
                       [&](const Finding& f) { return f.id == id && f.severity >= at_least; });
}

/// The findings that mean a client waits longer than the threshold.
bool slow(std::span<const Finding> f) {
    return has(f, finding_id::slow_refusal, Severity::warning) ||
           has(f, finding_id::fallback_penalty, Severity::warning) ||
           has(f, finding_id::slow_accept, Severity::warning) ||
           has(f, finding_id::accept_queue_full, Severity::warning) ||
           has(f, finding_id::clients_slow, Severity::warning);
}

/// No address of the resolver's accepts, but one of curl's own answer for
/// localhost does: curl >= 7.78 connects, every client that asks the
/// resolver fails. What costs the time comes first when something does:
/// the slow refusal the clients that ask the resolver wait out before they
/// fail.
Verdict partial_without_winner(std::span<const Finding> findings, const VerdictFacts& v) {
    std::string cost;
    if (slow(findings))
        cost =
            v.slow_refused
                ? fmt::format("{} is refused only after {}, and ", endpoint_string(*v.slow_refused),
                              format_duration(v.slow_refused_time))
                : fmt::format("a connect takes longer than {}, and ", format_duration(v.threshold));
    return {fmt::format("PARTIAL: {}{} accepts only on an address it does not resolve to "
                        "here: curl >= 7.78 finds it itself, clients that ask the resolver "
                        "fail",
                        cost, v.input),
            verdict_word::partial, exit_code::partial};
}

/// A client waits longer than the threshold: SLOW, or PARTIAL when some
/// clients also fail (`fail_words` says which).
Verdict slow_verdict(std::span<const Finding> findings, const VerdictFacts& v, bool partial,
                     const std::string& fail_words, const std::string& tried) {
    if (!v.winner) {
        return {fmt::format("SLOW: nothing accepts on {} ({}), and {} is refused only after {}",
                            v.input, tried,
                            v.slow_refused ? endpoint_string(*v.slow_refused) : "an address",
                            format_duration(v.slow_refused_time)),
                verdict_word::slow, exit_code::slow};
    }
    const auto via = endpoint_string(*v.winner);
    std::string line;
    std::string_view says;
    if (has(findings, finding_id::fallback_penalty, Severity::warning)) {
        // Not "every" connection: Happy Eyeballs clients wait less, and
        // first-address clients fail (their own finding); what the line
        // prices is the in-turn clients' wait (VerdictFacts::winner_time).
        line = fmt::format("SLOW: clients that try addresses in turn wait {} per new connection "
                           "to {} before {} accepts",
                           format_duration(v.winner_time), v.input, via);
        says = finding_id::fallback_penalty;
    } else if (v.slow_refused)
        line =
            fmt::format("SLOW: {} connects via {}, but {} is refused only after {}", v.input, via,
                        endpoint_string(*v.slow_refused), format_duration(v.slow_refused_time));
    else if (has(findings, finding_id::accept_queue_full, Severity::warning))
        line = fmt::format("SLOW: {} connects via {}, but the listener's accept queue "
                           "overflowed: an accept needed a SYN retransmission",
                           v.input, via);
    else
        line = fmt::format("SLOW: {} connects via {}, but a connect took longer than {}", v.input,
                           via, format_duration(v.threshold));
    // Both: two lines at 80 columns, so the fallback names where it ends
    // once ("and some never try it").
    if (partial && !says.empty())
        return {fmt::format("PARTIAL: clients that try addresses in turn wait {} per new "
                            "connection to {}, and some clients never try {} and fail",
                            format_duration(v.winner_time), v.input, via),
                verdict_word::partial, exit_code::partial, says};
    if (partial)
        return {fmt::format("PARTIAL{}, and {}", line.substr(line.find(':')), fail_words),
                verdict_word::partial, exit_code::partial, says};
    return {std::move(line), verdict_word::slow, exit_code::slow, says};
}

/// Nothing slow and no client failing: OK when something accepts or every
/// refusal was expected, else DOWN.
Verdict settled_verdict(std::span<const Finding> findings, const VerdictFacts& v,
                        const std::string& tried) {
    if (v.winner)
        return {fmt::format("OK: {} connects to {} in {}", v.input, endpoint_string(*v.winner),
                            format_duration(v.winner_time)),
                verdict_word::ok, exit_code::healthy};
    if (has(findings, finding_id::server_down, Severity::ok) &&
        !has(findings, finding_id::server_down, Severity::info))
        return {fmt::format("OK: nothing accepts on {} ({}, refused as expected)", v.input, tried),
                verdict_word::ok, exit_code::healthy};
    // Timeouts are named as timeouts: no reset came back, nothing refused.
    const auto how = v.any_refused   ? std::string()
                     : v.any_timeout ? fmt::format("; no answer within {}: timed out",
                                                   format_duration(v.timeout))
                                     : std::string();
    return {fmt::format("DOWN: nothing accepts on {} ({}{})", v.input, tried, how),
            verdict_word::down, exit_code::server_down};
}

} // namespace

Verdict decide_verdict(std::span<const Finding> findings, const VerdictFacts& v) {
    const auto tried = fmt::format("{} address{} tried", v.addresses, v.addresses == 1 ? "" : "es");
    if (has(findings, finding_id::not_refused, Severity::error))
        return {fmt::format("UNEXPECTED: {} accepts on {} (--expect refused)", v.input,
                            v.winner ? endpoint_string(*v.winner) : std::string("an address")),
                verdict_word::unexpected, exit_code::not_refused};
    // Some clients fail outright (PARTIAL) outranks some waiting (SLOW); the
    // line says both when both hold.
    const bool partial = has(findings, finding_id::clients_fail, Severity::error);
    if (partial && !v.winner)
        return partial_without_winner(findings, v);
    const auto fail_words = fmt::format("some clients fail: they never try {}",
                                        v.winner ? endpoint_string(*v.winner)
                                                 : std::string("the address curl finds itself"));
    if (partial && !slow(findings))
        return {fmt::format("PARTIAL: {} connects via {}, but {}", v.input,
                            endpoint_string(*v.winner), fail_words),
                verdict_word::partial, exit_code::partial};
    if (slow(findings))
        return slow_verdict(findings, v, partial, fail_words, tried);
    return settled_verdict(findings, v, tried);
}

} // namespace loopcheck
