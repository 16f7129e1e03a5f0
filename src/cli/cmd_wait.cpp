// `loopcheck wait TARGET...`: polls every address of every target until the
// goal is met (src/core/wait.cpp decides), then reports. A connect that ends
// starts the next one --interval later, so a refused address costs one
// socket per interval and an accepting one ends the wait the moment its
// handshake completes, whatever the other addresses are still doing. A
// connect that stays unanswered (a refusal that needs a SYN retransmission)
// does not hold the address up: further polls start beside it, a few in
// flight at once, so a listener that appears meanwhile is seen at once.
#include "loopcheck/cli/command.hpp"
#include "loopcheck/cli/options.hpp"
#include "loopcheck/cli/version.hpp"
#include "loopcheck/core/exit_codes.hpp"
#include "loopcheck/core/listener_queries.hpp"
#include "loopcheck/core/syn_policy.hpp"
#include "loopcheck/core/target.hpp"
#include "loopcheck/core/wait.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/common/probe.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/report/wait_report.hpp"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <thread>

namespace loopcheck {

namespace {

/// A connect nobody answered is given up after this long and started
/// afresh: a SYN the kernel would retransmit only seconds later could
/// otherwise hide a listener that has appeared since.
constexpr Micros unanswered_limit{1'000'000};
/// How many connects one address may have in flight while earlier ones are
/// unanswered. Spread over unanswered_limit they start at least 125 ms
/// apart, so a listener that appears behind a slow refusal is seen within
/// about that, at eight sockets per address at most.
constexpr std::size_t max_in_flight = 8;
constexpr Micros overlap_gap = unanswered_limit / max_in_flight;
/// When a later address wins, how long the earlier ones get to show
/// whether they accept too (a dual-stack server binding one family a
/// moment after the other) before they are reported as not accepting.
constexpr Micros confirm_window{100'000};
/// A confirming connect unanswered this long is taken as lost at once.
constexpr Micros stale_connect{10'000};
/// The longest single wait on the connect set: Ctrl-C and the live line
/// are looked at this often.
constexpr Micros max_sleep{100'000};
constexpr Micros min_interval{1'000};
constexpr Micros max_interval{60'000'000};

struct WaitArgs {
    std::vector<std::string> targets;
    std::string limit = "30s";
    std::string interval = "25ms";
    bool all_addresses = false, strict = false, down = false;
    CommonArgs common;
};

/// One address's poller.
struct Poller {
    std::size_t target = 0, address = 0;
    ProbeSpec spec;
    std::vector<platform::ConnectSet::Id> in_flight; ///< oldest first
    Micros next{0}; ///< when the next connect may start (since the wait began)
};

Result<WaitReport> wait_options(const WaitArgs& a, std::vector<Target>& targets) {
    auto common = validate_common(a.common);
    if (!common)
        return common.error();
    WaitReport r;
    auto limit = parse_duration(a.limit);
    if (!limit)
        return usage_error(fmt::format("--for: {}", limit.error().message));
    if (*limit <= Micros{0} || *limit > max_timeout)
        return usage_error("--for must be above 0 and at most 1 hour");
    auto interval = parse_duration(a.interval);
    if (!interval)
        return usage_error(fmt::format("--interval: {}", interval.error().message));
    if (*interval < min_interval || *interval > max_interval)
        return usage_error("--interval must be from 1ms to 60s");
    if (a.down && (a.all_addresses || a.strict))
        return usage_error("--down excludes --all-addresses and --strict");
    for (const auto& text : a.targets) {
        auto t = parse_target(text);
        if (!t)
            return t.error();
        targets.push_back(std::move(*t));
    }
    r.limit = *limit;
    r.interval = *interval;
    r.strict = a.strict;
    r.goal = a.down ? WaitGoal::down
                    : (a.all_addresses ? WaitGoal::all_addresses : WaitGoal::any_address);
    return r;
}

std::string command_line(const WaitArgs& a) {
    std::string out = "loopcheck wait";
    if (a.limit != "30s")
        out += " --for " + a.limit;
    if (a.interval != "25ms")
        out += " --interval " + a.interval;
    if (a.all_addresses)
        out += " --all-addresses";
    if (a.strict)
        out += " --strict";
    if (a.down)
        out += " --down";
    for (const auto& t : a.targets)
        out += " " + t;
    return out;
}

/// Resolves each distinct name once, in resolver order; a literal is its
/// own address.
void resolve(WaitReport& r) {
    std::map<std::string, Result<std::vector<Address>>> answers;
    for (auto& t : r.targets) {
        if (t.target.literal) {
            t.addresses.emplace_back().address = *t.target.literal;
            continue;
        }
        auto it = answers.find(t.target.host);
        if (it == answers.end())
            it = answers
                     .emplace(t.target.host, platform::resolve(t.target.host, 0, FamilyFilter::any))
                     .first;
        if (!it->second) {
            t.resolve_error = it->second.error();
            continue;
        }
        for (Address a : *it->second) {
            a.port = t.target.port;
            t.addresses.emplace_back().address = a;
        }
    }
}

/// The live line on stderr, at most every max_sleep.
class StatusLine {
public:
    explicit StatusLine(bool enabled) : enabled_(enabled) {}
    ~StatusLine() { clear(); }
    StatusLine(const StatusLine&) = delete;
    StatusLine& operator=(const StatusLine&) = delete;

    void show(const WaitReport& r, Micros elapsed) {
        if (!enabled_ || elapsed < last_ + max_sleep)
            return;
        last_ = elapsed;
        std::fputs(("\r\033[K" + wait_status_line(r, elapsed)).c_str(), stderr);
        std::fflush(stderr);
        shown_ = true;
    }
    void clear() {
        if (!shown_)
            return;
        std::fputs("\r\033[K", stderr);
        std::fflush(stderr);
        shown_ = false;
    }

private:
    bool enabled_;
    bool shown_ = false;
    Micros last_{0};
};

class Wait {
public:
    Wait(WaitReport& r, const SystemFacts& facts) : r_(r) {
        for (std::size_t t = 0; t < r.targets.size(); ++t)
            for (std::size_t a = 0; a < r.targets[t].addresses.size(); ++a) {
                const Address& addr = r.targets[t].addresses[a].address;
                // Windows: no SYN retries on loopback, as libuv does, so
                // that a refused poll costs microseconds, not ~2 s.
                const bool fast = pair_probe(facts.os, facts.windows_build, addr);
                pollers_.push_back(
                    {t,
                     a,
                     {addr, fast ? SynPolicy::no_retries : SynPolicy::system_default, 0},
                     {},
                     Micros{0}});
            }
        start_ = platform::monotonic_now();
    }

    [[nodiscard]] Micros now() const { return platform::monotonic_now() - start_; }

    void run(StatusLine& status) {
        for (;;) {
            const Micros t = now();
            if (all_done()) // every target's goal is met
                break;
            if (stop_requested()) {
                r_.interrupted = true;
                break;
            }
            if (t >= r_.limit) {
                r_.timed_out = true;
                break;
            }
            start_due(t);
            for (auto& c : sleep_or_wait(std::max(Micros{0}, next_wake(t) - t) + Micros{1}))
                finish(c);
            expire(now(), unanswered_limit, true);
            mark_done();
            status.show(r_, now());
        }
        r_.waited = now();
        status.clear();
    }

    /// When an address after the first in resolver order won, gives the
    /// earlier ones confirm_window to accept too before the report says
    /// they do not.
    void confirm_order() {
        if (r_.goal != WaitGoal::any_address || r_.interrupted)
            return;
        confirming_.clear();
        for (std::size_t i = 0; i < pollers_.size(); ++i) {
            const auto& tr = r_.targets[pollers_[i].target];
            if (!tr.done_at)
                continue;
            const auto before = refusing_before_winner(tr, r_.goal);
            const WaitAddress& mine = tr.addresses[pollers_[i].address];
            if (std::find(before.begin(), before.end(), &mine) == before.end())
                continue;
            confirming_.push_back(i);
            if (pollers_[i].in_flight.empty())
                start(i, now());
        }
        // A connect started before the win and unanswered for stale_connect
        // is no race with a listener coming up (that refuses or accepts in
        // microseconds): a lost SYN or RST. Waiting for it would delay the
        // exit for nothing. Where refusals are slow, an address has such
        // connects in flight all the time, the newest started with the
        // winner's; it gets until it is stale_connect old, not the window.
        const Micros won = platform::monotonic_now();
        const Micros until = now() + confirm_window;
        for (;;) {
            expire_some(now(), stale_connect, won);
            if (now() >= until || !any_confirming_in_flight() || stop_requested())
                break;
            for (auto& c : sleep_or_wait(std::min(until, next_stale(won)) - now()))
                finish(c);
        }
        expire_some(now(), Micros{0});
    }

    /// Every connect of an unfinished target still in flight ends as "no
    /// answer after" (a wait that ran out reports what each address was
    /// doing); a finished target's are closed with the set, unreported.
    void end_pending() {
        const Micros t = now();
        for (auto& p : pollers_)
            if (!r_.targets[p.target].done_at)
                expire_one(p, t, Micros{0}, false);
    }

private:
    bool all_done() const {
        return std::all_of(r_.targets.begin(), r_.targets.end(),
                           [](const WaitTarget& t) { return t.done_at.has_value(); });
    }

    bool wants_poll(const Poller& p) const {
        const auto& tr = r_.targets[p.target];
        return !tr.done_at && !tr.addresses[p.address].reached;
    }

    /// Waits on the connects in flight; with none, sleeps (the connect
    /// set returns at once when it has nothing to wait on, which would
    /// turn the pause between polls into a busy loop).
    std::vector<platform::ConnectSet::Completion> sleep_or_wait(Micros d) {
        if (set_.pending() == 0) {
            std::this_thread::sleep_for(d);
            return {};
        }
        return set_.wait(d);
    }

    /// Starts a connect at `t`. Should it still be unanswered by then, the
    /// next one may start beside it after the larger of --interval and
    /// overlap_gap; a connect that ends sooner sets an earlier start (finish).
    void start(std::size_t i, Micros t) {
        auto id = set_.start(pollers_[i].spec);
        if (!id)
            return; // out of descriptors: tried again on the next turn
        pollers_[i].in_flight.push_back(*id);
        pollers_[i].next = t + std::max(r_.interval, overlap_gap);
        by_id_[*id] = i;
    }

    bool due(const Poller& p, Micros t) const {
        return p.in_flight.size() < max_in_flight && p.next <= t && wants_poll(p);
    }

    void start_due(Micros t) {
        for (std::size_t i = 0; i < pollers_.size(); ++i)
            if (due(pollers_[i], t))
                start(i, t);
    }

    Micros next_wake(Micros t) const {
        Micros wake = std::min(r_.limit, t + max_sleep);
        for (const auto& p : pollers_) {
            if (!p.in_flight.empty()) // the oldest is the first to expire
                wake = std::min(wake,
                                set_.started_at(p.in_flight.front()) - start_ + unanswered_limit);
            if (p.in_flight.size() < max_in_flight && wants_poll(p))
                wake = std::min(wake, p.next);
        }
        return wake;
    }

    void finish(const platform::ConnectSet::Completion& c) {
        const auto it = by_id_.find(c.id);
        if (it == by_id_.end())
            return;
        Poller& p = pollers_[it->second];
        by_id_.erase(it);
        std::erase(p.in_flight, c.id);
        const Micros t = now();
        auto& a = r_.targets[p.target].addresses[p.address];
        record_poll(a, r_.goal, c.sample.outcome, t);
        if (a.reached) {
            // The goal is met here: connects started beside this one would
            // only repeat it (or, started before a listener came up, say
            // what was true then).
            drop_all(p);
        } else {
            p.next = std::min(p.next, t + r_.interval);
        }
    }

    /// Closes every connect of `p` in flight, unreported.
    void drop_all(Poller& p) {
        for (const auto id : p.in_flight) {
            set_.abandon(id);
            by_id_.erase(id);
        }
        p.in_flight.clear();
    }

    /// Gives up the confirming pollers' connects started before
    /// `started_before` (on the monotonic clock) and unanswered for
    /// `after`, as "no answer after".
    void expire_some(Micros t, Micros after, Micros started_before = Micros::max()) {
        for (const std::size_t i : confirming_)
            expire_one(pollers_[i], t, after, false, started_before);
    }

    /// When the first confirming connect started before `won` becomes
    /// stale_connect old (since the wait began); the far future if none.
    Micros next_stale(Micros won) const {
        Micros at = Micros::max();
        for (const std::size_t i : confirming_)
            for (const auto id : pollers_[i].in_flight)
                if (set_.started_at(id) < won)
                    at = std::min(at, set_.started_at(id) - start_ + stale_connect);
        return at;
    }

    /// Gives up connects unanswered for `after`: as a timeout poll when
    /// `record` (and starts the next at once), else as "no answer after".
    void expire(Micros t, Micros after, bool record) {
        for (auto& p : pollers_)
            expire_one(p, t, after, record);
    }

    void expire_one(Poller& p, Micros t, Micros after, bool record,
                    Micros started_before = Micros::max()) {
        auto& a = r_.targets[p.target].addresses[p.address];
        const Micros clock = platform::monotonic_now();
        const auto expired = std::erase_if(p.in_flight, [&](platform::ConnectSet::Id id) {
            const Micros waited = clock - set_.started_at(id);
            if (waited < after || set_.started_at(id) >= started_before)
                return false;
            set_.abandon(id);
            by_id_.erase(id);
            if (record)
                record_poll(a, r_.goal, Outcome::timeout, t);
            else if (!a.reached && !a.first_accept) // the longest of its waits
                a.unanswered_for = std::max(a.unanswered_for.value_or(Micros{0}), waited);
            return true;
        });
        if (record && expired > 0 && p.in_flight.empty())
            p.next = std::min(p.next, t); // at once: the lost one has cost a second
    }

    void mark_done() {
        const Micros t = now();
        for (auto& tr : r_.targets)
            if (!tr.done_at && target_done(tr, r_.goal))
                tr.done_at = t;
    }

    bool any_confirming_in_flight() const {
        return std::any_of(confirming_.begin(), confirming_.end(),
                           [&](std::size_t i) { return !pollers_[i].in_flight.empty(); });
    }

    WaitReport& r_;
    platform::ConnectSet set_;
    std::vector<Poller> pollers_;
    std::map<platform::ConnectSet::Id, std::size_t> by_id_;
    std::vector<std::size_t> confirming_;
    Micros start_{0};
};

/// For each local target the wait gave up on: who listens on its port now.
void attach_listeners(WaitReport& r) {
    for (auto& t : r.targets) {
        if (t.done_at || t.resolve_error || t.addresses.empty())
            continue;
        const bool local =
            std::all_of(t.addresses.begin(), t.addresses.end(), [](const WaitAddress& a) {
                return is_loopback(a.address) || is_unspecified(a.address);
            });
        if (!local)
            continue;
        auto table = platform::list_listeners(t.target.port);
        if (!table) {
            t.listener_error = table.error().message;
            continue;
        }
        t.listeners = listeners_on_port(table->listeners, t.target.port);
    }
}

int run_wait(const WaitArgs& a) {
    std::vector<Target> targets;
    auto parsed = wait_options(a, targets);
    if (!parsed)
        return usage_failure(parsed.error().message);
    WaitReport& r = *parsed;
    const auto common = validate_common(a.common);
    const CommandSetup setup(common->verbosity);
    if (auto code = setup.failed())
        return *code;
    r.loopcheck_version = std::string(version());
    r.command_line = command_line(a);
    for (auto& t : targets)
        r.targets.push_back({std::move(t), {}, {}, {}, {}, {}});
    resolve(r);

    // A name that does not resolve is not waited for: exit 4 at once.
    const bool unresolved = std::any_of(r.targets.begin(), r.targets.end(),
                                        [](const WaitTarget& t) { return t.resolve_error; });
    if (!unresolved) {
        const SystemFacts facts = platform::system_facts();
        StatusLine status(common->verbosity >= 0 && platform::is_terminal(platform::Stream::err));
        Wait wait(r, facts);
        log::debug("waiting up to {} for {} target(s)", format_duration(r.limit), r.targets.size());
        wait.run(status);
        wait.confirm_order();
        wait.end_pending();
        if (r.timed_out)
            attach_listeners(r);
    }
    conclude_wait(r);
    write_report(common->format,
                 {[&] { return render_wait_text(r); }, [&] { return render_wait_json(r); },
                  [&] { return render_wait_markdown(r); }});
    return r.exit_code;
}

} // namespace

Command add_wait_command(CLI::App& app) {
    auto args = std::make_shared<WaitArgs>();
    CLI::App* sub = app.add_subcommand(
        "wait", "wait until every TARGET accepts (or, with --down, none does); exit 0 when it "
                "does, 3 when --for runs out, 1 with --strict when resolver order costs clients");
    sub->footer(R"(Polls every address of every TARGET at once, each every --interval (25 ms:
about 40 connects a second per address, each closed at once, no data sent),
until each TARGET has an address that accepts. A later address in resolver
order accepting while an earlier one does not is a warning (an error with
--strict). A name that does not resolve is not waited for.

Exit codes: 0 done, 1 --strict and resolver order costs in-order clients,
2 usage error (nothing waited for), 3 --for ran out (the report says why),
4 a name did not resolve, 5 internal error, 130 interrupted.

Examples:
  loopcheck wait localhost:8000 && npm test
  loopcheck wait --for 2m --strict localhost:8000 localhost:5432
  loopcheck wait --down --for 10s 127.0.0.1:8000)");
    sub->add_option("target", args->targets, "host:port, [v6]:port, URL or bare port")
        ->type_name("TARGET")
        ->required();
    sub->add_option("--for", args->limit, "how long to wait in all (default 30s)")
        ->type_name("DURATION");
    sub->add_option("--interval", args->interval,
                    "pause between two polls of one address (default 25ms, from 1ms to 60s)")
        ->type_name("DURATION");
    sub->add_flag("--all-addresses", args->all_addresses,
                  "wait until every address of each target has accepted");
    sub->add_flag("--strict", args->strict,
                  "exit 1 when an address before the accepting one in resolver order does not "
                  "accept (in-order clients pay for it)");
    sub->add_flag("--down", args->down,
                  "wait until every address of each target refuses (the port is free)");
    add_common_options(
        *sub, args->common,
        {.timeout = false, .threshold = false, .format = true, .color = false, .quiet = true});
    return {sub, [args] { return run_wait(*args); }};
}

} // namespace loopcheck
