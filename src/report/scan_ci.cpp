// `loopcheck scan` for CI and editors: SARIF 2.1.0, GitHub Actions
// annotations and one line per hit (docs/scan.md#formats). Views of the
// result value: the hits' facts (rule, place, risky, gate, cost) decide.
#include "loopcheck/report/scan_ci.hpp"

#include "loopcheck/core/scan/cost.hpp"
#include "loopcheck/core/scan/gate.hpp"
#include "report/json/writer.hpp"
#include "report/scan_cells.hpp"

#include <cstdint>
#include <fmt/format.h>
#include <map>
#include <vector>

#ifndef LOOPCHECK_HOMEPAGE
#define LOOPCHECK_HOMEPAGE "https://example.invalid/loopcheck"
#endif

namespace loopcheck {

namespace {

/// Where docs/scan.md lives for a reader of a SARIF file (the project's URL).
constexpr std::string_view scan_doc = LOOPCHECK_HOMEPAGE "/blob/main/docs/scan.md";

/// A hit the gate would fail on if nothing held it back: a risky client, or
/// a risky config value with --strict.
bool failing_kind(const ScanHit& h, const ScanResult& r) {
    return h.kind == HitKind::client || (r.strict && h.kind == HitKind::config);
}

/// One sentence a person reads in an annotation or an alert.
std::string message_of(const ScanHit& h) {
    std::string m = fmt::format("{} {}: on Windows: {}", who(h), target(h), h.cost_windows);
    if (!h.fix.empty())
        m += fmt::format(". Fix: {}", h.fix);
    return m;
}

/// A relative URI reference for a '/'-separated path: every byte outside
/// RFC 3986's unreserved set and '/' percent-encoded.
std::string uri_of(std::string_view path) {
    std::string out;
    for (unsigned char c : path) {
        const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                           (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~' ||
                           c == '/';
        out += plain ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
    }
    return out;
}

void write_rule(JsonWriter& w, const ScanHit& h) {
    const std::string help =
        fmt::format("{} A hit is reported when a Windows client pays ~2 s per new connection "
                    "or fails to reach a server that listens on one loopback family only. "
                    "Suppress one line with a `loopcheck: ignore[{}]` comment.",
                    h.reason, h.rule);
    w.begin_object();
    w.key("id").value(h.rule).key("name").value(h.rule);
    w.key("shortDescription").begin_object().key("text").value(h.reason).end_object();
    w.key("fullDescription").begin_object().key("text").value(help).end_object();
    w.key("help").begin_object().key("text").value(help).key("markdown").value(help).end_object();
    w.key("helpUri").value(fmt::format("{}#the-rules", scan_doc));
    w.key("defaultConfiguration").begin_object().key("level").value("error").end_object();
    w.end_object();
}

void write_result(JsonWriter& w, const ScanHit& h, std::size_t rule_index, const ScanResult& r) {
    w.begin_object();
    w.key("ruleId").value(h.rule).key("ruleIndex").value(static_cast<std::int64_t>(rule_index));
    w.key("level").value(failing_kind(h, r) ? "error" : "warning");
    std::string text = message_of(h);
    if (h.cell)
        text = fmt::format("Notebook cell {}, line {}: {}", *h.cell, h.line, text);
    w.key("message").begin_object().key("text").value(text).end_object();
    w.key("locations").begin_array().begin_object();
    w.key("physicalLocation").begin_object();
    w.key("artifactLocation").begin_object();
    w.key("uri").value(uri_of(h.repo_path)).key("uriBaseId").value("%SRCROOT%");
    w.end_object();
    // A notebook hit's line is in its cell, not the file: the file's first
    // line stands for it, and the message names the cell.
    w.key("region").begin_object();
    w.key("startLine").value(static_cast<std::int64_t>(h.cell ? 1 : h.line));
    if (!h.cell)
        w.key("startColumn").value(static_cast<std::int64_t>(h.col));
    w.key("snippet").begin_object().key("text").value(h.text).end_object();
    w.end_object();
    w.end_object();
    w.end_object().end_array();
    w.key("partialFingerprints").begin_object();
    w.key("loopcheckHit/v1").value(h.fingerprint);
    w.end_object();
    if (h.gate == HitGate::suppressed || h.gate == HitGate::rule_off ||
        h.gate == HitGate::baselined) {
        w.key("suppressions").begin_array().begin_object();
        w.key("kind").value(h.gate == HitGate::suppressed ? "inSource" : "external");
        w.key("justification")
            .value(h.gate == HitGate::suppressed ? "a loopcheck: ignore comment"
                   : h.gate == HitGate::rule_off ? "the rule is off in .loopcheck.json"
                                                 : "in the baseline");
        w.end_object().end_array();
    }
    if (h.gate == HitGate::baselined)
        w.key("baselineState").value("unchanged");
    w.key("properties").begin_object();
    w.key("kind").value(hit_kind_name(h.kind));
    w.key("gate").value(h.gate == HitGate::open ? "open" : hit_gate_name(h.gate));
    w.key("fails").value(h.fails);
    w.key("windows_ms");
    h.windows_ms ? w.number(*h.windows_ms, 3) : w.null();
    w.end_object();
    w.end_object();
}

/// Risky hits the gate leaves open, in the report's order.
std::vector<const ScanHit*> open_risky(const ScanResult& r) {
    std::vector<const ScanHit*> out;
    for (const ScanHit& h : r.hits)
        if (h.risky && h.gate == HitGate::open)
            out.push_back(&h);
    return out;
}

} // namespace

std::string render_sarif(const ScanResult& r) {
    std::vector<const ScanHit*> results;
    std::map<std::string_view, std::size_t> rule_index;
    std::vector<const ScanHit*> rules; // the first hit of each rule speaks for it
    for (const ScanHit& h : r.hits) {
        if (!h.risky)
            continue;
        results.push_back(&h);
        if (rule_index.emplace(h.rule, rules.size()).second)
            rules.push_back(&h);
    }
    JsonWriter w;
    w.begin_object();
    w.key("$schema").value("https://json.schemastore.org/sarif-2.1.0.json");
    w.key("version").value("2.1.0");
    w.key("runs").begin_array().begin_object();
    w.key("tool").begin_object().key("driver").begin_object();
    w.key("name").value("loopcheck");
    w.key("version").value(r.loopcheck_version);
    w.key("semanticVersion").value(r.loopcheck_version);
    w.key("informationUri").value(scan_doc);
    w.key("rules").begin_array();
    for (const ScanHit* h : rules)
        write_rule(w, *h);
    w.end_array();
    w.end_object().end_object();
    w.key("invocations").begin_array().begin_object();
    w.key("executionSuccessful").value(!r.interrupted);
    w.key("exitCode").value(r.exit_code);
    w.end_object().end_array();
    w.key("results").begin_array();
    for (const ScanHit* h : results)
        write_result(w, *h, rule_index[h->rule], r);
    w.end_array();
    w.key("properties").begin_object();
    w.key("summary").value(scan_summary(r));
    w.end_object();
    w.end_object().end_array();
    w.end_object();
    return w.str();
}

std::string github_escape_data(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '%')
            out += "%25";
        else if (c == '\r')
            out += "%0D";
        else if (c == '\n')
            out += "%0A";
        else
            out += c;
    }
    return out;
}

