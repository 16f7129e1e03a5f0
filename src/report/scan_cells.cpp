// `loopcheck scan`'s cells, shared by its text and Markdown.
#include "report/scan_cells.hpp"

#include "loopcheck/core/scan/cost.hpp"
#include "loopcheck/core/text/untrusted.hpp"

#include <cstdint>
#include <fmt/format.h>

namespace loopcheck {

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

} // namespace loopcheck
