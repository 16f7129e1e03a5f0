// The terminal report's parts per target that check.cpp puts in order:
// the addresses (check_addresses.cpp) and what the clients pay
// (check_clients.cpp). Private to src/report/text/.
#pragma once

#include "loopcheck/core/report.hpp"
#include "report/text/writer.hpp"

namespace loopcheck::text {

/// The address table in resolver order (medians; -v every round's spread).
void address_table(Writer& w, const TargetReport& t, int full_count);
/// The hosts file's lines for the name and the resolution note (-v).
void resolution_lines(Writer& w, const Report& r, const Resolution& res);
/// The loopback addresses probed for curl's own localhost answer only.
void curl_localhost_lines(Writer& w, const TargetReport& t, int count);
/// Who listens on the target's port, where that is the clue.
void listener_lines(Writer& w, const TargetReport& t);
/// What the listener table could not show, or why there is none.
void listener_table_line(Writer& w, const ListenerTableStatus& s);

/// What the clients pay: folded by outcome, each cost in `fold_lines`
/// lines at most (0: every name), every row with -v.
void clients_lines(Writer& w, const TargetReport& t, std::size_t fold_lines);
/// --emulate's measured clients beside the model.
void emulation_table(Writer& w, const TargetReport& t);

} // namespace loopcheck::text
