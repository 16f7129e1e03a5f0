// Which targets are on this machine, and their listeners from a listener
// table (src/core/listeners/local_targets.cpp): pure, so the run layer and the
// report tests attach a table the same way.
#pragma once

#include "loopcheck/core/listeners/listener.hpp"
#include "loopcheck/core/report.hpp"
#include "loopcheck/core/result.hpp"

namespace loopcheck {

/// True when a target's addresses are on this machine (loopback or
/// wildcard), so the listener table says something about it.
bool is_local(const TargetReport& target);

/// Gives each local target its listeners from `table`, and the report what
/// the table could not show; a table that could not be read is said in
/// report.listener_table and never stops the check.
void attach_listeners(Report& report, const Result<ListenerTable>& table);

} // namespace loopcheck
