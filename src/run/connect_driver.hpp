// The one connect driver: every command's connects (probe rounds, the
// staircase's limits, --emulate's client algorithms, wait's polls) are
// schedules over it, as curl's connection filters drive one socket filter.
#pragma once

#include "loopcheck/platform/platform.hpp"

#include <vector>

namespace loopcheck {

/// The platform's ConnectSet, with the one wait every schedule needs: with
/// nothing in flight it sleeps instead of returning at once (which would
/// turn a pause between attempts into a busy loop).
class ConnectDriver {
public:
    using Id = platform::ConnectSet::Id;
    using Completion = platform::ConnectSet::Completion;

    /// See ConnectSet::start: nullopt when out of descriptors.
    std::optional<Id> start(const ProbeSpec& spec) { return set_.start(spec); }
    /// Waits up to `max_wait` for connects to finish; sleeps when none is
    /// in flight.
    std::vector<Completion> wait(Micros max_wait);
    Sample abandon(Id id) { return set_.abandon(id); }
    [[nodiscard]] Micros started_at(Id id) const { return set_.started_at(id); }
    [[nodiscard]] std::size_t pending() const noexcept { return set_.pending(); }

private:
    platform::ConnectSet set_;
};

/// What decides which connects run when; the driver does the waiting.
/// Each turn of drive(): over? -> start_due -> nothing_to_wait_for? (then
/// the next turn at once) -> wait until next_wake -> completed (each) ->
/// after_wait.
class Schedule {
public:
    virtual ~Schedule() = default;
    /// True when the schedule has nothing left to do (goal met, time up,
    /// everything tried, or a stop handled).
    virtual bool over(ConnectDriver& driver, Micros now) = 0;
    /// Starts what is due at `now` (monotonic clock).
    virtual void start_due(ConnectDriver& driver, Micros now) = 0;
    /// True when, after start_due, there is nothing to wait for this turn.
    virtual bool nothing_to_wait_for(ConnectDriver& /*driver*/) { return false; }
    /// When the driver must wake next at the latest (monotonic clock).
    [[nodiscard]] virtual Micros next_wake(const ConnectDriver& driver, Micros now) const = 0;
    /// A connect finished.
    virtual void completed(ConnectDriver& driver, ConnectDriver::Completion&& c) = 0;
    /// After each wait: expiries, progress.
    virtual void after_wait(ConnectDriver& driver, Micros now) = 0;
};

/// Runs `schedule` on `driver` until it is over. The one connect loop.
void drive(ConnectDriver& driver, Schedule& schedule);

} // namespace loopcheck
