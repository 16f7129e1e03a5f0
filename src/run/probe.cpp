// The probe schedule: a sliding window of connects in flight over a list
// of specs, each bounded by the timeout, on the one connect driver.
#include "run/probe.hpp"

#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/run/stop.hpp"
#include "run/connect_driver.hpp"

#include <algorithm>
#include <deque>

namespace loopcheck {

namespace {

constexpr Micros progress_interval{100'000};

/// One call of probe(): starts connects until the window is full, waits
/// for the first to finish or time out, and tells the progress callback.
class ProbeRun final : public Schedule {
public:
    ProbeRun(std::span<const ProbeSpec> specs, Micros timeout, const ProgressFn& progress)
        : specs_(specs), timeout_(timeout), progress_(progress), results_(specs.size()),
          limit_(std::max<std::size_t>(1, platform::ConnectSet::capacity())),
          last_progress_(platform::monotonic_now()) {}

    std::vector<Sample> take_results() { return std::move(results_); }

    bool over(ConnectDriver& /*driver*/, Micros /*now*/) override {
        return next_ >= specs_.size() && pending_.empty();
    }
    void start_due(ConnectDriver& driver, Micros /*now*/) override { start_more(driver); }
    bool nothing_to_wait_for(ConnectDriver& /*driver*/) override {
        if (!pending_.empty())
            return false;
        if (stop_requested())
            interrupt_unstarted();
        return true;
    }
    /// The first pending connect's timeout, or the progress line's turn.
    Micros next_wake(const ConnectDriver& driver, Micros now) const override {
        Micros wake = now + timeout_;
        for (const auto& p : pending_)
            wake = std::min(wake, driver.started_at(p.first) + timeout_);
        if (progress_)
            wake = std::min(wake, now + progress_interval);
        return wake;
    }
    void completed(ConnectDriver& /*driver*/, ConnectDriver::Completion&& c) override {
        const std::size_t index = take(c.id);
        if (log::enabled(log::Level::trace)) // not an endpoint string per probe for nothing
            log::trace("probe {} -> {} in {} us {}", endpoint_string(specs_[index].address),
                       outcome_name(c.sample.outcome), c.sample.latency.count(),
                       c.sample.native_name);
        results_[index] = std::move(c.sample);
    }
    void after_wait(ConnectDriver& driver, Micros now) override {
        expire(driver, now);
        show_progress(driver, now);
    }

private:
    /// The spec index of pending connect `id`, which is no longer pending.
    std::size_t take(ConnectDriver::Id id) {
        auto it = std::find_if(pending_.begin(), pending_.end(),
                               [&](const auto& p) { return p.first == id; });
        const std::size_t index = it->second;
        pending_.erase(it);
        return index;
    }

    /// Starts connects until the window is full, the specs run out or a
    /// stop is requested.
    void start_more(ConnectDriver& driver) {
        while (next_ < specs_.size() && pending_.size() < limit_ && !stop_requested()) {
            auto id = driver.start(specs_[next_]);
            if (!id) {
                // Out of descriptors: run with what we hold. With nothing in
                // flight there is nothing to wait for, so record the failure.
                if (pending_.empty()) {
                    results_[next_].outcome = Outcome::error;
                    results_[next_].native_name = "EMFILE";
                    ++next_;
                    continue;
                }
                limit_ = pending_.size();
                log::debug("out of descriptors: at most {} connects at once", limit_);
                return;
            }
            pending_.emplace_back(*id, next_);
            ++next_;
        }
    }

    void interrupt_unstarted() {
        for (; next_ < specs_.size(); ++next_) {
            results_[next_].outcome = Outcome::timeout;
            results_[next_].native_name = "interrupted";
            results_[next_].interrupted = true;
        }
    }

    /// Abandons the connects past the timeout, or all of them on a stop.
    void expire(ConnectDriver& driver, Micros now) {
        const bool stop = stop_requested();
        for (std::size_t i = 0; i < pending_.size();) {
            const auto id = pending_[i].first;
            if (!stop && now - driver.started_at(id) < timeout_) {
                ++i;
                continue;
            }
            const std::size_t index = take(id);
            results_[index] = driver.abandon(id);
            if (stop) {
                results_[index].native_name = "interrupted";
                results_[index].interrupted = true;
            }
            log::trace("probe {} -> {} after {} us", endpoint_string(specs_[index].address),
                       stop ? "interrupted" : "timeout", results_[index].latency.count());
        }
    }

    /// Tells the progress callback about the oldest connect still waiting.
    void show_progress(const ConnectDriver& driver, Micros now) {
        if (!progress_ || pending_.empty() || now - last_progress_ < progress_interval)
            return;
        last_progress_ = now;
        const auto oldest =
            std::min_element(pending_.begin(), pending_.end(), [&](const auto& a, const auto& b) {
                return driver.started_at(a.first) < driver.started_at(b.first);
            });
        progress_({now - driver.started_at(oldest->first),
                   pending_.size() + (specs_.size() - next_), &specs_[oldest->second]});
    }

    std::span<const ProbeSpec> specs_;
    Micros timeout_;
    const ProgressFn& progress_;
    std::vector<Sample> results_;
    /// Which spec each pending connect belongs to, by driver id, oldest
    /// first. A deque: connects mostly finish in the order they started,
    /// and taking the first of a vector moved all the others, a cost that
    /// grows with the window (docs/performance.md).
    std::deque<std::pair<ConnectDriver::Id, std::size_t>> pending_;
    std::size_t limit_;
    std::size_t next_ = 0;
    Micros last_progress_;
};

} // namespace

std::vector<Sample> probe(std::span<const ProbeSpec> specs, Micros timeout,
                          const ProgressFn& progress) {
    ConnectDriver driver;
    ProbeRun run(specs, timeout, progress);
    drive(driver, run);
    return run.take_results();
}

} // namespace loopcheck
