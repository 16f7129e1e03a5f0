// `loopcheck staircase` as a request and its report (src/run/staircase.cpp).
#pragma once

#include "loopcheck/core/input/target.hpp"
#include "loopcheck/core/measure/staircase.hpp"
#include "loopcheck/core/result.hpp"
#include "loopcheck/run/progress.hpp"

#include <optional>

namespace loopcheck {

/// Probes per limit: enough for a median, bounded so that a typo cannot
/// keep Windows busy for hours (each probe may take 2.5 s there).
inline constexpr int max_staircase_count = 100;

struct StaircaseRequest {
    std::optional<Target> target; ///< none: a closed port on 127.0.0.1 and ::1
    int count = 3;
    Micros timeout{5'000'000};
};

/// Times refused connects with the SYN retry limit set to 0..5, one limit
/// at a time, every address at once; the report's exit_code is set. An
/// Error when the target does not resolve (ErrorKind::resolve) or no
/// closed port can be reserved.
Result<StaircaseReport> run_staircase(const StaircaseRequest& request,
                                      const ProgressFn& progress = {});

} // namespace loopcheck
