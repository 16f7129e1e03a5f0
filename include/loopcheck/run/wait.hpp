// `loopcheck wait` as a request and its report (src/run/wait.cpp).
#pragma once

#include "loopcheck/core/input/target.hpp"
#include "loopcheck/core/measure/wait.hpp"
#include "loopcheck/run/progress.hpp"

#include <optional>
#include <string>
#include <vector>

namespace loopcheck {

struct WaitRequest {
    std::vector<Target> targets;
    WaitGoal goal = WaitGoal::any_address;
    bool strict = false;
    Micros limit{30'000'000}; ///< --for
    Micros interval{25'000};  ///< --interval
    /// --http PATH: the GET for every target (an https URL's port only);
    /// without it an http:// URL's own path is asked for.
    std::optional<std::string> http_path;
    std::vector<StatusRange> expect_status = default_expected_statuses();
    std::string command_line; ///< as the report shows it
};

/// Resolves every target (a name that does not resolve yet is asked for
/// again until --for runs out), polls until each target's goal is met,
/// --for runs out or Ctrl-C, reads who listens on the ports of the targets
/// it gave up on, and concludes; the report's exit_code is set.
/// `live`: the status line while waiting; `heartbeat`: the start line and
/// a line every few seconds, for a CI log. Either may be empty.
WaitReport run_wait(const WaitRequest& request, const LiveLineFn& live = {},
                    const LiveLineFn& heartbeat = {});

} // namespace loopcheck
