// One client row by id and version range, for the client-table tests (core
// only, Catch2's FAIL when the row is missing).
#pragma once

#include "loopcheck/core/clients/impact.hpp"
#include "support/catch.hpp"

#include <string>
#include <vector>

namespace loopcheck::test {

/// The row for `id` whose range starts at `min` ("" for an id with one row).
inline const ClientImpact& row(const std::vector<ClientImpact>& all, const std::string& id,
                               const std::string& min = "") {
    for (const auto& c : all)
        if (c.id == id && c.min_version.value_or("") == min)
            return c;
    FAIL("no row " << id << " min " << min);
    return all.front();
}

} // namespace loopcheck::test
