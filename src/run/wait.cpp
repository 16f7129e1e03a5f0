// `loopcheck wait TARGET...`: resolve, poll (src/run/wait_poll.cpp), who
// listens where the wait ran out, and the conclusion (src/core/measure/wait.cpp).
#include "loopcheck/run/wait.hpp"

#include "loopcheck/core/input/redact.hpp"
#include "loopcheck/core/listeners/queries.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/run/version.hpp"
#include "run/targets.hpp"
#include "run/wait_poll.hpp"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <set>

namespace loopcheck {

namespace {

/// Resolves one target's name afresh (no cached answer: a name that did
/// not resolve is asked for again) and fills its addresses.
void resolve_one(WaitTarget& t) {
    Resolver resolver(FamilyFilter::any);
    ++t.resolve_attempts;
    auto addresses = resolver.addresses(t.target);
    if (!addresses) {
        t.resolve_error = addresses.error();
        return;
    }
    t.resolve_error.reset();
    t.addresses.clear();
    for (const Address& a : *addresses)
        t.addresses.emplace_back().address = a;
}

/// The GET a target waits for, if any: --http PATH for every target, or
/// an http:// URL's own path. An https:// URL waits for its port only.
void plan_http(WaitTarget& t, const WaitRequest& request) {
    if (t.target.scheme == "https") {
        t.tls_unchecked = true;
        return;
    }
    if (!request.http_path && t.target.scheme != "http")
        return;
    const std::string path = request.http_path.value_or(t.target.path);
    t.http = WaitHttp{path, redact_query(path)};
}

bool is_local(const WaitTarget& t) {
    return !t.resolve_error && !t.addresses.empty() &&
           std::all_of(t.addresses.begin(), t.addresses.end(), [](const WaitAddress& a) {
               return is_loopback(a.address) || is_unspecified(a.address);
           });
}

/// For each local target the wait gave up on: who listens on its port now
/// (one table for all of them).
void attach_listeners(WaitReport& r) {
    std::set<std::uint16_t> ports;
    for (const auto& t : r.targets)
        if (!t.done_at && is_local(t))
            ports.insert(t.target.port);
    if (ports.empty())
        return;
    const auto table = read_listener_table(ports);
    for (auto& t : r.targets) {
        if (t.done_at || !is_local(t))
            continue;
        if (!table)
            t.listener_error = table.error().message;
        else
            t.listeners = listeners_on_port(table->listeners, t.target.port);
    }
}

} // namespace

WaitReport run_wait(const WaitRequest& request, const LiveLineFn& live,
                    const LiveLineFn& heartbeat) {
    WaitReport r;
    r.loopcheck_version = std::string(version());
    r.command_line = request.command_line;
    r.goal = request.goal;
    r.strict = request.strict;
    r.limit = request.limit;
    r.interval = request.interval;
    r.expect_status = request.expect_status;
    for (const auto& t : request.targets) {
        WaitTarget& wt = r.targets.emplace_back();
        wt.target = t;
        plan_http(wt, request);
        resolve_one(wt);
    }
    const SystemFacts facts = platform::system_facts();
    r.os = fmt::format("{} {}", facts.os_name, facts.os_version);

    log::debug("waiting up to {} for {} target(s)", format_duration(r.limit), r.targets.size());
    poll_until_done(r, facts, {resolve_one, live, heartbeat, r.loopcheck_version});
    if (r.timed_out)
        attach_listeners(r);
    conclude_wait(r);
    return r;
}

} // namespace loopcheck
