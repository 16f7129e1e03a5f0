// `loopcheck scan` as a request and its result (src/run/scan.cpp).
#pragma once

#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/input/redact.hpp"
#include "loopcheck/core/result.hpp"
#include "loopcheck/core/scan/scan.hpp"
#include "loopcheck/run/progress.hpp"

#include <string>
#include <vector>

namespace loopcheck {

struct ScanRequest {
    std::vector<std::string> roots; ///< files or folders; none: "."
    bool strict = false;            ///< config hits count as risky too
    bool no_probe = false;          ///< static only: connect to nothing
    bool name_skips = false;        ///< -v: name every skipped file
    bool exit_zero = false;         ///< --exit-zero: report, exit 0 whatever was found
    Secrets secrets = Secrets::redact; ///< --no-redact: hits' lines as read
    std::string baseline;           ///< --baseline FILE: fingerprints that do not fail the gate
    std::string since;              ///< --since REF: only lines changed since REF fail it
    Micros timeout{5'000'000};
    Micros threshold{100'000};
};

/// Scans every root, classifies every loopback reference, probes each
/// distinct (host, port) of the client and config hits once (unless
/// no_probe), concludes, and applies the gate (the repository's
/// .loopcheck.json found above the first root, suppression comments, the
/// baseline, --since; core/scan/gate.hpp); the result's exit_code is set.
/// An Error (ErrorKind::usage) when a root cannot be read, or the config
/// file, the baseline or --since's diff cannot be used.
/// `progress`: the live line while the probes wait; may be empty.
Result<ScanResult> run_scan(const ScanRequest& request, const ProgressFn& progress = {});

} // namespace loopcheck
