// The poll schedule of `loopcheck wait` (src/run/wait_poll.cpp).
#pragma once

#include "loopcheck/core/input/machine.hpp"
#include "loopcheck/core/measure/wait.hpp"
#include "loopcheck/run/progress.hpp"

#include <functional>
#include <string>

namespace loopcheck {

/// What the poller needs from outside the loop: resolving a name again
/// (it fills the target's addresses or its resolve_error), the live line
/// and the CI log's lines. Each may be empty but `resolve`.
struct WaitHooks {
    std::function<void(WaitTarget&)> resolve;
    LiveLineFn live;               ///< the status line at most every 100 ms, "" at the end
    LiveLineFn heartbeat;          ///< a line for a CI log every few seconds
    std::string loopcheck_version; ///< for the GET's User-Agent
};

/// Polls every address of every target in `r` until each target's goal is
/// met, --for (r.limit) runs out or Ctrl-C; then gives the addresses before
/// a winner in resolver order their last chance to accept, and ends what is
/// still in flight. Fills the addresses' timelines and r.waited, timed_out,
/// interrupted and each target's done_at. A target whose name did not
/// resolve is asked for again every 250 ms; an HTTP target's address is
/// up when a GET after an accepted poll answers an expected status.
void poll_until_done(WaitReport& r, const SystemFacts& facts, const WaitHooks& hooks);

} // namespace loopcheck
