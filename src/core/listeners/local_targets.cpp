// Local targets and their listeners, from a listener table value.
#include "loopcheck/core/listeners/local_targets.hpp"

#include "loopcheck/core/listeners/queries.hpp"

#include <algorithm>
#include <cstdint>
#include <set>

namespace loopcheck {

bool is_local(const TargetReport& target) {
    return !target.addresses.empty() &&
           std::all_of(target.addresses.begin(), target.addresses.end(), [](const auto& a) {
               return is_loopback(a.address) || is_unspecified(a.address);
           });
}

void attach_listeners(Report& report, const Result<ListenerTable>& table) {
    report.listener_table.queried = true;
    if (!table) {
        report.listener_table.error = table.error().message;
        return;
    }
    std::set<std::uint16_t> ports;
    for (auto& tr : report.targets) {
        if (!is_local(tr))
            continue;
        tr.listeners = listeners_on_port(table->listeners, tr.target.port);
        ports.insert(tr.target.port);
    }
    // Only what the report shows counts: a hidden owner on another port is
    // no limit of this report.
    std::vector<Listener> shown;
    for (const auto& l : table->listeners)
        if (ports.count(l.bound.port) > 0)
            shown.push_back(l);
    report.listener_table.limits = listener_limits(shown, *table);
}

} // namespace loopcheck
