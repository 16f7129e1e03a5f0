// The reporters of `loopcheck wait`: each formats a WaitReport and
// computes nothing the others could not show.
#include "loopcheck/report/wait_report.hpp"

#include "loopcheck/core/listener_queries.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "report/json_writer.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

namespace {

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
    return fmt::format("{}", fmt::join(parts, ", then "));
}

/// "up on 127.0.0.1 after 1.02 s", "down after 0.3 s", "not up", "did not resolve".
std::string target_headline(const WaitReport& r, const WaitTarget& t) {
    if (t.resolve_error)
        return "did not resolve";
    if (!t.done_at)
        return r.goal == WaitGoal::down ? "not down" : "not up";
    if (r.goal == WaitGoal::down)
        return fmt::format("down after {}", format_duration(*t.done_at));
    const WaitAddress* w = winning_address(t, r.goal);
    return fmt::format("up{} after {}", w ? fmt::format(" on {}", ip_string(w->address)) : "",
                       format_duration(*t.done_at));
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

} // namespace

std::string render_wait_text(const WaitReport& r) {
    std::string out;
    for (const auto& t : r.targets) {
        out += fmt::format("{}: {}\n", t.target.input, target_headline(r, t));
        for (const auto& a : t.addresses)
            out += fmt::format("  {:<16} {}\n", ip_string(a.address), timeline_text(a));
    }
    for (const auto& f : r.findings)
        out += fmt::format("{}: {}: {}\n", severity_name(f.severity), f.target, f.text);
    out += fmt::format("{}; exit {}\n", ending(r), r.exit_code);
    return out;
}

namespace {

/// One address of a wait target: when it first accepted and its timeline.
void json_wait_address(JsonWriter& w, const WaitAddress& a) {
    w.begin_object();
    w.key("address").value(ip_string(a.address));
    w.key("family").value(family_name(a.address.family));
    w.key("reached").value(a.reached);
    w.key("first_accept_ms");
    if (a.first_accept)
        w.number(to_ms(*a.first_accept), 3);
    else
        w.null();
    w.key("unanswered_ms");
    if (a.unanswered_for)
        w.number(to_ms(*a.unanswered_for), 3);
    else
        w.null();
    w.key("timeline").begin_array();
    for (const auto& run : a.timeline) {
        w.begin_object();
        w.key("outcome").value(outcome_name(run.outcome));
        w.key("from_ms").number(to_ms(run.from), 3);
        w.key("to_ms").number(to_ms(run.to), 3);
        w.key("polls").value(run.polls);
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

/// One target: its resolution, when it was done, the winner, every
/// address, and the listeners read when the wait ran out.
void json_wait_target(JsonWriter& w, const WaitTarget& t, WaitGoal goal) {
    w.begin_object();
    w.key("input").value(t.target.input);
    w.key("userinfo_redacted").value(t.target.userinfo_redacted);
    w.key("host").value(t.target.host);
    w.key("port").value(static_cast<int>(t.target.port));
    w.key("resolve_error");
    if (t.resolve_error)
        w.value(t.resolve_error->message);
    else
        w.null();
    w.key("done").value(t.done_at.has_value());
    w.key("done_ms");
    if (t.done_at)
        w.number(to_ms(*t.done_at), 3);
    else
        w.null();
    const WaitAddress* winner = winning_address(t, goal);
    w.key("winner");
    if (winner != nullptr)
        w.value(ip_string(winner->address));
    else
        w.null();
    w.key("addresses").begin_array();
    for (const auto& a : t.addresses)
        json_wait_address(w, a);
    w.end_array();
    w.key("listeners");
    if (t.listeners) {
        w.begin_array();
        for (const auto& l : *t.listeners) {
            w.begin_object();
            w.key("bound").value(bound_string(l));
            w.key("owner").value(owner_string(l));
            w.end_object();
        }
        w.end_array();
    } else {
        w.null();
    }
    w.end_object();
}

} // namespace

std::string render_wait_json(const WaitReport& r) {
    JsonWriter w;
    w.begin_object();
    w.key("schema").value("loopcheck-wait/1");
    w.key("loopcheck_version").value(r.loopcheck_version);
    w.key("command").value("wait");
    w.key("command_line").value(r.command_line);
    w.key("goal").value(wait_goal_name(r.goal));
    w.key("strict").value(r.strict);
    w.key("for_ms").number(to_ms(r.limit), 3);
    w.key("interval_ms").number(to_ms(r.interval), 3);
    w.key("waited_ms").number(to_ms(r.waited), 3);
    w.key("timed_out").value(r.timed_out);
    w.key("interrupted").value(r.interrupted);
    w.key("exit_code").value(r.exit_code);
    w.key("targets").begin_array();
    for (const auto& t : r.targets)
        json_wait_target(w, t, r.goal);
    w.end_array();
    w.key("findings").begin_array();
    for (const auto& f : r.findings) {
        w.begin_object();
        w.key("target").value(f.target);
        w.key("severity").value(severity_name(f.severity));
        w.key("text").value(f.text);
        w.end_object();
    }
    w.end_array();
    w.end_object();
    return w.str();
}

std::string render_wait_markdown(const WaitReport& r) {
    // Every piece goes through core/untrusted.hpp's neutraliser, as in the
    // main report and audit's: findings quote process names and the
    // command line quotes what was typed (issue 28).
    constexpr auto inline_text = MarkdownPlace::inline_text;
    std::string out = "## loopcheck wait\n\n";
    // "Command:" first: a line that opens with a run of three backticks
    // (a command line holding two) would read as a code fence to some.
    out += fmt::format("Command: {} (loopcheck {}): {}; exit {}\n\n",
                       markdown_code(escape_controls(r.command_line), inline_text),
                       escape_markdown(r.loopcheck_version), escape_markdown(ending(r)),
                       r.exit_code);
    for (const auto& t : r.targets) {
        out += fmt::format("### {}: {}\n\n", markdown_code(t.target.input, inline_text),
                           escape_markdown(target_headline(r, t)));
        if (t.addresses.empty())
            continue;
        out += "| Address | First accept | Timeline |\n|---|---|---|\n";
        for (const auto& a : t.addresses)
            out += fmt::format("| {} | {} | {} |\n", escape_markdown(ip_string(a.address)),
                               a.first_accept ? format_duration(*a.first_accept) : "-",
                               escape_markdown(timeline_text(a)));
        out += "\n";
    }
    if (!r.findings.empty()) {
        out += "### Findings\n\n";
        for (const auto& f : r.findings)
            out += fmt::format("- **{}** {}: {}\n", severity_name(f.severity),
                               markdown_code(f.target, inline_text), escape_markdown(f.text));
    }
    return out;
}

} // namespace loopcheck
