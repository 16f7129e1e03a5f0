// Parts of the check's JSON report that other JSON documents embed with the
// same schema (audit, wait): a "targets" entry, a listener, the "system"
// object and the "listener_table" object (src/report/json/check.cpp).
#pragma once

#include "loopcheck/core/report.hpp"

namespace loopcheck {

class JsonWriter;

void json_target(JsonWriter& w, const TargetReport& t);
void json_listener(JsonWriter& w, const Listener& l);
void json_system(JsonWriter& w, const SystemFacts& s);
void json_listener_table(JsonWriter& w, const ListenerTableStatus& s);

} // namespace loopcheck
