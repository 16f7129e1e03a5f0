// The staircase as a chart GitHub renders: a Mermaid xychart-beta block,
// one bar per retry limit. Shared by the staircase's Markdown report.
#pragma once

#include "loopcheck/core/measure/staircase.hpp"

#include <string>

namespace loopcheck {

/// A ```mermaid block charting the median refusal time (ms) at each limit
/// that measured something; empty when fewer than two limits did (a chart
/// of one bar says nothing the table does not).
std::string staircase_chart(const StaircaseAddress& a);

} // namespace loopcheck
