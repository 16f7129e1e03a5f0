// `loopcheck scan`'s link to the client table (src/core/scan/client.cpp):
// the row a hit's client id and pinned version stand for, and what that
// row pays on Windows for `localhost`, from the model `loopcheck check`'s
// "on Windows" column runs, so the two commands agree on every library.
#pragma once

#include "loopcheck/core/clients/algorithms.hpp"
#include "loopcheck/core/clients/table.hpp"

#include <string_view>

namespace loopcheck {

/// The row of `id` whose versions hold `version`; with no version, the row
/// of the newest versions (no upper bound). nullptr for an id the table
/// does not have ("rust").
const ClientModel* scan_client_row(std::string_view id, std::string_view version = {});

/// What `row` pays on Windows to connect to `localhost` (::1, then
/// 127.0.0.1) when the server listens on IPv4 (`v4`) and/or IPv6 (`v6`):
/// check's own projection (as_on_windows, predict) over two loopback
/// addresses, each accepting at once here or refusing (windows_fast_refusal
/// without SYN retries, the figure check assumes where no probe of it ran).
ConnectPrediction windows_localhost_cost(const ClientModel& row, bool v4, bool v6);

} // namespace loopcheck
