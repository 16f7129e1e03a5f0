// Which operating system a measurement was made on, as the pure core needs
// to know it: some client behaviour (no SYN retries on loopback) and the
// retry interval exist on Windows only. platform::SystemFacts::os names it.
#pragma once

#include <cstdint>
#include <string_view>

namespace loopcheck {

enum class Os : std::uint8_t { windows, linux, macos, other };

/// The Os for a SystemFacts::os name ("Windows", "Linux", "macOS"/"Darwin").
constexpr Os os_from_name(std::string_view name) noexcept {
    if (name == "Windows")
        return Os::windows;
    if (name == "Linux")
        return Os::linux;
    if (name == "macOS" || name == "Darwin")
        return Os::macos;
    return Os::other;
}

} // namespace loopcheck
