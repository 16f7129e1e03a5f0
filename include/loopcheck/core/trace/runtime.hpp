// Which runtime a traced process is, and its version, from its executable
// (src/core/trace/runtime.cpp): the file name and path first (python3.11,
// a pyenv or nvm version folder, /usr/lib/jvm/java-17-...), then, through
// a reader the run layer gives, a few bounded reads of the files
// themselves: a Go binary's build info, a JDK's `release` file, the
// version string in curl's or Node.js's executable. The result maps to the
// client table's rows (trace_analysis.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

namespace loopcheck {

/// Reads up to `length` bytes of the regular file at `path` from `offset`
/// (fewer at its end); empty when it cannot be read. The run layer's, over
/// the traced process's files (/proc/PID/exe, or the path it executed):
/// identify_runtime asks for at most max_runtime_read_bytes in all, in
/// pieces of at most 4 MiB, and only for executables whose name or
/// format says what to look for.
using FileReader =
    std::function<std::string(std::string_view path, std::uint64_t offset, std::size_t length)>;

/// What identify_runtime reads of one executable at the most (Node.js's
/// version string sits ~36 MB into a 98 MB binary; every other read is a
/// few KiB).
inline constexpr std::uint64_t max_runtime_read_bytes = 64ull << 20;

/// A runtime as the client table knows it.
struct RuntimeId {
    std::string runtime; ///< "python", "node", "java", "go", "curl", "dotnet", "ruby", ... or ""
    std::string version; ///< "3.11.7", "20.20.2", "17.0.15", "1.19.8", "7.88.1", ... or ""
    /// Where the version came from: "file name", "path", "Go build info",
    /// "JDK release file", "executable's version string"; empty with no version.
    std::string version_source;

    friend bool operator==(const RuntimeId&, const RuntimeId&) = default;
};

/// The runtime of the process that executed `executable` (an absolute
/// path: /proc/PID/exe's target) with `argv`. Without `read`, from the
/// names alone: a Go program or a curl version then stays unknown. Never
/// throws; bytes that do not parse give less, never a wrong version.
RuntimeId identify_runtime(std::string_view executable, std::span<const std::string> argv,
                           const FileReader& read = {});

/// The Go version in a `.go.buildinfo` section's first bytes (Go 1.18 and
/// later, where the version is inline: "\xff Go buildinf:", pointer size,
/// flags with bit 1 set, padding to 32, then a varint length and
/// "go1.21.5"): "1.21.5"; empty for another layout.
std::string go_buildinfo_version(std::string_view section);

/// The ELF section `name` of a 64- or 32-bit little-endian ELF file, as
/// (file offset, size); {0, 0} when the file is not ELF or has no such
/// section. Reads the header, the section headers and their names through
/// `read` (a few KiB).
std::pair<std::uint64_t, std::uint64_t> elf_section(const FileReader& read, std::string_view path,
                                                    std::string_view name);

} // namespace loopcheck
