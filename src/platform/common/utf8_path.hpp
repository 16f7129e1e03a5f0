// Paths as UTF-8 strings, the one encoding every path has above the
// platform layer (platform::utf8_arguments() makes the command line so).
// std::filesystem::path(std::string) and path::string() are not that pair
// on Windows: with MinGW's libstdc++ the first reads the ANSI code page and
// the second writes UTF-8, so a walk's own names did not round-trip and
// C:\Users\José\... was skipped as "vanished". The char8_t forms convert
// UTF-8 both ways on Windows and pass the bytes through on POSIX.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace loopcheck::platform {

/// The path whose UTF-8 form is `utf8`.
inline std::filesystem::path path_from_utf8(std::string_view utf8) {
    return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

/// The UTF-8 form of `path`.
inline std::string utf8_from_path(const std::filesystem::path& path) {
    const std::u8string u8 = path.u8string();
    return std::string(u8.begin(), u8.end());
}

} // namespace loopcheck::platform
