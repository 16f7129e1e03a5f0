// The machine in words: os-release's name, WSL and container clues,
// Windows' name from its registry values, the proxy variables.
#include "loopcheck/core/input/machine.hpp"
#include "support/catch.hpp"

#include <map>
#include <optional>
#include <string>

using namespace loopcheck;

TEST_CASE("os-release gives the distribution's pretty name", "[machine]") {
    CHECK(os_release_name("NAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\n"
                          "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n") ==
          "Debian GNU/Linux 12 (bookworm)");
    CHECK(os_release_name("NAME=Alpine\nVERSION_ID=3.20.1\n") == "Alpine 3.20.1");
    CHECK(os_release_name("PRETTY_NAME='Ubuntu 24.04.1 LTS'\r\n") == "Ubuntu 24.04.1 LTS");
    CHECK(os_release_name("PRETTY_NAME=\"A \\\"quoted\\\" name\"\n") == "A \"quoted\" name");
    CHECK(os_release_name("XPRETTY_NAME=no\n") == "");
    CHECK(os_release_name("") == "");
}

TEST_CASE("WSL and containers are told from the kernel and the files they leave", "[machine]") {
    CHECK(linux_environment({.kernel_release = "5.15.153.1-microsoft-standard-WSL2"}) == "WSL 2");
    CHECK(linux_environment({.kernel_release = "4.4.0-19041-Microsoft"}) == "WSL 1");
    CHECK(linux_environment({.kernel_release = "6.1.0-18-amd64"}).empty());
    CHECK(linux_environment({.kernel_release = "6.1.0", .dockerenv = true}) ==
          "a container (Docker)");
    CHECK(linux_environment({.containerenv = true}) == "a container (Podman)");
    CHECK(linux_environment({.container_variable = "systemd-nspawn"}) ==
          "a container (systemd-nspawn)");
    CHECK(linux_environment({.dockerenv = true, .kubernetes = true}) == "a container (Kubernetes)");
    CHECK(linux_environment({.init_cgroup = "0::/kubepods/besteffort/pod1"}) ==
          "a container (Kubernetes)");
    CHECK(linux_environment({.init_cgroup = "0::/init.scope\n"}).empty());
}

TEST_CASE("Windows is named as people say it", "[machine]") {
    // Windows 11 kept "Windows 10" in ProductName.
    CHECK(windows_name("Windows 10 Pro", "24H2", 26100, 2314) ==
          "Windows 11 Pro 24H2 (build 26100.2314)");
    CHECK(windows_name("Windows 10 Enterprise", "22H2", 19045, 0) ==
          "Windows 10 Enterprise 22H2 (build 19045)");
    CHECK(windows_name("Windows Server 2022 Datacenter", "21H2", 20348, 2700) ==
          "Windows Server 2022 Datacenter 21H2 (build 20348.2700)");
    CHECK(windows_name("", "", 0, 0) == "Windows");
}

TEST_CASE("proxy variables are listed set ones only, credentials redacted", "[machine]") {
    std::map<std::string, std::string> env{{"HTTP_PROXY", "http://alice:s3cret@proxy.corp:3128"},
                                           {"NO_PROXY", "localhost,127.0.0.1,::1"},
                                           {"https_proxy", "bob:pw@proxy.corp:3129"},
                                           {"ALL_PROXY", ""}};
    const auto lookup = [&](const char* name) -> std::optional<std::string> {
        const auto it = env.find(name);
        return it == env.end() ? std::nullopt : std::optional(it->second);
    };
    const auto proxies = proxy_variables(lookup);
    REQUIRE(proxies.size() == 3);
    CHECK(proxies[0] ==
          std::pair<std::string, std::string>{"HTTP_PROXY", "http://***@proxy.corp:3128"});
    CHECK(proxies[1].first == "NO_PROXY");
    CHECK(proxies[2] == std::pair<std::string, std::string>{"https_proxy", "***@proxy.corp:3129"});
    // Windows: one variable answers to both spellings; it is listed once.
    const auto same = [](const char* name) -> std::optional<std::string> {
        const std::string n = name;
        if (n == "HTTP_PROXY" || n == "http_proxy")
            return "http://proxy:3128";
        return std::nullopt;
    };
    CHECK(proxy_variables(same).size() == 1);
}
