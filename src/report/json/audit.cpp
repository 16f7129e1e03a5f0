// `loopcheck audit` as JSON ("loopcheck-audit/1"):
// the check's own pieces for every port, plus the audit's grouping.
#include "loopcheck/report/json.hpp"
#include "report/json/pieces.hpp"
#include "report/json/writer.hpp"
#include "report/phrasing.hpp"

#include <cstdint>
#include <fmt/format.h>

namespace loopcheck {

std::string render_json(const AuditReport& r) {
    JsonWriter w;
    w.begin_object();
    w.key("schema").value("loopcheck-audit/1");
    w.key("loopcheck_version").value(r.check.loopcheck_version);
    w.key("command_line").value(r.check.command_line);
    w.key("system");
    json_system(w, r.check.system);
    w.key("settings").begin_object();
    w.key("timeout_ms").number(to_ms(r.check.timeout), 3);
    w.key("threshold_ms").number(to_ms(r.check.threshold), 3);
    w.end_object();
    w.key("listener_table");
    json_listener_table(w, r.check.listener_table);
    w.key("filtered").value(r.filtered);
    w.key("not_audited").value(static_cast<std::int64_t>(r.not_loopback));
    w.key("summary").value(r.summary);
    w.key("incomplete").value(r.check.incomplete);
    w.key("ports").begin_array();
    for (const auto& p : r.ports) {
        w.begin_object();
        w.key("port").value(static_cast<int>(p.port));
        w.key("exit_code").value(p.exit_code);
        w.key("listeners").begin_array();
        for (const auto& l : p.listeners)
            json_listener(w, l);
        w.end_array();
        w.key("findings").begin_array();
        for (const auto& f : p.findings) {
            w.begin_object();
            w.key("id").value(f.id);
            w.key("severity").value(severity_name(f.severity));
            w.key("message").value(phrasing::finding(f));
            w.key("address");
            f.address ? w.value(endpoint_string(*f.address)) : w.null();
            w.end_object();
        }
        w.end_array();
        w.key("localhost");
        json_target(w, r.check.targets[p.target]);
        w.end_object();
    }
    w.end_array();
    w.key("exit_code").value(r.exit_code);
    w.end_object();
    return w.str();
}

// --- Markdown. ------------------------------------------------------------

} // namespace loopcheck
