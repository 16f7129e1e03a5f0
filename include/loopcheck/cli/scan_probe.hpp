// `loopcheck scan`'s one call into the check pipeline (src/cli/scan_probe.cpp),
// kept narrow so the engine behind it can change without touching scan.
#pragma once

#include "loopcheck/cli/options.hpp"
#include "loopcheck/core/scan.hpp"

#include <vector>

namespace loopcheck {

/// Probes every endpoint once, all at once (resolve, listener table, one
/// round of connects, bounded by opt.timeout), and joins each with the
/// listeners on its port. Returns false when the probes were interrupted.
bool probe_scan_endpoints(std::vector<ScanEndpoint>& endpoints, const Options& opt);

} // namespace loopcheck
