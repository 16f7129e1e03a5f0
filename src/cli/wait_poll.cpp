// The poll loop of `loopcheck wait`. A connect that ends starts the next one
// --interval later, so a refused address costs one socket per interval and
// an accepting one ends the wait the moment its handshake completes,
// whatever the other addresses are still doing. A connect that stays
// unanswered (a refusal that needs a SYN retransmission) does not hold the
// address up: further polls start beside it, a few in flight at once, so a
// listener that appears meanwhile is seen at once.
#include "loopcheck/cli/wait_poll.hpp"

#include "loopcheck/core/syn_policy.hpp"
#include "loopcheck/platform/common/probe.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <thread>
#include <vector>

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

/// One address's poller.
struct Poller {
    std::size_t target = 0, address = 0;
    ProbeSpec spec;
    std::vector<platform::ConnectSet::Id> in_flight; ///< oldest first
    Micros next{0}; ///< when the next connect may start (since the wait began)
};

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
            // what was true then). They are closed unreported: a reached
            // address notes no "no answer after".
            expire_one(p, t, Micros{0}, false);
        } else {
            p.next = std::min(p.next, t + r_.interval);
        }
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

} // namespace

void poll_until_done(WaitReport& r, const SystemFacts& facts, bool live_line) {
    StatusLine status(live_line);
    Wait wait(r, facts);
    wait.run(status);
    wait.confirm_order();
    wait.end_pending();
}

} // namespace loopcheck
