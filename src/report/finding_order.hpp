// The findings in the order every report lists them: most severe first
// (error, warning, ok, info), the diagnosis's order kept within a severity.
#pragma once

#include "loopcheck/core/diagnose/diagnose.hpp"

#include <vector>

namespace loopcheck {

std::vector<const Finding*> by_severity(const std::vector<Finding>& findings);

} // namespace loopcheck
