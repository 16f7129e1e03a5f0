// `loopcheck [TARGET...]` as a request and its report: the engine's entry
// point for the check and the self-check (src/run/check.cpp).
#pragma once

#include "loopcheck/core/clients/emulation.hpp"
#include "loopcheck/core/input/target.hpp"
#include "loopcheck/core/report.hpp"
#include "loopcheck/core/result.hpp"
#include "loopcheck/run/progress.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace loopcheck {

/// --max-probes' default (docs/usage.md).
inline constexpr std::size_t default_max_probes = 100'000;

struct CheckRequest {
    std::vector<Target> targets; ///< empty: the self-check
    Micros timeout{5'000'000};
    Micros threshold{100'000};
    int count = 1;
    FamilyFilter family = FamilyFilter::any;
    bool expect_refused = false;
    bool no_pair = false;
    bool quick = false;             ///< --quick: infer default-stack refusals on Windows loopback
    std::optional<int> syn_retries; ///< --syn-retries N on every probe
    std::vector<EmulationSpec> emulate; ///< --emulate, in the order given
    std::string command_line;           ///< as typed, for the Markdown report
    /// The most connects one run may make (every address of every target,
    /// twins included, times --count): a long target list, or a name with
    /// many addresses, is refused before anything is probed.
    std::size_t max_probes = default_max_probes;
    /// false: each target's client rows are dropped once it is diagnosed
    /// (its verdict, findings and fixes stay). The one-line-per-target text
    /// report shows none, and thousands of targets' rows each were most of
    /// the run's memory (issue 24, docs/performance.md).
    bool keep_client_rows = true;

    friend bool operator==(const CheckRequest&, const CheckRequest&) = default;
};

/// Runs a check whole: resolves every target, reads the listener table,
/// probes every address -n times, concludes each target, runs the
/// emulations, and (with no target) the self-check's statements; the
/// report's exit_code is set. An Error when the self-check cannot set
/// itself up (ErrorKind::system), or when the run would make more than
/// max_probes connects (ErrorKind::usage; nothing is probed).
/// `progress`: the live line while probes wait; may be empty.
Result<Report> run_check(const CheckRequest& request, const ProgressFn& progress = {});

} // namespace loopcheck
