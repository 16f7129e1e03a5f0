#include "loopcheck/platform/common/probe.hpp"

#include "loopcheck/platform/common/log.hpp"

#include <algorithm>
#include <atomic>

namespace loopcheck {

namespace {

std::atomic<bool> g_stop{false};

constexpr Micros progress_interval{100'000};

} // namespace

void request_stop() noexcept {
    g_stop.store(true, std::memory_order_relaxed);
}
bool stop_requested() noexcept {
    return g_stop.load(std::memory_order_relaxed);
}

namespace {

/// One call of probe(): a sliding window of connects in flight over the
/// specs, in four phases per turn (start, wait, expire, progress).
class ProbeRun {
public:
    ProbeRun(std::span<const ProbeSpec> specs, Micros timeout, const ProgressFn& progress)
        : specs_(specs), timeout_(timeout), progress_(progress), results_(specs.size()),
          limit_(std::max<std::size_t>(1, platform::ConnectSet::capacity())),
          last_progress_(platform::monotonic_now()) {}

    std::vector<Sample> run() {
        while (next_ < specs_.size() || !pending_.empty()) {
            start_more();
            if (pending_.empty()) {
                if (stop_requested())
                    interrupt_unstarted();
                continue;
            }
            wait_some();
            const Micros now = platform::monotonic_now();
            expire(now);
            show_progress(now);
        }
        return std::move(results_);
    }

private:
    /// The spec index of pending connect `id`, which is no longer pending.
    std::size_t take(platform::ConnectSet::Id id) {
        auto it = std::find_if(pending_.begin(), pending_.end(),
                               [&](const auto& p) { return p.first == id; });
        const std::size_t index = it->second;
        pending_.erase(it);
        return index;
    }

    /// Starts connects until the window is full, the specs run out or a
    /// stop is requested.
    void start_more() {
        while (next_ < specs_.size() && pending_.size() < limit_ && !stop_requested()) {
            auto id = set_.start(specs_[next_]);
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

    /// Waits until a connect finishes, the oldest times out or it is time
    /// for the progress line, and records what finished.
    void wait_some() {
        const Micros now = platform::monotonic_now();
        Micros wait = timeout_;
        for (const auto& p : pending_)
            wait = std::min(wait, set_.started_at(p.first) + timeout_ - now);
        if (progress_)
            wait = std::min(wait, progress_interval);
        for (auto& c : set_.wait(std::max(wait, Micros{0}))) {
            const std::size_t index = take(c.id);
            log::trace("probe {} -> {} in {} us {}", endpoint_string(specs_[index].address),
                       outcome_name(c.sample.outcome), c.sample.latency.count(),
                       c.sample.native_name);
            results_[index] = std::move(c.sample);
        }
    }

    /// Abandons the connects past the timeout, or all of them on a stop.
    void expire(Micros now) {
        const bool stop = stop_requested();
        for (std::size_t i = 0; i < pending_.size();) {
            const auto id = pending_[i].first;
            if (!stop && now - set_.started_at(id) < timeout_) {
                ++i;
                continue;
            }
            const std::size_t index = take(id);
            results_[index] = set_.abandon(id);
            if (stop) {
                results_[index].native_name = "interrupted";
                results_[index].interrupted = true;
            }
            log::trace("probe {} -> {} after {} us", endpoint_string(specs_[index].address),
                       stop ? "interrupted" : "timeout", results_[index].latency.count());
        }
    }

    /// Tells the progress callback about the oldest connect still waiting.
    void show_progress(Micros now) {
        if (!progress_ || pending_.empty() || now - last_progress_ < progress_interval)
            return;
        last_progress_ = now;
        const auto oldest =
            std::min_element(pending_.begin(), pending_.end(), [&](const auto& a, const auto& b) {
                return set_.started_at(a.first) < set_.started_at(b.first);
            });
        progress_({now - set_.started_at(oldest->first), pending_.size() + (specs_.size() - next_),
                   &specs_[oldest->second]});
    }

    std::span<const ProbeSpec> specs_;
    Micros timeout_;
    const ProgressFn& progress_;
    std::vector<Sample> results_;
    platform::ConnectSet set_;
    /// Which spec each pending connect belongs to, by ConnectSet id.
    std::vector<std::pair<platform::ConnectSet::Id, std::size_t>> pending_;
    std::size_t limit_;
    std::size_t next_ = 0;
    Micros last_progress_;
};

} // namespace

std::vector<Sample> probe(std::span<const ProbeSpec> specs, Micros timeout,
                          const ProgressFn& progress) {
    return ProbeRun(specs, timeout, progress).run();
}

} // namespace loopcheck
