// `loopcheck wait`'s lines, shared by its text and Markdown.
#include "report/wait_lines.hpp"

#include "loopcheck/core/listeners/queries.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

/// "refused x40 (0.1 ms..1.00 s)" or "accepted at 1.02 s".
std::string run_text(const WaitRun& run) {
    if (run.polls == 1)
        return fmt::format("{} at {}", outcome_name(run.outcome), format_duration(run.from));
    return fmt::format("{} x{} ({}..{})", outcome_name(run.outcome), run.polls,
                       format_duration(run.from), format_duration(run.to));
}

std::string timeline_text(const WaitAddress& a) {
    std::vector<std::string> parts;
    for (const auto& run : a.timeline)
        parts.push_back(run_text(run));
    if (a.unanswered_for)
        parts.push_back(fmt::format("no answer after {}", format_duration(*a.unanswered_for)));
    if (parts.empty())
        parts.emplace_back("not polled");
    std::string text = fmt::format("{}", fmt::join(parts, ", then "));
    if (a.last_answer)
        text += fmt::format("; {} GET{}, the last: {}", a.answers, a.answers == 1 ? "" : "s",
                            answer_text(*a.last_answer));
    return text;
}

/// "up on 127.0.0.1 after 1.02 s", "down after 0.3 s", "not up", "did not resolve".
std::string target_headline(const WaitReport& r, const WaitTarget& t) {
    if (t.resolve_error)
        return t.resolve_attempts > 1
                   ? fmt::format("did not resolve ({} tries)", t.resolve_attempts)
                   : "did not resolve";
    if (!t.done_at)
        return r.goal == WaitGoal::down ? "not down" : "not up";
    if (r.goal == WaitGoal::down)
        return fmt::format("down after {}", format_duration(*t.done_at));
    const WaitAddress* w = winning_address(t, r.goal);
    std::string line =
        fmt::format("up{} after {}", w ? fmt::format(" on {}", ip_string(w->address)) : "",
                    format_duration(*t.done_at));
    if (w != nullptr && t.http && w->last_answer)
        line += fmt::format(" (GET {}: {})", t.http->shown, answer_text(*w->last_answer));
    if (t.resolved_at)
        line += fmt::format("; the name resolved after {}", format_duration(*t.resolved_at));
    return line;
}

std::string_view severity_name(WaitSeverity s) {
    return s == WaitSeverity::error ? "error" : "warning";
}

std::string ending(const WaitReport& r) {
    if (r.interrupted)
        return fmt::format("interrupted after {}", format_duration(r.waited));
    if (r.timed_out)
        return fmt::format("gave up after {} (--for {})", format_duration(r.waited),
                           format_duration(r.limit));
    return fmt::format("waited {}", format_duration(r.waited));
}

} // namespace loopcheck
