// The measuring half of --emulate: connect as a client's algorithm would,
// in real time, on the platform's ConnectSet.
#include "loopcheck/platform/common/emulation_run.hpp"

#include "loopcheck/core/syn_policy.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/common/probe.hpp"
#include "loopcheck/platform/platform.hpp"

#include <algorithm>

namespace loopcheck {

namespace {

/// Several lanes of addresses, each tried one after another; a lane may
/// only start once it is released. Sequential clients are one lane; Go's
/// dialParallel is two (primaries, then fallbacks after the delay or as
/// soon as the primaries have all failed); Happy Eyeballs gives every
/// address its own lane, released `delay` after the previous one started
/// or as soon as everything started so far has failed.
class Race {
public:
    Race(const EmulationSpec& spec, Micros timeout, Os os, std::uint32_t build)
        : spec_(spec), timeout_(timeout), os_(os), build_(build) {}

    ConnectPrediction run(std::vector<std::vector<Address>> lanes);

private:
    struct Lane {
        std::vector<Address> addresses;
        std::size_t next = 0;
        std::optional<platform::ConnectSet::Id> current;
        bool released = false;
        bool exhausted() const { return !current && next >= addresses.size(); }
    };

    void start(Lane& lane);
    bool all_started_failed() const;

    const EmulationSpec& spec_;
    Micros timeout_;
    Os os_;
    std::uint32_t build_;
    platform::ConnectSet set_;
    std::vector<Lane> lanes_;
    Micros t0_{0}, last_release_{0}, last_end_{0};
    ConnectPrediction result_;
};

void Race::start(Lane& lane) {
    const Address& a = lane.addresses[lane.next++];
    ProbeSpec p{a};
    if (spec_.no_syn_retries_on_loopback && pair_probe(os_, build_, a))
        p.syn = SynPolicy::no_retries;
    ++result_.attempts;
    lane.current = set_.start(p);
    if (!lane.current) {
        // Out of descriptors: count it as a failed attempt, as a client would.
        log::warn("emulation: no descriptor left for {}", endpoint_string(a));
    }
}

bool Race::all_started_failed() const {
    return std::none_of(lanes_.begin(), lanes_.end(), [](const Lane& l) { return l.current; });
}

ConnectPrediction Race::run(std::vector<std::vector<Address>> lanes) {
    for (auto& l : lanes)
        lanes_.emplace_back().addresses = std::move(l);
    std::erase_if(lanes_, [](const Lane& l) { return l.addresses.empty(); });
    if (lanes_.empty())
        return result_;
    t0_ = platform::monotonic_now();
    lanes_.front().released = true;
    last_release_ = t0_;
    start(lanes_.front());

    while (!stop_requested()) {
        Micros now = platform::monotonic_now();
        // Release the next lane after the delay, or at once when every
        // attempt started so far has failed.
        auto waiting =
            std::find_if(lanes_.begin(), lanes_.end(), [](const Lane& l) { return !l.released; });
        const bool everything_failed =
            all_started_failed() && std::all_of(lanes_.begin(), lanes_.end(), [](const Lane& l) {
                return !l.released || l.exhausted();
            });
        if (waiting != lanes_.end() && (now - last_release_ >= spec_.delay || everything_failed)) {
            waiting->released = true;
            last_release_ = now;
            start(*waiting);
            continue;
        }
        // A released lane whose attempt failed moves on to its next address.
        bool started = false;
        for (auto& l : lanes_) {
            if (l.released && !l.current && l.next < l.addresses.size()) {
                start(l);
                started = true;
            }
        }
        if (started)
            continue;
        if (set_.pending() == 0 && waiting == lanes_.end())
            break; // every address tried, every attempt failed

        Micros wait = waiting != lanes_.end() ? last_release_ + spec_.delay - now : timeout_;
        for (const auto& l : lanes_)
            if (l.current)
                wait = std::min(wait, set_.started_at(*l.current) + timeout_ - now);
        for (auto& c : set_.wait(std::max(wait, Micros{0}))) {
            auto lane = std::find_if(lanes_.begin(), lanes_.end(),
                                     [&](const Lane& l) { return l.current == c.id; });
            const Micros end = set_.started_at(c.id) + c.sample.latency - t0_;
            lane->current.reset();
            last_end_ = std::max(last_end_, end);
            if (c.sample.outcome == Outcome::accepted &&
                (!result_.connected || end < result_.time)) {
                result_.connected = true;
                result_.time = end;
                result_.via = lane->addresses[lane->next - 1];
            }
        }
        if (result_.connected)
            break;
        now = platform::monotonic_now();
        for (auto& l : lanes_) {
            if (l.current && now - set_.started_at(*l.current) >= timeout_) {
                const Sample s = set_.abandon(*l.current);
                last_end_ = std::max(last_end_, set_.started_at(*l.current) + s.latency - t0_);
                l.current.reset();
                result_.lower_bound = true;
            }
        }
    }
    if (!result_.connected)
        result_.time = last_end_;
    return result_;
}

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
    Race race(spec, timeout, os, windows_build);
    return race.run(std::move(lanes));
}

} // namespace loopcheck
