// The client rows folded by outcome: the clients that pay the same, named
// once per group, so a report says in a few lines what a 21-row table says
// (issue 24). Works for any number of rows and any client ids.
#pragma once

#include "loopcheck/core/clients/impact.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace loopcheck {

/// Clients that come to the same result: all connect or all fail, in times
/// within half again (or 1 ms) of the group's fastest.
struct ClientGroup {
    bool connected = false;
    Micros fastest{0};
    Micros slowest{0};
    bool lower_bound = false; ///< a member's time is a lower bound (--timeout)
    /// The members by name, in table order; a run of one client's version
    /// rows is one name ("curl", "Node.js 17 to 19", "Node.js >= 20.0").
    std::vector<std::string> names;
    std::size_t rows = 0; ///< client rows the group stands for
};

/// Which prediction of a row to fold: here, or what it costs on Windows.
enum class FoldOn { here, windows };

/// The rows grouped by outcome, slowest group first, failures before all.
/// Rows without a Windows prediction are left out of a FoldOn::windows fold.
std::vector<ClientGroup> fold_clients(std::span<const ClientImpact> rows, FoldOn on = FoldOn::here);

/// Every row that fails, as one group whatever its times (the fastest
/// failure to the slowest): a report's "these fail" then names them all,
/// not only those that fail alike. nullopt when none fails.
std::optional<ClientGroup> failing_clients(std::span<const ClientImpact> rows,
                                           FoldOn on = FoldOn::here);

/// One group's time as a report shows it: "2.03 s", "200 to 300 ms",
/// "fails after 0.700 ms", ">= 5.00 s".
std::string group_time(const ClientGroup& g);

/// The time alone, without "fails after": "0.700 ms", "200 to 300 ms".
std::string group_span(const ClientGroup& g);

/// The group's names joined, a client's name said once where its runs
/// follow each other: "curl 7.78.0 to 8.2.0, >= 8.22, Go net.Dial".
std::string group_names(const ClientGroup& g);

} // namespace loopcheck
