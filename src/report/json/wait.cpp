// `loopcheck wait` as JSON ("loopcheck-wait/2", docs/wait.schema.json).
#include "loopcheck/report/json.hpp"

#include "loopcheck/core/listener_queries.hpp"
#include "report/json/writer.hpp"
#include "report/wait_lines.hpp"

#include <fmt/format.h>

namespace loopcheck {

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

std::string render_json(const WaitReport& r) {
    JsonWriter w;
    w.begin_object();
    w.key("schema").value("loopcheck-wait/2");
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
        w.key("id").value(f.id);
        w.key("severity").value(severity_name(f.severity));
        w.key("message").value(f.message);
        w.key("target").value(f.target);
        w.end_object();
    }
    w.end_array();
    w.end_object();
    return w.str();
}

} // namespace loopcheck
