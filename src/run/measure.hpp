// The steps every check runs in this order, for `loopcheck TARGET...`, the
// self-check and audit (src/run/measure.cpp).
#pragma once

#include "loopcheck/core/listeners/listener.hpp"
#include "loopcheck/run/check.hpp"

#include <cstddef>
#include <cstdint>

namespace loopcheck {

/// A report for `targets`: resolved, with listeners (from `table` when
/// given, else read here), probed, concluded and emulated, exit code set;
/// a usage Error, before any probe, when the plan is over
/// request.max_probes connects.
/// Targets from index `expect_refused_from` on are expected to refuse (the
/// self-check's closed ports).
Result<Report> measure(std::vector<Target> targets, const CheckRequest& request,
                       const ProgressFn& progress, const Result<ListenerTable>* table = nullptr,
                       std::size_t expect_refused_from = SIZE_MAX);

} // namespace loopcheck
