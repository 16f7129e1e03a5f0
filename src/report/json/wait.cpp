// `loopcheck wait` as JSON ("loopcheck-wait/2", docs/wait.schema.json).
#include "loopcheck/core/listeners/queries.hpp"
#include "loopcheck/report/json.hpp"
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
    w.key("first_accept_ms").millis(a.first_accept);
    w.key("unanswered_ms").millis(a.unanswered_for);
    w.key("answers").value(a.answers);
    w.key("last_answer").nullable(a.last_answer, [](JsonWriter& j, const HttpAnswer& h) {
        j.begin_object();
        j.key("status");
        if (h.status)
            j.value(*h.status);
        else
            j.null();
        j.key("reason").value(h.reason);
        j.key("text").value(answer_text(h));
        j.key("took_ms").millis(h.took);
        j.end_object();
    });
    w.key("timeline").array(a.timeline, [](JsonWriter& j, const WaitRun& run) {
        j.begin_object();
        j.key("outcome").value(outcome_name(run.outcome));
        j.key("from_ms").millis(run.from);
        j.key("to_ms").millis(run.to);
        j.key("polls").value(run.polls);
        j.end_object();
    });
    w.end_object();
}

/// One target: its resolution, when it was done, the winner, every
/// address, and the listeners read when the wait ran out.
void json_wait_target(JsonWriter& w, const WaitTarget& t, WaitGoal goal) {
    w.begin_object();
    w.key("input").value(t.target.input);
    w.key("userinfo_redacted").value(t.target.userinfo_redacted);
    w.key("redacted").values(t.target.redacted.names());
    w.key("host").value(t.target.host);
    w.key("port").value(static_cast<int>(t.target.port));
    w.key("resolve_error").nullable(t.resolve_error, [](JsonWriter& j, const Error& e) {
        j.value(e.message);
    });
    w.key("resolve_attempts").value(t.resolve_attempts);
    w.key("resolved_ms").millis(t.resolved_at);
    w.key("http_path");
    if (t.http)
        w.value(t.http->shown);
    else
        w.null();
    w.key("tls_unchecked").value(t.tls_unchecked);
    w.key("done").value(t.done_at.has_value());
    w.key("done_ms").millis(t.done_at);
    const WaitAddress* winner = winning_address(t, goal);
    w.key("winner");
    if (winner != nullptr)
        w.value(ip_string(winner->address));
    else
        w.null();
    w.key("addresses").array(t.addresses, json_wait_address);
    w.key("listeners").nullable(t.listeners, [](JsonWriter& j, const std::vector<Listener>& ls) {
        j.array(ls, [](JsonWriter& k, const Listener& l) {
            k.begin_object();
            k.key("bound").value(bound_string(l));
            k.key("owner").value(owner_string(l));
            k.end_object();
        });
    });
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
    w.key("for_ms").millis(r.limit);
    w.key("interval_ms").millis(r.interval);
    w.key("expect_status");
    if (waits_for_http(r))
        w.value(status_ranges_text(r.expect_status));
    else
        w.null();
    w.key("waited_ms").millis(r.waited);
    w.key("timed_out").value(r.timed_out);
    w.key("interrupted").value(r.interrupted);
    w.key("terminated").value(r.terminated);
    w.key("exit_code").value(r.exit_code);
    w.key("targets").array(
        r.targets, [&](JsonWriter& j, const WaitTarget& t) { json_wait_target(j, t, r.goal); });
    w.key("findings").array(r.findings, [](JsonWriter& j, const WaitFinding& f) {
        j.begin_object();
        j.key("id").value(f.id);
        j.key("severity").value(severity_name(f.severity));
        j.key("message").value(f.message);
        j.key("target").value(f.target);
        j.end_object();
    });
    w.end_object();
    return w.str();
}

} // namespace loopcheck