std::string github_escape_property(std::string_view text) {
    std::string out;
    for (char c : github_escape_data(text)) {
        if (c == ':')
            out += "%3A";
        else if (c == ',')
            out += "%2C";
        else
            out += c;
    }
    return out;
}

std::string render_github(const ScanResult& r) {
    std::string out;
    for (const ScanHit* h : open_risky(r)) {
        const std::string title = fmt::format("loopcheck {}: {}", h->rule, target(*h));
        std::string message = message_of(*h);
        if (h->cell)
            message = fmt::format("notebook cell {}, line {}: {}", *h->cell, h->line, message);
        out += fmt::format(
            "::{} file={},line={},col={},title={}::{}\n", failing_kind(*h, r) ? "error" : "warning",
            github_escape_property(h->path.escaped()), h->cell ? 1 : h->line, h->cell ? 1 : h->col,
            github_escape_property(title), github_escape_data(message));
    }
    // A plain line, never a command: the summary and what the gate held back.
    const std::string held = gate_summary(r);
    out += fmt::format("loopcheck scan: {}{}\n", github_escape_data(scan_summary(r)),
                       held.empty() ? "" : fmt::format(" ({} not failing the gate)", held));
    return out;
}

std::string render_short(const ScanResult& r) {
    std::string out;
    for (const ScanHit* h : open_risky(r))
        out += fmt::format("{}:{}:{}: {} {}{}\n", h->path.escaped(), h->line, h->col, h->rule,
                           escape_controls(message_of(*h)),
                           h->cell ? fmt::format(" (notebook cell {})", *h->cell) : "");
    return out;
}

} // namespace loopcheck
