// The measuring half of --emulate: connect as a client's algorithm would,
// in real time: the race schedule over the connect driver.
#include "run/emulation_run.hpp"

#include "loopcheck/core/measure/syn_policy.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/run/stop.hpp"
#include "run/connect_driver.hpp"

#include <algorithm>
#include <cstdint>

namespace loopcheck {

namespace {

/// Several lanes of addresses, each tried one after another; a lane may
/// only start once it is released. Sequential clients are one lane; Go's
/// dialParallel is two (primaries, then fallbacks after the delay or as
/// soon as the primaries have all failed); Happy Eyeballs gives every
/// address its own lane, released `delay` after the previous one started
/// or as soon as everything started so far has failed.
class Race final : public Schedule {
public:
    Race(const EmulationSpec& spec, Micros timeout, Os os, std::uint32_t build,
         std::vector<std::vector<Address>> lanes)
        : spec_(spec), timeout_(timeout), os_(os), build_(build) {
        for (auto& l : lanes)
            if (!l.empty())
                lanes_.emplace_back().addresses = std::move(l);
    }

    /// Runs the race on `driver`: the time to the first accepted connect,
    /// or to the last failure.
    ConnectPrediction run(ConnectDriver& driver) {
        if (lanes_.empty())
            return result_;
        t0_ = platform::monotonic_now();
        lanes_.front().released = true;
        last_release_ = t0_;
        start(driver, lanes_.front());
        drive(driver, *this);
        if (!result_.connected)
            result_.time = last_end_;
        return result_;
    }

    bool over(ConnectDriver& driver, Micros /*now*/) override {
        if (stop_requested() || result_.connected)
            return true;
        const bool startable = std::any_of(lanes_.begin(), lanes_.end(), [](const Lane& l) {
            return !l.released || (!l.current && l.next < l.addresses.size());
        });
        return driver.pending() == 0 && !startable;
    }
    /// Releases the next lane after the delay (or at once when every
    /// attempt started so far has failed), and moves each released lane
    /// whose attempt failed on to its next address.
    void start_due(ConnectDriver& driver, Micros /*now*/) override {
        while (!stop_requested() && (release_next(driver) || advance_lanes(driver))) {
        }
    }
    /// Nothing in flight and no lane to release, or a stop: no wait (a
    /// stop must not sleep out a lane's delay).
    bool nothing_to_wait_for(ConnectDriver& driver) override {
        return stop_requested() || (driver.pending() == 0 && waiting() == lanes_.end());
    }
    Micros next_wake(const ConnectDriver& driver, Micros now) const override {
        Micros wake = waiting() != lanes_.end() ? last_release_ + spec_.delay : now + timeout_;
        for (const auto& l : lanes_)
            if (l.current)
                wake = std::min(wake, driver.started_at(*l.current) + timeout_);
        return wake;
    }
    void completed(ConnectDriver& driver, ConnectDriver::Completion&& c) override {
        auto lane = std::find_if(lanes_.begin(), lanes_.end(),
                                 [&](const Lane& l) { return l.current == c.id; });
        const Micros end = driver.started_at(c.id) + c.sample.latency - t0_;
        lane->current.reset();
        last_end_ = std::max(last_end_, end);
        if (c.sample.outcome == Outcome::accepted && (!result_.connected || end < result_.time)) {
            result_.connected = true;
            result_.time = end;
            result_.via = lane->addresses[lane->next - 1];
        }
    }
    /// Attempts past the timeout are abandoned (the result is then a lower
    /// bound); nothing is abandoned once one has connected.
    void after_wait(ConnectDriver& driver, Micros now) override {
        if (result_.connected)
            return;
        for (auto& l : lanes_) {
            if (l.current && now - driver.started_at(*l.current) >= timeout_) {
                const Sample s = driver.abandon(*l.current);
                last_end_ = std::max(last_end_, driver.started_at(*l.current) + s.latency - t0_);
                l.current.reset();
                result_.lower_bound = true;
            }
        }
    }

private:
    struct Lane {
        std::vector<Address> addresses;
        std::size_t next = 0;
        std::optional<ConnectDriver::Id> current;
        bool released = false;
        bool exhausted() const { return !current && next >= addresses.size(); }
    };

    std::vector<Lane>::const_iterator waiting() const {
        return std::find_if(lanes_.begin(), lanes_.end(),
                            [](const Lane& l) { return !l.released; });
    }

    bool release_next(ConnectDriver& driver) {
        const auto it = waiting();
        if (it == lanes_.end())
            return false;
        const bool everything_failed =
            all_started_failed() && std::all_of(lanes_.begin(), lanes_.end(), [](const Lane& l) {
                return !l.released || l.exhausted();
            });
        const Micros now = platform::monotonic_now();
        if (now - last_release_ < spec_.delay && !everything_failed)
            return false;
        Lane& lane = lanes_[static_cast<std::size_t>(it - lanes_.cbegin())];
        lane.released = true;
        last_release_ = now;
        start(driver, lane);
        return true;
    }

    bool advance_lanes(ConnectDriver& driver) {
        bool started = false;
        for (auto& l : lanes_) {
            if (l.released && !l.current && l.next < l.addresses.size()) {
                start(driver, l);
                started = true;
            }
        }
        return started;
    }

    void start(ConnectDriver& driver, Lane& lane) {
        const Address& a = lane.addresses[lane.next++];
        ProbeSpec p{a};
        if (spec_.no_syn_retries_on_loopback && pair_probe(os_, build_, a))
            p.syn = SynPolicy::no_retries;
        ++result_.attempts;
        lane.current = driver.start(p);
        if (!lane.current) {
            // Out of descriptors: count it as a failed attempt, as a client would.
            log::warn("emulation: no descriptor left for {}", endpoint_string(a));
        }
    }

    bool all_started_failed() const {
        return std::none_of(lanes_.begin(), lanes_.end(), [](const Lane& l) { return l.current; });
    }

    const EmulationSpec& spec_;
    Micros timeout_;
    Os os_;
    std::uint32_t build_;
    std::vector<Lane> lanes_;
    Micros t0_{0}, last_release_{0}, last_end_{0};
    ConnectPrediction result_;
};

} // namespace

ConnectPrediction run_emulation(const EmulationSpec& spec, std::span<const Address> resolved,
                                Micros timeout, Os os, std::uint32_t windows_build) {
    const auto order = emulation_order(spec, resolved);
    std::vector<std::vector<Address>> lanes;
    switch (spec.kind) {
    case ConnectAlgorithm::sequential:
    case ConnectAlgorithm::first_ipv4:
    // No --emulate strategy has a per-attempt cut (parse_emulation offers
    // none), so the Race never runs one; it would run as sequential.
    case ConnectAlgorithm::attempt_timeout:
        lanes.push_back(order);
        break;
    case ConnectAlgorithm::first_address:
        if (!order.empty())
            lanes.push_back({order.front()});
        break;
    case ConnectAlgorithm::happy_eyeballs:
        for (const auto& a : order)
            lanes.push_back({a});
        break;
    case ConnectAlgorithm::go_dual_stack: {
        std::vector<Address> primaries, fallbacks;
        for (const auto& a : order)
            (a.family == order.front().family ? primaries : fallbacks).push_back(a);
        lanes.push_back(std::move(primaries));
        lanes.push_back(std::move(fallbacks));
        break;
    }
    }
    ConnectDriver driver;
    Race race(spec, timeout, os, windows_build, std::move(lanes));
    return race.run(driver);
}

} // namespace loopcheck
