// The poll loop of `loopcheck wait` (src/cli/wait_poll.cpp).
#pragma once

#include "loopcheck/core/wait.hpp"
#include "loopcheck/platform/platform.hpp"

namespace loopcheck {

/// Polls every address of every target in `r` until each target's goal is
/// met, --for (r.limit) runs out or Ctrl-C; then gives the addresses before
/// a winner in resolver order their last chance to accept, and ends what is
/// still in flight. Fills the addresses' timelines and r.waited, timed_out,
/// interrupted and each target's done_at. `live_line`: the status line on
/// stderr.
void poll_until_done(WaitReport& r, const SystemFacts& facts, bool live_line);

} // namespace loopcheck
