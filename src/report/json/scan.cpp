// `loopcheck scan` as JSON ("loopcheck-scan/1", docs/scan.schema.json): every hit.
#include "loopcheck/core/scan/cost.hpp"
#include "loopcheck/core/scan/gate.hpp"
#include "loopcheck/report/json.hpp"
#include "report/json/writer.hpp"

#include <cstdint>
#include <fmt/format.h>

namespace loopcheck {

namespace {

void write_hit(JsonWriter& w, const ScanHit& h) {
    w.begin_object();
    w.key("path").value(h.path).key("line").value(static_cast<std::int64_t>(h.line));
    w.key("col").value(static_cast<std::int64_t>(h.col));
    if (h.cell)
        w.key("cell").value(static_cast<std::int64_t>(*h.cell));
    w.key("lang").value(lang_name(h.lang)).key("kind").value(hit_kind_name(h.kind));
    w.key("risky").value(h.risky).key("rule").value(h.rule).key("reason").value(h.reason);
    w.key("client");
    h.client.empty() ? w.null() : w.value(h.client);
    w.key("client_label").value(h.client_label);
    w.key("host").value(h.ref.host).key("port");
    h.ref.port ? w.value(h.ref.port) : w.null();
    w.key("url").value(h.ref.url);
    w.key("server").value(h.server).key("config_key").value(h.config_key);
    w.key("consumer").value(h.consumer);
    w.key("pinned").value(h.pinned);
    w.key("text").value(h.text).key("listens").value(h.listens);
    w.key("inferred").value(h.inferred).key("cost_here").value(h.cost_here);
    w.key("cost_windows").value(h.cost_windows).key("fix").value(h.fix);
    w.key("windows_ms");
    h.windows_ms ? w.number(*h.windows_ms, 3) : w.null();
    w.key("fails").value(h.fails);
    w.key("gate").value(h.gate == HitGate::open ? "open" : hit_gate_name(h.gate));
    w.key("fingerprint").value(h.fingerprint);
    w.end_object();
}

} // namespace

std::string render_json(const ScanResult& r) {
    JsonWriter w;
    w.begin_object();
    w.key("schema").value("loopcheck-scan/1");
    w.key("loopcheck_version").value(r.loopcheck_version);
    w.key("roots").begin_array();
    for (const auto& root : r.roots)
        w.value(Untrusted(root));
    w.end_array();
    w.key("summary").value(scan_summary(r));
    w.key("exit_code").value(r.exit_code);
    w.key("probed").value(r.probed);
    w.key("strict").value(r.strict);
    w.key("interrupted").value(r.interrupted);
    w.key("exit_zero").value(r.exit_zero);
    w.key("config");
    r.config_path.empty() ? w.null() : w.value(Untrusted(r.config_path));
    w.key("since");
    r.since.empty() ? w.null() : w.value(Untrusted(r.since));
    w.key("files").begin_object();
    w.key("listed").value(static_cast<std::int64_t>(r.files_listed));
    w.key("read").value(static_cast<std::int64_t>(r.files_read));
    w.key("bytes").value(static_cast<std::int64_t>(r.bytes_read));
    w.key("excluded").value(static_cast<std::int64_t>(r.files_excluded));
    const ScanSkips& s = r.skips;
    for (auto [name, n] : {std::pair{"binary", s.binary},
                           {"too_large", s.too_large},
                           {"unreadable", s.unreadable},
                           {"not_regular", s.not_regular},
                           {"symlink_loop", s.symlink_loop},
                           {"other_type", s.other_type},
                           {"invalid_utf8", s.invalid_utf8},
                           {"long_lines", s.long_lines}})
        w.key(name).value(static_cast<std::int64_t>(n));
    w.end_object();
    w.key("endpoints").begin_array();
    for (const ScanEndpoint& e : r.endpoints) {
        w.begin_object();
        w.key("host").value(e.host).key("port").value(e.port);
        w.key("probed").value(e.probed).key("accepted_here").value(e.accepted_here);
        w.key("ipv4").value(e.v4).key("ipv6").value(e.v6).key("inferred").value(e.inferred);
        w.key("server").value(e.server).key("server_fix").value(e.server_fix);
        w.end_object();
    }
    w.end_array();
    w.key("hits").begin_array();
    for (const ScanHit& h : r.hits)
        write_hit(w, h);
    w.end_array();
    w.end_object();
    return w.str();
}

} // namespace loopcheck
