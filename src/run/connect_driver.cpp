// The one connect loop (drive) and the run's stop flag.
#include "run/connect_driver.hpp"

#include "loopcheck/run/stop.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

namespace loopcheck {

namespace {

std::atomic<bool> g_stop{false};

} // namespace

void request_stop() noexcept {
    g_stop.store(true, std::memory_order_relaxed);
}
bool stop_requested() noexcept {
    return g_stop.load(std::memory_order_relaxed);
}

std::vector<ConnectDriver::Completion> ConnectDriver::wait(Micros max_wait) {
    max_wait = std::max(max_wait, Micros{0});
    if (set_.pending() == 0) {
        std::this_thread::sleep_for(max_wait);
        return {};
    }
    return set_.wait(max_wait);
}

void drive(ConnectDriver& driver, Schedule& schedule) {
    for (;;) {
        Micros now = platform::monotonic_now();
        if (schedule.over(driver, now))
            break;
        schedule.start_due(driver, now);
        if (schedule.nothing_to_wait_for(driver))
            continue;
        now = platform::monotonic_now();
        for (auto& c : driver.wait(schedule.next_wake(driver, now) - now))
            schedule.completed(driver, std::move(c));
        schedule.after_wait(driver, platform::monotonic_now());
    }
}

} // namespace loopcheck
