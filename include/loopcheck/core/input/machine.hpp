// What loopcheck knows of the machine it runs on: which OS (the rules that
// differ per OS key on `Os`, never on a name) and the facts that explain
// connect timings. Plain values; the platform layer fills them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loopcheck {

/// The operating systems whose TCP behaviour loopcheck models.
/// `linux_`: a trailing underscore because `linux` is a predefined macro
/// in GCC's GNU modes.
enum class Os : std::uint8_t { other, linux_, macos, windows };

/// "Linux", "macOS", "Windows", "other".
std::string_view os_label(Os os) noexcept;

/// Facts about the machine that explain connect timings.
struct SystemFacts {
    Os os = Os::other;
    std::string os_name;    ///< as shown: "Linux", "Windows", "macOS", "FreeBSD"
    std::string os_version; ///< kernel release or "10.0.26200"
    /// Windows' build number (0 elsewhere); gates the no-retry option.
    std::uint32_t windows_build = 0;
    /// Settings that shape SYN retries, as the OS names them, e.g.
    /// {"net.ipv4.tcp_syn_retries", "6"}; a value is "unknown" when unreadable.
    std::vector<std::pair<std::string, std::string>> tcp_settings;
    /// Where the resolver reads static names ("/etc/hosts").
    std::string hosts_file;
};

} // namespace loopcheck
