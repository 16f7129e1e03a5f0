// The reports of `loopcheck wait`: text, JSON and Markdown show the same
// timeline, winners, time waited and findings (src/report/wait_report.cpp).
#pragma once

#include "loopcheck/core/wait.hpp"

#include <string>

namespace loopcheck {

std::string render_wait_text(const WaitReport& r);
std::string render_wait_json(const WaitReport& r);
std::string render_wait_markdown(const WaitReport& r);

} // namespace loopcheck
