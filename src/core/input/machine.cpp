// Enum class Os and its label; the machine's description in words, from
// what the platform layer read (os-release, WSL and container clues,
// Windows' registry names, proxy variables).
#include "loopcheck/core/input/machine.hpp"

#include "loopcheck/core/input/redact.hpp"
#include "loopcheck/core/input/target.hpp"

#include <cstdint>
#include <functional>
#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>

namespace loopcheck {

std::string_view os_label(Os os) noexcept {
    switch (os) {
    case Os::linux_:
        return "Linux";
    case Os::macos:
        return "macOS";
    case Os::windows:
        return "Windows";
    case Os::other:
        break;
    }
    return "other";
}

namespace {

/// os-release's value of `key`, without its quotes; "" when absent.
std::string os_release_value(std::string_view text, std::string_view key) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        if (!line.starts_with(key) || line.size() <= key.size() || line[key.size()] != '=')
            continue;
        line.remove_prefix(key.size() + 1);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.remove_suffix(1);
        if (line.size() >= 2 && (line.front() == '"' || line.front() == '\'') &&
            line.back() == line.front())
            line = line.substr(1, line.size() - 2);
        std::string out;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (line[i] == '\\' && i + 1 < line.size())
                ++i; // os-release(5): shell-style backslash escapes
            out += line[i];
        }
        return out;
    }
    return {};
}

bool contains_nocase(std::string_view text, std::string_view word) {
    const auto it =
        std::search(text.begin(), text.end(), word.begin(), word.end(), [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) ==
                   std::tolower(static_cast<unsigned char>(b));
        });
    return it != text.end();
}

} // namespace

std::string os_release_name(std::string_view os_release) {
    if (auto pretty = os_release_value(os_release, "PRETTY_NAME"); !pretty.empty())
        return pretty;
    auto name = os_release_value(os_release, "NAME");
    const auto version = os_release_value(os_release, "VERSION_ID");
    if (!name.empty() && !version.empty())
        name += " " + version;
    return name;
}

std::string linux_environment(const EnvironmentClues& c) {
    // WSL's kernels: "5.15.153.1-microsoft-standard-WSL2" (WSL 2),
    // "4.4.0-19041-Microsoft" (WSL 1, a translation layer, no Linux kernel).
    if (contains_nocase(c.kernel_release, "wsl2") ||
        contains_nocase(c.kernel_release, "microsoft-standard"))
        return "WSL 2";
    if (contains_nocase(c.kernel_release, "microsoft"))
        return "WSL 1";
    if (c.wsl_interop)
        return "WSL";
    if (c.kubernetes || contains_nocase(c.init_cgroup, "kubepods"))
        return "a container (Kubernetes)";
    if (c.containerenv || c.container_variable == "podman")
        return "a container (Podman)";
    if (c.dockerenv || contains_nocase(c.init_cgroup, "docker"))
        return "a container (Docker)";
    if (!c.container_variable.empty())
        return fmt::format("a container ({})", c.container_variable);
    if (contains_nocase(c.init_cgroup, "lxc"))
        return "a container (LXC)";
    return {};
}

std::string windows_name(std::string_view product_name, std::string_view display_version,
                         std::uint32_t build, std::uint32_t revision) {
    std::string name(product_name.empty() ? std::string_view("Windows") : product_name);
    // Windows 11 kept "Windows 10" in ProductName; build 22000 was its first.
    if (build >= 22000)
        if (const auto at = name.find("Windows 10"); at != std::string::npos)
            name.replace(at, 10, "Windows 11");
    if (!display_version.empty())
        name += fmt::format(" {}", display_version);
    if (build != 0)
        name += revision != 0 ? fmt::format(" (build {}.{})", build, revision)
                              : fmt::format(" (build {})", build);
    return name;
}

std::vector<std::pair<std::string, std::string>>
proxy_variables(const std::function<std::optional<std::string>(const char*)>& lookup) {
    static constexpr std::array<const char*, 8> names{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                                                      "NO_PROXY",   "http_proxy",  "https_proxy",
                                                      "all_proxy",  "no_proxy"};
    std::vector<std::pair<std::string, std::string>> out;
    for (const char* name : names) {
        const auto value = lookup(name);
        if (!value || value->empty())
            continue;
        // Windows' variables ignore case: http_proxy is HTTP_PROXY again.
        const std::string shown = redact_credentials(*value);
        if (std::any_of(out.begin(), out.end(), [&](const auto& seen) {
                return seen.second == shown && seen.first.size() == std::string_view(name).size() &&
                       contains_nocase(seen.first, name);
            }))
            continue;
        // "http://user:pw@proxy:3128" and "user:pw@proxy:3128" alike.
        out.emplace_back(name, shown);
    }
    return out;
}

} // namespace loopcheck
