// Which runtime a traced process is (trace_runtime.hpp): names first, then
// a few bounded reads of the executable through the run layer's reader.
#include "loopcheck/core/trace/runtime.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <optional>

namespace loopcheck {

namespace {

std::string_view base_name(std::string_view path) {
    const auto slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view dir_name(std::string_view path) {
    const auto slash = path.rfind('/');
    return slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
}

bool digit(char c) {
    return c >= '0' && c <= '9';
}

/// The longest run of digits and dots at the start of `s` that is a
/// version ("3.11.7"; not "3." nor "."): empty when there is none.
std::string_view leading_version(std::string_view s) {
    std::size_t n = 0;
    while (n < s.size() && (digit(s[n]) || s[n] == '.'))
        ++n;
    while (n > 0 && s[n - 1] == '.')
        --n;
    if (n == 0 || !digit(s[0]))
        return {};
    return s.substr(0, n);
}

/// `name` is `stem` followed by nothing or a version ("python3.11" for
/// stem "python"); the version (possibly empty) or nullopt.
std::optional<std::string_view> stem_version(std::string_view name, std::string_view stem) {
    if (!name.starts_with(stem))
        return std::nullopt;
    std::string_view rest = name.substr(stem.size());
    if (rest.empty())
        return rest;
    const auto v = leading_version(rest);
    // python3.11d, python3.11-dbg: a build flavour after the version.
    if (v.empty() ||
        (v.size() < rest.size() && std::isalnum(static_cast<unsigned char>(rest[v.size()])) &&
         rest[v.size()] != 'd'))
        return std::nullopt;
    return v;
}

/// A path component that is a version starting with `prefix` ("3.11"
/// finds pyenv's /versions/3.11.7/; "" any version; a leading "v" as
/// nvm writes it is dropped).
std::string_view path_version(std::string_view path, std::string_view prefix) {
    std::string_view best;
    for (std::size_t at = 0; at < path.size();) {
        auto end = path.find('/', at);
        if (end == std::string_view::npos)
            end = path.size();
        std::string_view part = path.substr(at, end - at);
        if (part.starts_with('v'))
            part.remove_prefix(1);
        const auto v = leading_version(part);
        if (!v.empty() && v.size() == part.size() && v.find('.') != std::string_view::npos &&
            v.starts_with(prefix) &&
            (v.size() == prefix.size() || prefix.empty() || v[prefix.size()] == '.'))
            best = v;
        at = end + 1;
    }
    return best;
}

std::uint64_t little(std::string_view bytes, std::size_t at, std::size_t width) {
    std::uint64_t v = 0;
    if (at + width > bytes.size())
        return 0;
    for (std::size_t i = 0; i < width; ++i)
        v |= std::uint64_t{static_cast<unsigned char>(bytes[at + i])} << (8 * i);
    return v;
}

/// The first `needle` in the file's bytes [from, from + size), read in
/// pieces that overlap by the needle's length, and the version after it.
std::string version_after(const FileReader& read, std::string_view path, std::uint64_t from,
                          std::uint64_t size, std::string_view needle) {
    constexpr std::size_t piece = 4u << 20;
    size = std::min(size, max_runtime_read_bytes);
    for (std::uint64_t at = from; at < from + size; at += piece - 32) {
        const auto length =
            static_cast<std::size_t>(std::min<std::uint64_t>(piece, from + size - at));
        const std::string bytes = read(path, at, length);
        for (std::size_t hit = bytes.find(needle); hit != std::string::npos;
             hit = bytes.find(needle, hit + 1)) {
            const auto v = leading_version(std::string_view(bytes).substr(hit + needle.size()));
            // A cut at the piece's end: the next piece starts 32 bytes back.
            if (!v.empty() && hit + needle.size() + v.size() < bytes.size())
                return std::string(v);
        }
        if (bytes.size() < length)
            break;
    }
    return {};
}

struct Named {
    std::string_view stem;
    std::string_view runtime;
};

// Interpreters and tools by the executable's file name. "nodejs" before
// "node" is not needed: stem_version rejects "nodejs" for "node".
constexpr std::array<Named, 12> named_runtimes{{
    {"python", "python"},
    {"node", "node"},
    {"nodejs", "node"},
    {"java", "java"},
    {"curl", "curl"},
    {"wget", "wget"},
    {"dotnet", "dotnet"},
    {"ruby", "ruby"},
    {"perl", "perl"},
    {"php", "php"},
    {"php-fpm", "php"},
    {"php-cgi", "php"},
}};

} // namespace

std::pair<std::uint64_t, std::uint64_t> elf_section(const FileReader& read, std::string_view path,
                                                    std::string_view name) {
    if (!read)
        return {0, 0};
    const std::string head = read(path, 0, 64);
    if (head.size() < 52 ||
        head.compare(0, 4,
                     "\x7f"
                     "ELF") != 0 ||
        head[5] != 1) // little-endian only: x86-64 and aarch64
        return {0, 0};
    const bool wide = head[4] == 2;
    const std::uint64_t shoff = wide ? little(head, 0x28, 8) : little(head, 0x20, 4);
    const std::size_t shentsize = little(head, wide ? 0x3A : 0x2E, 2);
    const std::size_t shnum = little(head, wide ? 0x3C : 0x30, 2);
    const std::size_t shstrndx = little(head, wide ? 0x3E : 0x32, 2);
    if (shoff == 0 || shnum == 0 || shnum > 4096 || shstrndx >= shnum ||
        shentsize < (wide ? 64u : 40u))
        return {0, 0};
    const std::string table = read(path, shoff, shentsize * shnum);
    if (table.size() < shentsize * shnum)
        return {0, 0};
    auto field = [&](std::size_t index, std::size_t at64, std::size_t at32) {
        return wide ? little(table, index * shentsize + at64, 8)
                    : little(table, index * shentsize + at32, 4);
    };
    const std::uint64_t names_at = field(shstrndx, 0x18, 0x10);
    const std::uint64_t names_size =
        std::min<std::uint64_t>(field(shstrndx, 0x20, 0x14), 64u << 10);
    const std::string names = read(path, names_at, static_cast<std::size_t>(names_size));
    for (std::size_t i = 0; i < shnum; ++i) {
        const std::size_t at = little(table, i * shentsize, 4);
        if (at >= names.size())
            continue;
        const char* s = names.data() + at;
        const std::size_t len = strnlen(s, names.size() - at);
        if (std::string_view(s, len) == name)
            return {field(i, 0x18, 0x10), field(i, 0x20, 0x14)};
    }
    return {0, 0};
}

std::string go_buildinfo_version(std::string_view section) {
    constexpr std::string_view magic = "\xff Go buildinf:";
    if (section.size() < 33 || !section.starts_with(magic))
        return {};
    const auto flags = static_cast<unsigned char>(section[15]);
    if ((flags & 0x2) == 0) // before Go 1.18: pointers into the data, not read here
        return {};
    std::uint64_t length = 0;
    std::size_t at = 32;
    for (int shift = 0; at < section.size() && shift < 63; shift += 7) {
        const auto b = static_cast<unsigned char>(section[at++]);
        length |= std::uint64_t{b & 0x7fu} << shift;
        if ((b & 0x80) == 0)
            break;
    }
    if (length < 3 || length > 64 || at + length > section.size())
        return {};
    const std::string_view v = section.substr(at, length);
    if (!v.starts_with("go"))
        return {};
    const auto number = leading_version(v.substr(2));
    return std::string(number);
}

RuntimeId identify_runtime(std::string_view executable, std::span<const std::string> argv,
                           const FileReader& read) {
    RuntimeId id;
    std::string_view name = base_name(executable);
    // A deleted executable's link reads "/path/prog (deleted)".
    if (name.ends_with(" (deleted)"))
        name.remove_suffix(10);
    if (name.empty() && !argv.empty())
        name = base_name(argv.front());
    for (const Named& n : named_runtimes) {
        const auto v = stem_version(name, n.stem);
        if (!v)
            continue;
        id.runtime = std::string(n.runtime);
        if (!v->empty()) {
            id.version = std::string(*v);
            id.version_source = "file name";
        }
        break;
    }
    const std::string_view dir = dir_name(executable);
    auto from_path = [&](std::string_view prefix) {
        const auto v = path_version(dir, prefix);
        if (!v.empty() && v.size() > id.version.size()) {
            id.version = std::string(v);
            id.version_source = "path";
        }
    };
    if (id.runtime == "python" || id.runtime == "ruby" || id.runtime == "node")
        from_path(id.version);
    if (id.runtime == "java") {
        // /usr/lib/jvm/java-17-openjdk-amd64/bin/java: the JDK's home is
        // two levels up, and its `release` file names the full version.
        const std::string_view home = dir_name(dir);
        if (read && !home.empty()) {
            const std::string release = read(std::string(home) + "/release", 0, 8192);
            const auto at = release.find("\nJAVA_VERSION=\"");
            const auto v = at == std::string::npos
                               ? std::string_view{}
                               : leading_version(std::string_view(release).substr(at + 15));
            if (!v.empty()) {
                id.version = std::string(v);
                id.version_source = "JDK release file";
            }
        }
        if (id.version.empty()) {
            const auto jvm = dir.find("/java-");
            const auto v = jvm == std::string_view::npos ? std::string_view{}
                                                         : leading_version(dir.substr(jvm + 6));
            if (!v.empty()) {
                id.version = std::string(v);
                id.version_source = "path";
            }
        }
        return id;
    }
    if (!read)
        return id;
    if (id.runtime == "curl" && id.version.empty()) {
        // The tool's own user agent, "curl/7.88.1", is in its .rodata.
        const auto [at, size] = elf_section(read, executable, ".rodata");
        id.version = size ? version_after(read, executable, at, size, "curl/") : std::string{};
    } else if (id.runtime == "node" && id.version.empty()) {
        // process.release's URLs and "node.js/v20.20.2" (v8's embedder
        // string) are in .rodata, deep in the binary.
        const auto [at, size] = elf_section(read, executable, ".rodata");
        id.version = size ? version_after(read, executable, at, size, "node.js/v") : std::string{};
    } else if (id.runtime.empty()) {
        // Any other ELF: a Go program carries its build info (go version -m).
        const auto [at, size] = elf_section(read, executable, ".go.buildinfo");
        if (size) {
            id.runtime = "go";
            id.version =
                go_buildinfo_version(read(executable, at, std::min<std::uint64_t>(size, 256)));
            if (!id.version.empty())
                id.version_source = "Go build info";
        }
        return id;
    }
    if (!id.version.empty() && id.version_source.empty())
        id.version_source = "executable's version string";
    return id;
}

} // namespace loopcheck
