// The poll schedule of `loopcheck wait` (src/run/wait_poll.cpp).
#pragma once

#include "loopcheck/core/input/machine.hpp"
#include "loopcheck/core/measure/wait.hpp"
#include "loopcheck/run/progress.hpp"

namespace loopcheck {

/// Polls every address of every target in `r` until each target's goal is
/// met, --for (r.limit) runs out or Ctrl-C; then gives the addresses before
/// a winner in resolver order their last chance to accept, and ends what is
/// still in flight. Fills the addresses' timelines and r.waited, timed_out,
/// interrupted and each target's done_at. `live`, when set, gets the
/// status line at most every 100 ms, and "" at the end.
void poll_until_done(WaitReport& r, const SystemFacts& facts, const LiveLineFn& live);

} // namespace loopcheck
