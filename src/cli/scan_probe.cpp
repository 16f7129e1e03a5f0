// `loopcheck scan`'s probe: every (host, port) the client and config hits
// name, through the check pipeline once (as `loopcheck audit` does), each
// joined with the listener table.
#include "loopcheck/cli/scan_probe.hpp"

#include "loopcheck/cli/pipeline.hpp"
#include "loopcheck/cli/version.hpp"
#include "loopcheck/core/scan_cost.hpp"
#include "loopcheck/core/target.hpp"
#include "loopcheck/platform/common/log.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace loopcheck {

bool probe_scan_endpoints(std::vector<ScanEndpoint>& endpoints, const Options& opt) {
    Report check;
    check.loopcheck_version = std::string(version());
    check.command_line = "loopcheck scan";
    check.threshold = opt.threshold;
    check.timeout = opt.timeout;
    std::vector<std::size_t> index; // endpoint -> target
    for (const ScanEndpoint& ep : endpoints) {
        const std::string host = ep.host == "::1" ? "[::1]" : ep.host;
        auto t = parse_target(fmt::format("{}:{}", host, ep.port));
        if (!t) {
            index.push_back(SIZE_MAX);
            continue;
        }
        TargetReport tr;
        tr.target = std::move(*t);
        index.push_back(check.targets.size());
        check.targets.push_back(std::move(tr));
    }
    resolve_targets(check, opt);
    attach_listeners(check);
    run_rounds(check, opt);
    conclude(check, opt);
    log::debug("scan: {} endpoint(s) probed", check.targets.size());
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
        if (index[i] == SIZE_MAX)
            continue;
        const TargetReport& t = check.targets[index[i]];
        ScanEndpoint& ep = endpoints[i];
        ep.probed = true;
        ep.accepted_here = std::any_of(t.addresses.begin(), t.addresses.end(), [](const auto& a) {
            return a.summary.outcome == Outcome::accepted;
        });
        if (t.listeners)
            join_listeners(ep, *t.listeners);
    }
    return !check.incomplete;
}

} // namespace loopcheck
