// `loopcheck scan`'s version pins: the client libraries' versions from
// requirements*.txt, pyproject.toml, poetry.lock and package-lock.json, and
// what they change (aiohttp before 3.10 tries addresses one at a time).
#include "loopcheck/core/scan/pins.hpp"

#include "loopcheck/core/clients/table.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>

namespace loopcheck {

namespace {

// The libraries a client hit can name (scan_context.cpp's package_for and
// the import table), as package indexes spell them.
constexpr std::array<std::string_view, 11> known{"aiohttp",
                                                 "httpx",
                                                 "requests",
                                                 "openai",
                                                 "ollama",
                                                 "litellm",
                                                 "urllib3",
                                                 "langchain-ollama",
                                                 "langchain-community",
                                                 "axios",
                                                 "node-fetch"};

bool name_char(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
}

std::string_view file_name(std::string_view path) noexcept {
    const std::size_t slash = path.find_last_of("/\\");
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

/// The version right after `at` past quotes, '=', spaces, extras and range
/// operators ("==3.8.4", ">=1.2", " = \"^0.28\""); empty when none.
std::string version_after(std::string_view line, std::size_t at) {
    if (at < line.size() && line[at] == '[') {
        const std::size_t close = line.find(']', at);
        at = close == std::string_view::npos ? line.size() : close + 1;
    }
    while (at < line.size() &&
           std::string_view(" \t\"'=<>~^!:").find(line[at]) != std::string_view::npos)
        ++at;
    std::size_t end = at;
    while (end < line.size() &&
           (std::isdigit(static_cast<unsigned char>(line[end])) || line[end] == '.'))
        ++end;
    if (end == at || !std::isdigit(static_cast<unsigned char>(line[at])))
        return {};
    return std::string(line.substr(at, end - at));
}

void add_pin(std::vector<ScanPin>& out, std::string_view package, std::string version,
             std::string_view path) {
    if (version.empty())
        return;
    const bool npm = file_name(path) == "package-lock.json";
    const bool seen = std::any_of(out.begin(), out.end(), [&](const ScanPin& p) {
        return p.package == package && p.npm == npm;
    });
    if (!seen)
        out.push_back({std::string(package), std::move(version), std::string(path),
                       file_name(path) == "package-lock.json"});
}

/// A known package named at `i` as a whole name (not "aiohttp-retry").
std::string_view known_at(std::string_view line, std::size_t i) noexcept {
    for (std::string_view k : known) {
        if (line.substr(i, k.size()) != k)
            continue;
        const std::size_t end = i + k.size();
        const bool whole = (i == 0 || !name_char(line[i - 1])) &&
                           (end >= line.size() || !name_char(line[end]) || line[end] == '.');
        if (whole)
            return k;
    }
    return {};
}

} // namespace

bool is_pin_file(std::string_view path) noexcept {
    const std::string_view name = file_name(path);
    return (name.starts_with("requirements") && name.ends_with(".txt")) ||
           name == "pyproject.toml" || name == "poetry.lock" || name == "package-lock.json";
}

void read_pins(std::string_view path, std::string_view content, std::vector<ScanPin>& out) {
    std::string_view pending; // poetry.lock's name = "x", package-lock's "node_modules/x"
    while (!content.empty()) {
        const std::size_t nl = content.find('\n');
        const std::string_view line = content.substr(0, nl);
        content = nl == std::string_view::npos ? std::string_view() : content.substr(nl + 1);
        if (line.starts_with("#"))
            continue;
        const std::size_t version_key = line.find("version");
        if (!pending.empty() && version_key != std::string_view::npos) {
            add_pin(out, pending, version_after(line, version_key + 7), path);
            pending = {};
            continue;
        }
        for (std::size_t i = 0; i < line.size(); ++i) {
            const std::string_view k = known_at(line, i);
            if (k.empty())
                continue;
            const bool names_only = line.find("name = ") != std::string_view::npos ||
                                    line.find("\"node_modules/") != std::string_view::npos;
            if (names_only) {
                pending = k;
                break;
            }
            add_pin(out, k, version_after(line, i + k.size()), path);
            i += k.size() - 1;
        }
    }
}

void apply_pins(std::vector<ScanHit>& hits, const std::vector<ScanPin>& pins) {
    for (ScanHit& h : hits) {
        if (h.kind != HitKind::client || h.package.empty())
            continue;
        const bool npm = h.lang == Lang::javascript;
        auto pin = std::find_if(pins.begin(), pins.end(), [&](const ScanPin& p) {
            return p.package == h.package && p.npm == npm;
        });
        if (pin == pins.end())
            continue;
        h.pinned = fmt::format("{} {} ({})", pin->package, pin->version, pin->path.escaped());
        // aiohttp's version picks its row: no aiohappyeyeballs before 3.10,
        // one address at a time.
        if (h.package == "aiohttp" && h.client == "python-aiohttp") {
            h.client_version = pin->version;
            if (version_less(pin->version, "3.10"))
                h.client_label = "aiohttp < 3.10 (no Happy Eyeballs)";
        }
    }
}

} // namespace loopcheck
