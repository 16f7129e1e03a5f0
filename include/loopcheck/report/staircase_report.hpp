// The staircase report's two renderings (src/report/staircase_report.cpp).
// Like the main reporters they format the report and compute nothing.
#pragma once

#include "loopcheck/core/staircase.hpp"

#include <string>

namespace loopcheck {

std::string render_staircase_text(const StaircaseReport& report);
/// "schema": "loopcheck-staircase/1"; durations in milliseconds.
std::string render_staircase_json(const StaircaseReport& report);

} // namespace loopcheck
