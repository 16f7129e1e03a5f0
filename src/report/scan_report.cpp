// The reporters of `loopcheck scan`: the one-line summary, the risky hits
// with where, who listens, the cost here and on Windows and the fix, the
// server binds, then counts (text: one screen unless -v), or every hit
// (JSON "loopcheck-scan/1", Markdown). Text, JSON and Markdown show the same.
#include "loopcheck/report/scan_report.hpp"

#include "loopcheck/core/scan_cost.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/report/json_writer.hpp"

#include <fmt/format.h>

namespace loopcheck {

namespace {

constexpr std::size_t default_risky_shown = 12;
constexpr std::size_t default_servers_shown = 5;

std::string paint(bool color, std::string_view text, int code) {
    return color ? fmt::format("\033[{}m{}\033[0m", code, text) : std::string(text);
}

/// path:line:col, or path cell N line L:col for a notebook (escaped).
std::string where(const ScanHit& h) {
    if (h.cell)
        return fmt::format("{} cell {} line {}:{}", h.path.escaped(), *h.cell, h.line, h.col);
    return fmt::format("{}:{}:{}", h.path.escaped(), h.line, h.col);
}

std::string target(const ScanHit& h) {
    const std::string host = h.ref.host == "::1" ? "[::1]" : h.ref.host;
    return h.ref.port ? fmt::format("{}:{}", host, h.ref.port) : host;
}

std::string who(const ScanHit& h) {
    if (h.kind == HitKind::client)
        return h.client_label.empty() ? std::string("client")
                                      : fmt::format("{} [{}]", h.client_label, h.client);
    if (h.kind == HitKind::config)
        return h.config_key.empty() ? std::string("config") : "config " + h.config_key;
    if (h.kind == HitKind::server)
        return "server " + h.server;
    return std::string(h.rule);
}

void text_details(std::string& out, const ScanHit& h, const TextStyle& style) {
    out += fmt::format("    {}\n", paint(style.color, h.text.escaped(), 2));
    out += fmt::format("    {}\n", h.reason);
    if (!h.pinned.empty())
        out += fmt::format("    pinned: {}\n", h.pinned);
    if (!h.consumer.empty())
        out += fmt::format("    read by: {}\n", h.consumer);
    if (!h.listens.empty())
        out += fmt::format("    listens: {}{}\n", h.listens, h.inferred ? " [inferred]" : "");
    if (!h.cost_windows.empty())
        out += fmt::format("    here: {}; on Windows: {}\n",
                           h.cost_here.empty() ? "not probed" : h.cost_here, h.cost_windows);
    if (!h.fix.empty())
        out += fmt::format("    fix: {}\n", h.fix);
}

void text_hit(std::string& out, const ScanHit& h, const TextStyle& style, bool details) {
    const std::string_view label = h.risky ? "RISKY" : hit_kind_name(h.kind);
    out += fmt::format("  {} {}  {}  {}\n",
                       paint(style.color, fmt::format("{:<8}", label), h.risky ? 31 : 1), where(h),
                       who(h), target(h));
    if (details)
        text_details(out, h, style);
}

std::string skips_line(const ScanResult& r) {
    const ScanSkips& s = r.skips;
    std::string out;
    auto add = [&](std::uint64_t n, std::string_view what) {
        if (n)
            out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n, what);
    };
    add(s.binary, "binary");
    add(s.too_large, "over the size cap");
    add(s.unreadable, "unreadable");
    add(s.not_regular, "not regular files");
    add(s.symlink_loop, "symlink loops");
    add(s.other_type, "of other types");
    std::string read_anyway;
    if (s.invalid_utf8)
        read_anyway += fmt::format("{} with invalid UTF-8", s.invalid_utf8);
    if (s.long_lines)
        read_anyway +=
            fmt::format("{}{} long lines", read_anyway.empty() ? "" : ", ", s.long_lines);
    std::string line = fmt::format("{} files listed, {} read ({} bytes)", r.files_listed,
                                   r.files_read, r.bytes_read);
    if (!out.empty())
        line += "; not read: " + out;
    if (!read_anyway.empty())
        line += "; read anyway: " + read_anyway;
    return line;
}

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
    w.end_object();
}

} // namespace

std::string render_scan_text(const ScanResult& r, const TextStyle& style, bool verbose) {
    std::string out = paint(style.color, scan_summary(r), r.exit_code == 0 ? 32 : 33) + "\n";
    if (!r.probe_note.empty())
        out += r.probe_note + "\n";
    std::size_t risky = 0, servers = 0, rest = 0;
    for (const ScanHit& h : r.hits) {
        const bool show = verbose || (h.risky && risky < default_risky_shown) ||
                          (h.kind == HitKind::server && servers < default_servers_shown);
        if (!show) {
            ++rest;
            continue;
        }
        if (risky + servers == 0 && !verbose)
            out += "\n";
        risky += h.risky ? 1 : 0;
        servers += h.kind == HitKind::server && !h.risky ? 1 : 0;
        text_hit(out, h, style,
                 h.risky || h.kind == HitKind::server || (verbose && h.kind != HitKind::harmless));
    }
    if (rest > 0)
        out += fmt::format("\n{} more hits not shown (-v shows every hit)\n", rest);
    out += '\n';
    out += skips_line(r);
    out += '\n';
    if (verbose)
        for (const Untrusted& name : r.skips.named)
            out += fmt::format("  skipped or caveated: {}\n", name.escaped());
    if (r.interrupted)
        out += "interrupted: the result so far\n";
    return out;
}

std::string render_scan_json(const ScanResult& r, std::string_view version) {
    JsonWriter w;
    w.begin_object();
    w.key("schema").value("loopcheck-scan/1");
    w.key("loopcheck_version").value(version);
    w.key("roots").begin_array();
    for (const auto& root : r.roots)
        w.value(Untrusted(root));
    w.end_array();
    w.key("summary").value(scan_summary(r));
    w.key("exit_code").value(r.exit_code);
    w.key("probed").value(r.probed);
    w.key("strict").value(r.strict);
    w.key("interrupted").value(r.interrupted);
    w.key("files").begin_object();
    w.key("listed").value(static_cast<std::int64_t>(r.files_listed));
    w.key("read").value(static_cast<std::int64_t>(r.files_read));
    w.key("bytes").value(static_cast<std::int64_t>(r.bytes_read));
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

std::string render_scan_markdown(const ScanResult& r) {
    std::string out = "## loopcheck scan\n\n" + escape_markdown(scan_summary(r)) + "\n\n";
    out += "| | where | who | target | on Windows | fix |\n|---|---|---|---|---|---|\n";
    std::size_t rows = 0;
    for (const ScanHit& h : r.hits) {
        if (h.kind == HitKind::harmless)
            continue;
        ++rows;
        out += fmt::format(
            "| {} | {} | {} | `{}` | {} | {} |\n", h.risky ? "**risky**" : hit_kind_name(h.kind),
            markdown_code(where(h), MarkdownPlace::table_cell), escape_markdown(who(h)), target(h),
            escape_markdown(h.cost_windows), escape_markdown(h.fix));
    }
    if (rows == 0)
        out += "| | no client, config or server hits | | | | |\n";
    out += '\n';
    out += escape_markdown(skips_line(r));
    out += '\n';
    return out;
}

} // namespace loopcheck
