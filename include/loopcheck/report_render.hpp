// The reporters: one Report value in, text out. They format and never
// compute: every number and sentence comes from the Report.
#pragma once

#include "loopcheck/report.hpp"

#include <string>

namespace loopcheck {

struct TextStyle {
    bool color = false;
    int width = 100; ///< columns to wrap prose at
};

std::string render_text(const Report& report, const TextStyle& style);
std::string render_json(const Report& report);
std::string render_markdown(const Report& report);

} // namespace loopcheck
