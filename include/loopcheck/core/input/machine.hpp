// What loopcheck knows of the machine it runs on: which OS (the rules that
// differ per OS key on `Os`, never on a name) and the facts that explain
// connect timings. Plain values; the platform layer fills them.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
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
    /// What a maintainer asks first, in words: "Debian GNU/Linux 12
    /// (bookworm)", "Windows 11 Pro 24H2 (build 26100.2314)", "macOS
    /// 14.5"; "" when unknown.
    std::string distribution;
    /// The CPU architecture as the OS names it: "x86_64", "aarch64",
    /// "arm64", "AMD64", "ARM64"; "" when unknown.
    std::string architecture;
    /// "WSL 2", "WSL 1", "a container (Docker)", ...: where a Linux
    /// loopback is not the host's own; "" for neither.
    std::string environment;
    /// The proxy variables that are set (HTTP_PROXY, NO_PROXY, ... and
    /// their lower-case forms), their userinfo and query values redacted:
    /// they decide whether a client connects to localhost at all.
    std::vector<std::pair<std::string, std::string>> proxies;
};

/// The distribution's name from os-release(5) text: PRETTY_NAME, else
/// NAME and VERSION_ID; "" when it has neither.
std::string os_release_name(std::string_view os_release);

/// What the platform layer can see of WSL and containers on Linux.
struct EnvironmentClues {
    std::string kernel_release{};     ///< /proc/sys/kernel/osrelease
    bool wsl_interop = false;         ///< /proc/sys/fs/binfmt_misc/WSLInterop exists
    bool dockerenv = false;           ///< /.dockerenv exists
    bool containerenv = false;        ///< /run/.containerenv exists (Podman)
    std::string container_variable{}; ///< $container (systemd-nspawn, Podman, LXC)
    bool kubernetes = false;          ///< $KUBERNETES_SERVICE_HOST is set
    std::string init_cgroup{};        ///< /proc/1/cgroup
};

/// "WSL 2" (a kernel release with "WSL2", or "microsoft-standard"), "WSL
/// 1" (one with "Microsoft"), "a container (Docker)", "(Podman)",
/// "(Kubernetes)", "(systemd-nspawn)", ...; "" for neither.
std::string linux_environment(const EnvironmentClues& clues);

/// Windows' name as people say it: the registry's ProductName ("Windows 10
/// Pro", which Windows 11 keeps) with 10 read as 11 from build 22000, its
/// DisplayVersion ("24H2") and the build: "Windows 11 Pro 24H2 (build
/// 26100.2314)". `revision` 0 leaves ".UBR" out.
std::string windows_name(std::string_view product_name, std::string_view display_version,
                         std::uint32_t build, std::uint32_t revision);

/// The proxy variables among HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY
/// and their lower-case forms that `lookup` finds set (non-empty), in that
/// order, with any URL's userinfo and query values redacted.
std::vector<std::pair<std::string, std::string>>
proxy_variables(const std::function<std::optional<std::string>(const char*)>& lookup);

} // namespace loopcheck
