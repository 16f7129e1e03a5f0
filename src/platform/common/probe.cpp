#include "loopcheck/platform/probe.hpp"

#include <algorithm>
#include <atomic>
#include <spdlog/spdlog.h>

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

std::vector<Sample> probe(std::span<const ProbeSpec> specs, Micros timeout,
                          const ProgressFn& progress) {
    std::vector<Sample> results(specs.size());
    platform::ConnectSet set;
    // Which spec each pending connect belongs to, by ConnectSet id.
    std::vector<std::pair<platform::ConnectSet::Id, std::size_t>> pending;
    std::size_t limit = std::max<std::size_t>(1, platform::ConnectSet::capacity());
    std::size_t next = 0;
    Micros last_progress = platform::monotonic_now();

    auto spec_of = [&](platform::ConnectSet::Id id) {
        auto it = std::find_if(pending.begin(), pending.end(),
                               [&](const auto& p) { return p.first == id; });
        const std::size_t index = it->second;
        pending.erase(it);
        return index;
    };

    while (next < specs.size() || !pending.empty()) {
        while (next < specs.size() && pending.size() < limit && !stop_requested()) {
            auto id = set.start(specs[next]);
            if (!id) {
                // Out of descriptors: run with what we hold. With nothing in
                // flight there is nothing to wait for, so record the failure.
                if (pending.empty()) {
                    results[next].outcome = Outcome::error;
                    results[next].native_name = "EMFILE";
                    ++next;
                    continue;
                }
                limit = pending.size();
                spdlog::debug("out of descriptors: at most {} connects at once", limit);
                break;
            }
            pending.emplace_back(*id, next);
            ++next;
        }
        if (pending.empty()) {
            if (stop_requested()) {
                for (; next < specs.size(); ++next) {
                    results[next].outcome = Outcome::timeout;
                    results[next].native_name = "interrupted";
                    results[next].interrupted = true;
                }
            }
            continue;
        }

        Micros now = platform::monotonic_now();
        Micros wait = timeout;
        for (const auto& p : pending)
            wait = std::min(wait, set.started_at(p.first) + timeout - now);
        if (progress)
            wait = std::min(wait, progress_interval);
        for (auto& c : set.wait(std::max(wait, Micros{0}))) {
            const std::size_t index = spec_of(c.id);
            spdlog::trace("probe {} -> {} in {} us {}", endpoint_string(specs[index].address),
                          outcome_name(c.sample.outcome), c.sample.latency.count(),
                          c.sample.native_name);
            results[index] = std::move(c.sample);
        }

        now = platform::monotonic_now();
        const bool stop = stop_requested();
        for (std::size_t i = 0; i < pending.size();) {
            const auto id = pending[i].first;
            if (stop || now - set.started_at(id) >= timeout) {
                const std::size_t index = spec_of(id);
                results[index] = set.abandon(id);
                if (stop) {
                    results[index].native_name = "interrupted";
                    results[index].interrupted = true;
                }
                spdlog::trace("probe {} -> {} after {} us", endpoint_string(specs[index].address),
                              stop ? "interrupted" : "timeout", results[index].latency.count());
            } else {
                ++i;
            }
        }

        if (progress && !pending.empty() && now - last_progress >= progress_interval) {
            last_progress = now;
            const auto oldest =
                std::min_element(pending.begin(), pending.end(), [&](const auto& a, const auto& b) {
                    return set.started_at(a.first) < set.started_at(b.first);
                });
            progress({now - set.started_at(oldest->first), pending.size() + (specs.size() - next),
                      &specs[oldest->second]});
        }
    }
    return results;
}

} // namespace loopcheck
