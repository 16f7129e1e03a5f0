// `loopcheck audit [PORT|FIRST-LAST]...`: reads the listener table once,
// keeps every listener a loopback client can reach (loopback and wildcard
// binds), and measures localhost:PORT for all of their ports at once, so
// every port gets the diagnosis `loopcheck localhost:PORT` gives, plus the
// audit's own flags (src/core/diagnose/audit.cpp).
#include "loopcheck/run/audit.hpp"

#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"
#include "run/measure.hpp"

#include <fmt/format.h>

namespace loopcheck {

Result<AuditReport> run_audit(const AuditRequest& request, const ProgressFn& progress) {
    const auto& ranges = request.ranges;
    const bool one_port = ranges.size() == 1 && ranges[0].first == ranges[0].last;
    const auto table =
        platform::list_listeners(one_port ? std::optional(ranges[0].first) : std::nullopt);
    if (!table)
        return Error{ErrorKind::system,
                     fmt::format("cannot list listening sockets: {}", table.error().message)};

    AuditReport audit;
    audit.filtered = !ranges.empty();
    audit.ports = group_ports(table->listeners, ranges, audit.not_loopback);
    log::debug("{} listener(s), {} port(s) to audit", table->listeners.size(), audit.ports.size());
    std::vector<Target> targets;
    for (std::size_t i = 0; i < audit.ports.size(); ++i) {
        targets.push_back(name_target("localhost", audit.ports[i].port));
        audit.ports[i].target = i;
    }
    CheckRequest check;
    check.timeout = request.timeout;
    check.threshold = request.threshold;
    check.no_pair = request.no_pair;
    check.command_line = request.command_line;
    // The ports come from this machine's table, not from a typed list: no bound.
    check.max_probes = SIZE_MAX;
    auto measured = measure(std::move(targets), check, progress, &table);
    if (!measured)
        return measured.error();
    audit.check = std::move(*measured);
    log::debug("probes done"); // -v shows where an audit spends its time
    conclude_audit(audit);
    log::debug("{} port(s) diagnosed", audit.ports.size());
    return audit;
}

} // namespace loopcheck
