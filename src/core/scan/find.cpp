// `loopcheck scan`: the language of a file from its name, and the loopback
// references in one line (URLs, host:port pairs, quoted or assigned hosts).
#include "loopcheck/core/scan/scan.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

namespace loopcheck {

namespace {

constexpr std::array<std::string_view, 5> needles = {"localhost", "127.", "::1", "0.0.0.0",
                                                     "host.docker.internal"};

bool is_alnum(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}
bool is_hex(char c) noexcept {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool name_char(char c) noexcept {
    return is_alnum(c) || c == '_' || c == '-';
}

bool ends_with_ci(std::string_view s, std::string_view suffix) noexcept {
    if (s.size() < suffix.size())
        return false;
    for (std::size_t i = 0; i < suffix.size(); ++i) {
        char a = s[s.size() - suffix.size() + i];
        if (a >= 'A' && a <= 'Z')
            a = static_cast<char>(a - 'A' + 'a');
        if (a != suffix[i])
            return false;
    }
    return true;
}

/// The end of a dotted quad 127.a.b.c starting at `i`, or 0 when there is none.
std::size_t dotted_quad_end(std::string_view s, std::size_t i) noexcept {
    std::size_t p = i;
    for (int part = 0; part < 4; ++part) {
        std::size_t digits = 0;
        while (p < s.size() && is_digit(s[p]) && digits < 4) {
            ++p;
            ++digits;
        }
        if (digits == 0 || digits > 3)
            return 0;
        if (part < 3) {
            if (p >= s.size() || s[p] != '.')
                return 0;
            ++p;
        }
    }
    if (p < s.size() && (is_digit(s[p]) || (s[p] == '.' && p + 1 < s.size() && is_digit(s[p + 1]))))
        return 0;
    return p;
}

/// The host at `i` (one of the needles), as [begin, end) and its normal
/// form; nullopt when the needle is part of a longer word or number.
struct HostSpan {
    std::size_t begin = 0, end = 0;
    std::string host;
};

std::optional<HostSpan> host_at(std::string_view s, std::size_t i, std::string_view needle) {
    const char before = i > 0 ? s[i - 1] : ' ';
    if (needle == "127." || needle == "0.0.0.0") {
        if (is_digit(before) || before == '.')
            return std::nullopt;
        const std::size_t end = dotted_quad_end(s, i);
        if (end == 0)
            return std::nullopt;
        std::string host(s.substr(i, end - i));
        if (needle == "0.0.0.0" && host != "0.0.0.0")
            return std::nullopt;
        return HostSpan{i, end, std::move(host)};
    }
    if (needle == "::1") {
        const std::size_t end = i + 3;
        if (is_hex(before) || before == ':' ||
            (end < s.size() && (is_hex(s[end]) || s[end] == ':')))
            return std::nullopt;
        if (before == '[' && end < s.size() && s[end] == ']')
            return HostSpan{i - 1, end + 1, "::1"};
        return HostSpan{i, end, "::1"};
    }
    const std::size_t end = i + needle.size();
    if (name_char(before) || before == '.')
        return std::nullopt;
    if (end < s.size() &&
        (name_char(s[end]) || (s[end] == '.' && end + 1 < s.size() && is_alnum(s[end + 1]))))
        return std::nullopt;
    return HostSpan{i, end, std::string(needle)};
}

std::uint16_t scheme_port(std::string_view scheme) noexcept {
    static constexpr std::array<std::pair<std::string_view, std::uint16_t>, 10> ports{{
        {"http", 80},
        {"ws", 80},
        {"https", 443},
        {"wss", 443},
        {"redis", 6379},
        {"postgres", 5432},
        {"postgresql", 5432},
        {"mysql", 3306},
        {"mongodb", 27017},
        {"amqp", 5672},
    }};
    for (const auto& [name, port] : ports)
        if (ends_with_ci(scheme, name) && scheme.size() == name.size())
            return port;
    return 0;
}

/// Looks left of the host for "scheme://" (past a user@ part) or a bare
/// '@' (an e-mail address); sets the reference's start, url and email.
void read_left(std::string_view s, LoopbackRef& ref) {
    std::size_t k = ref.col;
    if (k > 0 && s[k - 1] == '@') {
        std::size_t u = k - 1;
        while (u > 0 && s[u - 1] != '/' && s[u - 1] != ' ' && s[u - 1] != '"' && s[u - 1] != '\'' &&
               s[u - 1] != '<' && s[u - 1] != '(' && s[u - 1] != '=' && s[u - 1] != '\t')
            --u;
        if (u < 3 || s.substr(u - 3, 3) != "://") {
            ref.email = true;
            ref.col = u;
            return;
        }
        k = u;
    }
    if (k >= 3 && s.substr(k - 3, 3) == "://") {
        std::size_t b = k - 3;
        while (b > 0 &&
               (is_alnum(s[b - 1]) || s[b - 1] == '+' || s[b - 1] == '.' || s[b - 1] == '-'))
            --b;
        if (b < k - 3) {
            ref.url = true;
            ref.port = scheme_port(s.substr(b, k - 3 - b));
            ref.port_from_scheme = ref.port != 0;
            ref.col = b;
        }
    }
}

/// Reads ":PORT" right after the host, when there is one.
std::size_t read_port(std::string_view s, std::size_t end, const HostSpan& h, LoopbackRef& ref) {
    if (h.host == "::1" && s[h.begin] != '[')
        return end; // a bare ::1 followed by ':' is not a port
    if (end + 1 < s.size() && s[end] == ':' && (s[end + 1] == '{' || s[end + 1] == '$')) {
        ref.port = 0; // a placeholder (f-string, template literal, ${PORT}): not known here
        ref.port_from_scheme = false;
        return end;
    }
    if (end + 1 >= s.size() || s[end] != ':' || !is_digit(s[end + 1]))
        return end;
    std::size_t p = end + 1;
    unsigned value = 0;
    while (p < s.size() && is_digit(s[p]) && value <= 65535) {
        value = value * 10 + static_cast<unsigned>(s[p] - '0');
        ++p;
    }
    if (value == 0 || value > 65535 || (p < s.size() && is_digit(s[p])))
        return end;
    ref.port = static_cast<std::uint16_t>(value);
    ref.port_from_scheme = false;
    return p;
}

/// A host with no port, scheme or quotes counts only where it is a value:
/// after '=' or ':' or a bind option (--host, --bind, -b, -H).
bool bare_host_is_a_value(std::string_view s, std::size_t col) {
    std::size_t k = col;
    while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t'))
        --k;
    if (k == 0)
        return false;
    if (s[k - 1] == '=' || s[k - 1] == ':')
        return true;
    const std::string_view left = s.substr(0, k);
    for (std::string_view opt : {"--host", "--bind", " -b", " -H", "--address", "--listen", "--ip"})
        if (left.ends_with(opt))
            return true;
    return false;
}

struct LangByName {
    std::string_view suffix;
    Lang lang;
};

// Matched against the file name's end, lower-cased; the first match wins,
// so whole names and longer suffixes come first.
constexpr std::array<LangByName, 51> lang_by_name{{
    {"dockerfile", Lang::dockerfile},
    {".dockerfile", Lang::dockerfile},
    {"docker-compose.yml", Lang::compose},
    {"docker-compose.yaml", Lang::compose},
    {"compose.yml", Lang::compose},
    {"compose.yaml", Lang::compose},
    {".env", Lang::dotenv},
    {".env.example", Lang::dotenv},
    {".env.sample", Lang::dotenv},
    {".env.local", Lang::dotenv},
    {".env.template", Lang::dotenv},
    {".py", Lang::python},
    {".pyi", Lang::python},
    {".js", Lang::javascript},
    {".mjs", Lang::javascript},
    {".cjs", Lang::javascript},
    {".jsx", Lang::javascript},
    {".ts", Lang::javascript},
    {".tsx", Lang::javascript},
    {".mts", Lang::javascript},
    {".vue", Lang::javascript},
    {".svelte", Lang::javascript},
    {".go", Lang::go},
    {".java", Lang::java},
    {".kt", Lang::java},
    {".kts", Lang::java},
    {".cs", Lang::csharp},
    {".rb", Lang::ruby},
    {".php", Lang::php},
    {".rs", Lang::rust},
    {".sh", Lang::shell},
    {".bash", Lang::shell},
    {".zsh", Lang::shell},
    {".ps1", Lang::powershell},
    {".psm1", Lang::powershell},
    {".ini", Lang::ini},
    {".cfg", Lang::ini},
    {".conf", Lang::ini},
    {".toml", Lang::toml},
    {".yml", Lang::yaml},
    {".yaml", Lang::yaml},
    {".json", Lang::json},
    {".properties", Lang::properties},
    {".md", Lang::markdown},
    {".mdx", Lang::markdown},
    // HTML pages are read as prose: a link is for a person; a script's
    // fetch is a browser's.
    {".html", Lang::markdown},
    {".htm", Lang::markdown},
    // Windows batch files: their curl is Windows' curl, their `set` a value.
    {".bat", Lang::powershell},
    {".cmd", Lang::powershell},
    {".markdown", Lang::markdown},
    {".ipynb", Lang::notebook},
}};

} // namespace

Lang language_of(std::string_view path) noexcept {
    const std::size_t slash = path.find_last_of("/\\");
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    for (const auto& [suffix, lang] : lang_by_name) {
        if (!ends_with_ci(name, suffix))
            continue;
        // A whole-name entry ("dockerfile", "compose.yml") matches the whole
        // name or a suffix after a dot or dash ("api.Dockerfile",
        // "docker-compose.dev.yml" does not: it is plain YAML).
        if (suffix.front() != '.' && name.size() != suffix.size() &&
            name[name.size() - suffix.size() - 1] != '.' &&
            name[name.size() - suffix.size() - 1] != '-')
            continue;
        return lang;
    }
    if (name.starts_with(".env") || name.starts_with("env.example") ||
        name.starts_with("env.sample") || name.starts_with("env.template"))
        return Lang::dotenv;
    // Dockerfile.backend, Dockerfile.dev: a Dockerfile by another name.
    if (name.size() > 11 && ends_with_ci(name.substr(0, 11), "dockerfile."))
        return Lang::dockerfile;
    // config.yaml.example, settings.toml.sample: the file it stands for.
    for (std::string_view tail : {".example", ".sample", ".template", ".dist"})
        if (name.size() > tail.size() && ends_with_ci(name, tail))
            return language_of(name.substr(0, name.size() - tail.size()));
    // A Makefile's recipes are shell commands.
    if (name == "Makefile" || name == "makefile" || name == "GNUmakefile" ||
        ends_with_ci(name, ".mk"))
        return Lang::shell;
    return Lang::other;
}

std::string_view lang_name(Lang lang) noexcept {
    static constexpr std::array<std::string_view, 21> names{
        "python", "javascript", "go",         "java",    "csharp",   "ruby",     "php",
        "rust",   "shell",      "powershell", "dotenv",  "ini",      "toml",     "yaml",
        "json",   "properties", "dockerfile", "compose", "markdown", "notebook", "other"};
    return names[static_cast<std::size_t>(lang)];
}

std::string_view hit_kind_name(HitKind kind) noexcept {
    switch (kind) {
    case HitKind::client:
        return "client";
    case HitKind::config:
        return "config";
    case HitKind::server:
        return "server";
    case HitKind::harmless:
        return "harmless";
    }
    return "harmless";
}

bool may_mention_loopback(std::string_view text) noexcept {
    for (std::string_view n : needles)
        if (text.find(n) != std::string_view::npos)
            return true;
    return false;
}

std::vector<LoopbackRef> find_loopback_refs(std::string_view s) {
    std::vector<LoopbackRef> out;
    for (std::string_view needle : needles) {
        for (std::size_t i = s.find(needle); i != std::string_view::npos;
             i = s.find(needle, i + 1)) {
            auto h = host_at(s, i, needle);
            if (!h)
                continue;
            LoopbackRef ref;
            ref.host = h->host;
            ref.col = h->begin;
            read_left(s, ref);
            const std::size_t end = read_port(s, h->end, *h, ref);
            ref.length = end - ref.col;
            const char before = h->begin > 0 ? s[h->begin - 1] : ' ';
            const char after = end < s.size() ? s[end] : ' ';
            ref.quoted_alone = !ref.url && !ref.email && ref.port == 0 &&
                               (before == '"' || before == '\'' || before == '`') &&
                               after == before;
            if (!ref.url && !ref.email && ref.port == 0 && !ref.quoted_alone &&
                !bare_host_is_a_value(s, h->begin))
                continue;
            out.push_back(std::move(ref));
        }
    }
    std::sort(out.begin(), out.end(),
              [](const LoopbackRef& a, const LoopbackRef& b) { return a.col < b.col; });
    return out;
}

} // namespace loopcheck
