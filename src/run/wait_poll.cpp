// The poll loop of `loopcheck wait`. A connect that ends starts the next one
// --interval later, so a refused address costs one socket per interval and
// an accepting one ends the wait the moment its handshake completes,
// whatever the other addresses are still doing. A connect that stays
// unanswered (a refusal that needs a SYN retransmission) does not hold the
// address up: further polls start beside it, a few in flight at once, so a
// listener that appears meanwhile is seen at once.
#include "run/wait_poll.hpp"

#include "loopcheck/core/measure/syn_policy.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/run/stop.hpp"
#include "run/connect_driver.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
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
/// A name that does not resolve yet is asked for again this often: a
/// compose service's name appears when its container starts.
constexpr Micros resolve_every{250'000};
/// How long a GET may take to answer: Kubernetes' httpGet probe gives 1 s
/// too (timeoutSeconds). The poll loop waits for it, so this also bounds
/// how late the other addresses' polls run.
constexpr Micros answer_limit{1'000'000};
/// The least time between two GETs to one address: a health handler may
/// ask a database, and ten a second is plenty to see it turn ready.
constexpr Micros answer_gap{100'000};
/// A CI log's heartbeat: often enough to show the job is alive, rarely
/// enough that a minute's wait is a dozen lines.
constexpr Micros heartbeat_every{5'000'000};

/// One address's poller.
struct Poller {
    std::size_t target = 0, address = 0;
    ProbeSpec spec;
    std::string request; ///< the GET after an accept; empty: the accept is enough
    std::vector<ConnectDriver::Id> in_flight; ///< oldest first
    Micros next{0}; ///< when the next connect may start (since the wait began)
};

class Wait final : public Schedule {
public:
    Wait(WaitReport& r, const SystemFacts& facts, ConnectDriver& driver, const WaitHooks& hooks)
        : r_(r), facts_(facts), driver_(driver), hooks_(hooks) {
        for (std::size_t t = 0; t < r.targets.size(); ++t)
            add_pollers(t);
        start_ = platform::monotonic_now();
        if (hooks_.heartbeat)
            hooks_.heartbeat(wait_start_line(r_));
    }

    [[nodiscard]] Micros now() const { return platform::monotonic_now() - start_; }

    /// Polls until every target's goal is met, --for runs out or a stop.
    void run() {
        phase_ = Phase::polling;
        drive(driver_, *this);
        r_.waited = now();
        if (hooks_.live)
            hooks_.live("");
    }

    bool over(ConnectDriver& /*driver*/, Micros /*now*/) override {
        if (phase_ == Phase::confirming) {
            expire_some(now(), stale_connect, won_);
            return now() >= until_ || !any_confirming_in_flight() || stop_requested();
        }
        const Micros t = now();
        if (all_done()) // every target's goal is met
            return true;
        if (stop_requested()) {
            r_.interrupted = true;
            r_.terminated = platform::terminate_requested();
            return true;
        }
        if (t >= r_.limit) {
            r_.timed_out = true;
            return true;
        }
        return false;
    }
    void start_due(ConnectDriver& /*driver*/, Micros /*now*/) override {
        if (phase_ == Phase::polling)
            start_polls(now());
    }
    Micros next_wake(const ConnectDriver& /*driver*/, Micros clock) const override {
        const Micros t = now();
        if (phase_ == Phase::confirming)
            return clock + (std::min(until_, next_stale(won_)) - t);
        return clock + std::max(Micros{0}, poll_wake(t) - t) + Micros{1};
    }
    void completed(ConnectDriver& /*driver*/, ConnectDriver::Completion&& c) override { finish(c); }
    void after_wait(ConnectDriver& /*driver*/, Micros /*now*/) override {
        if (phase_ == Phase::confirming)
            return;
        expire(now(), unanswered_limit, true);
        retry_names(now());
        mark_done();
        show_live(now());
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
        won_ = platform::monotonic_now();
        until_ = now() + confirm_window;
        phase_ = Phase::confirming;
        drive(driver_, *this);
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
    /// One poller per address of target `t`, in resolver order.
    void add_pollers(std::size_t t) {
        const WaitTarget& tr = r_.targets[t];
        const std::string request = tr.http
                                        ? http_get_request(tr.target.host, tr.target.port,
                                                           tr.http->path, hooks_.loopcheck_version)
                                        : std::string();
        for (std::size_t a = 0; a < tr.addresses.size(); ++a) {
            const Address& addr = tr.addresses[a].address;
            // Windows: no SYN retries on loopback, as libuv does, so that a
            // refused poll costs microseconds, not ~2 s.
            const bool fast = pair_probe(facts_.os, facts_.windows_build, addr);
            pollers_.push_back({t,
                                a,
                                {addr, fast ? SynPolicy::no_retries : SynPolicy::system_default, 0},
                                request,
                                {},
                                Micros{0}});
        }
    }

    /// Asks again for each name that has not resolved, every resolve_every.
    void retry_names(Micros t) {
        if (t < next_resolve_)
            return;
        next_resolve_ = t + resolve_every;
        for (std::size_t i = 0; i < r_.targets.size(); ++i) {
            WaitTarget& tr = r_.targets[i];
            if (!tr.resolve_error || stop_requested())
                continue;
            hooks_.resolve(tr);
            if (tr.resolve_error)
                continue;
            tr.resolved_at = now();
            add_pollers(i);
        }
    }

    /// The GET after an accepted poll of an HTTP target: the address is up
    /// when it answers an expected status; else the next GET waits
    /// answer_gap.
    void ask(Poller& p, WaitAddress& a) {
        const Micros left = r_.limit - now();
        const Micros limit = std::clamp(left, Micros{1'000}, answer_limit);
        const HttpExchange x = platform::http_exchange(a.address, p.request, limit);
        record_answer(a, read_answer(x), r_.expect_status);
        if (!a.reached)
            p.next = std::max(p.next, now() + answer_gap);
    }

    bool all_done() const {
        return std::all_of(r_.targets.begin(), r_.targets.end(),
                           [](const WaitTarget& t) { return t.done_at.has_value(); });
    }

    bool wants_poll(const Poller& p) const {
        const auto& tr = r_.targets[p.target];
        return !tr.done_at && !tr.addresses[p.address].reached;
    }

    /// Starts a connect at `t`. Should it still be unanswered by then, the
    /// next one may start beside it after the larger of --interval and
    /// overlap_gap; a connect that ends sooner sets an earlier start (finish).
    void start(std::size_t i, Micros t) {
        auto id = driver_.start(pollers_[i].spec);
        if (!id)
            return; // out of descriptors: tried again on the next turn
        pollers_[i].in_flight.push_back(*id);
        pollers_[i].next = t + std::max(r_.interval, overlap_gap);
        by_id_[*id] = i;
    }

    bool due(const Poller& p, Micros t) const {
        return p.in_flight.size() < max_in_flight && p.next <= t && wants_poll(p);
    }

    void start_polls(Micros t) {
        for (std::size_t i = 0; i < pollers_.size(); ++i)
            if (due(pollers_[i], t))
                start(i, t);
    }

    Micros poll_wake(Micros t) const {
        Micros wake = std::min(r_.limit, t + max_sleep);
        for (const auto& p : pollers_) {
            if (!p.in_flight.empty()) // the oldest is the first to expire
                wake = std::min(wake, driver_.started_at(p.in_flight.front()) - start_ +
                                          unanswered_limit);
            if (p.in_flight.size() < max_in_flight && wants_poll(p))
                wake = std::min(wake, p.next);
        }
        return wake;
    }

    void finish(const ConnectDriver::Completion& c) {
        const auto it = by_id_.find(c.id);
        if (it == by_id_.end())
            return;
        Poller& p = pollers_[it->second];
        by_id_.erase(it);
        std::erase(p.in_flight, c.id);
        const Micros t = now();
        auto& a = r_.targets[p.target].addresses[p.address];
        const bool needs_answer = !p.request.empty();
        record_poll(a, r_.goal, c.sample.outcome, t, needs_answer);
        // Only while polling: the confirm phase asks whether an earlier
        // address accepts at all (what an in-order client pays), not
        // whether it answers.
        if (needs_answer && c.sample.outcome == Outcome::accepted && phase_ == Phase::polling)
            ask(p, a);
        if (a.reached) {
            // The goal is met here: connects started beside this one would
            // only repeat it (or, started before a listener came up, say
            // what was true then). They are closed unreported: a reached
            // address notes no "no answer after".
            expire_one(p, t, Micros{0}, false);
        } else if (!a.last_answer || c.sample.outcome != Outcome::accepted) {
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
                if (driver_.started_at(id) < won)
                    at = std::min(at, driver_.started_at(id) - start_ + stale_connect);
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
        const auto expired = std::erase_if(p.in_flight, [&](ConnectDriver::Id id) {
            const Micros waited = clock - driver_.started_at(id);
            if (waited < after || driver_.started_at(id) >= started_before)
                return false;
            driver_.abandon(id);
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

    /// The live line, at most every max_sleep; the CI log's heartbeat
    /// every heartbeat_every.
    void show_live(Micros elapsed) {
        if (hooks_.heartbeat && elapsed >= last_heartbeat_ + heartbeat_every) {
            last_heartbeat_ = elapsed;
            if (auto line = wait_heartbeat_line(r_, elapsed); !line.empty())
                hooks_.heartbeat(line);
        }
        if (!hooks_.live || elapsed < last_live_ + max_sleep)
            return;
        last_live_ = elapsed;
        hooks_.live(wait_status_line(r_, elapsed));
    }

    bool any_confirming_in_flight() const {
        return std::any_of(confirming_.begin(), confirming_.end(),
                           [&](std::size_t i) { return !pollers_[i].in_flight.empty(); });
    }

    enum class Phase : std::uint8_t { polling, confirming };

    WaitReport& r_;
    const SystemFacts& facts_;
    /// The driver drive() is given: the wait keeps it, because its second
    /// phase (confirm_order) and end_pending act on the same connects.
    ConnectDriver& driver_;
    const WaitHooks& hooks_;
    std::vector<Poller> pollers_;
    std::map<ConnectDriver::Id, std::size_t> by_id_;
    std::vector<std::size_t> confirming_;
    Micros start_{0};
    Phase phase_ = Phase::polling;
    Micros won_{0}, until_{0}; ///< the confirm phase's start (monotonic) and end
    Micros last_live_{0}, last_heartbeat_{0};
    Micros next_resolve_{resolve_every};
};

} // namespace

void poll_until_done(WaitReport& r, const SystemFacts& facts, const WaitHooks& hooks) {
    ConnectDriver driver;
    Wait wait(r, facts, driver, hooks);
    wait.run();
    wait.confirm_order();
    wait.end_pending();
}

} // namespace loopcheck
