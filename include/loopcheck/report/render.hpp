// The reporters: one Report value in, text out. They format and never
// compute: every number and sentence comes from the Report.
#pragma once

#include "loopcheck/core/report.hpp"

#include <string>

namespace loopcheck {

struct TextStyle {
    bool color = false;
    int width = 100; ///< columns to wrap prose at
};

class JsonWriter;

std::string render_text(const Report& report, const TextStyle& style);
std::string render_json(const Report& report);
std::string render_markdown(const Report& report);

/// Parts of the JSON report that other JSON documents embed with the same
/// schema (loopcheck audit): a "targets" entry, a listener, the "system"
/// object and the "listener_table" object.
void json_target(JsonWriter& w, const TargetReport& t);
void json_listener(JsonWriter& w, const Listener& l);
void json_system(JsonWriter& w, const SystemFacts& s);
void json_listener_table(JsonWriter& w, const ListenerTableStatus& s);

} // namespace loopcheck
