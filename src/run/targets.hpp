// Targets: the one resolver of every command (check, audit, staircase,
// wait, the self-check) and the listener table attached once
// (src/run/targets.cpp).
#pragma once

#include "loopcheck/core/input/target.hpp"
#include "loopcheck/core/listeners/listener.hpp"
#include "loopcheck/core/listeners/local_targets.hpp"
#include "loopcheck/core/report.hpp"
#include "loopcheck/core/result.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace loopcheck {

/// Resolves each distinct name once, in resolver order, and gives every
/// address the target's port; a literal is its own address.
class Resolver {
public:
    explicit Resolver(FamilyFilter family) : family_(family) {}
    Result<std::vector<Address>> addresses(const Target& target);

private:
    FamilyFilter family_;
    std::map<std::string, Result<std::vector<Address>>> answers_;
};

/// Resolves every target's name (each distinct name once) and fills its
/// addresses in resolver order; a literal is its own address (or an error
/// when `family` excludes it). Names also get their hosts-file lines and
/// the resolution note; localhost gets curl's own answer on the side.
void resolve_targets(Report& report, FamilyFilter family);

/// The listener table for `ports`: filtered by the OS for one port, the
/// whole table (read once) for several.
Result<ListenerTable> read_listener_table(const std::set<std::uint16_t>& ports);

/// Reads the listener table for the local targets' ports (once) and gives
/// each local target its listeners (core's attach_listeners, which audit
/// calls with the table it read first). A table that cannot be read never
/// stops the check: report.listener_table says why it is missing.
void attach_listeners(Report& report);

} // namespace loopcheck
