// The verdict rules: a target's findings -> the verdict's form, its severity
// word and the exit code (the table in docs/diagnosis.md, "The verdict").
// The line's words are report/phrasing.cpp's.
#include "core/diagnose/verdict.hpp"

#include "loopcheck/core/diagnose/exit_codes.hpp"

#include <algorithm>

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

Verdict make(VerdictForm form, std::string_view word, int code, const VerdictFacts& v) {
    Verdict out;
    out.form = form;
    out.word = word;
    out.exit_code = code;
    out.facts = v;
    return out;
}

/// A client waits longer than the threshold: SLOW, or PARTIAL when some
/// clients also fail.
Verdict slow_verdict(std::span<const Finding> findings, const VerdictFacts& v, bool partial) {
    if (!v.winner)
        return make(VerdictForm::slow_nothing_accepts, verdict_word::slow, exit_code::slow, v);
    // Not "every" connection: Happy Eyeballs clients wait less, and
    // first-address clients fail (their own finding); what the line prices
    // is the in-turn clients' wait (VerdictFacts::winner_time).
    const VerdictForm form = has(findings, finding_id::fallback_penalty, Severity::warning)
                                 ? VerdictForm::slow_fallback
                             : v.slow_refused ? VerdictForm::slow_refusal
                             : has(findings, finding_id::accept_queue_full, Severity::warning)
                                 ? VerdictForm::slow_accept_queue
                                 : VerdictForm::slow_connect;
    if (!partial)
        return make(form, verdict_word::slow, exit_code::slow, v);
    auto out = make(form, verdict_word::partial, exit_code::partial, v);
    out.some_fail = true;
    return out;
}

} // namespace

Verdict decide_verdict(std::span<const Finding> findings, const VerdictFacts& v) {
    if (has(findings, finding_id::not_refused, Severity::error))
        return make(VerdictForm::unexpected, verdict_word::unexpected, exit_code::not_refused, v);
    // Some clients fail outright (PARTIAL) outranks some waiting (SLOW); the
    // line says both when both hold.
    const bool partial = has(findings, finding_id::clients_fail, Severity::error);
    if (partial && !v.winner) {
        // No address of the resolver's accepts, but one of curl's own
        // answer for localhost does: curl >= 7.78 connects, every client
        // that asks the resolver fails. What costs the time comes first
        // when something does.
        auto out =
            make(VerdictForm::partial_no_winner, verdict_word::partial, exit_code::partial, v);
        out.slow = slow(findings);
        return out;
    }
    if (partial && !slow(findings))
        return make(VerdictForm::partial_fails, verdict_word::partial, exit_code::partial, v);
    if (slow(findings))
        return slow_verdict(findings, v, partial);
    // Nothing slow and no client failing: OK when something accepts or
    // every refusal was expected, else DOWN.
    if (v.winner)
        return make(VerdictForm::ok, verdict_word::ok, exit_code::healthy, v);
    if (has(findings, finding_id::server_down, Severity::ok) &&
        !has(findings, finding_id::server_down, Severity::info))
        return make(VerdictForm::ok_refused_as_expected, verdict_word::ok, exit_code::healthy, v);
    return make(VerdictForm::down, verdict_word::down, exit_code::server_down, v);
}

} // namespace loopcheck
