// The POSIX platform layer's facts about the machine and the terminal:
// system_facts(), the interrupt handler, is_terminal(), terminal_width().
// The sockets are in platform/posix/connect.cpp. Linux-only parts are marked.
#include "loopcheck/platform/platform.hpp"
#include "platform/posix/small_file.hpp"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <fmt/format.h>
#include <string>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif
#include <unistd.h>

namespace loopcheck::platform {

namespace {

/// The first line of a /proc/sys value, or "unknown".
std::string read_first_line(const char* path) {
    auto text = posix::read_small_file(path, 256);
    if (!text || text->empty())
        return "unknown";
    text->erase(std::min(text->find('\n'), text->size()));
    return *text;
}

} // namespace

SystemFacts system_facts() {
    SystemFacts f;
    utsname u{};
    if (::uname(&u) == 0) {
        f.os_name = u.sysname;
        f.os_version = u.release;
    }
#if defined(__APPLE__)
    f.os = Os::macos;
    f.os_name = "macOS";
#elif defined(__linux__)
    f.os = Os::linux_;
#endif
    f.hosts_file = "/etc/hosts";
    f.architecture = u.machine;
    f.proxies = proxy_variables([](const char* name) { return environment_variable(name); });
#if defined(__APPLE__)
    char product[64] = {};
    std::size_t size = sizeof product - 1;
    if (::sysctlbyname("kern.osproductversion", product, &size, nullptr, 0) == 0)
        f.distribution = fmt::format("macOS {}", product);
#elif defined(__linux__)
    for (const char* path : {"/etc/os-release", "/usr/lib/os-release"})
        if (const auto text = posix::read_small_file(path, 16 * 1024); text && !text->empty()) {
            f.distribution = os_release_name(*text);
            break;
        }
    EnvironmentClues clues;
    clues.kernel_release = read_first_line("/proc/sys/kernel/osrelease");
    clues.wsl_interop = ::access("/proc/sys/fs/binfmt_misc/WSLInterop", F_OK) == 0;
    clues.dockerenv = ::access("/.dockerenv", F_OK) == 0;
    clues.containerenv = ::access("/run/.containerenv", F_OK) == 0;
    clues.container_variable = environment_variable("container").value_or("");
    clues.kubernetes = environment_variable("KUBERNETES_SERVICE_HOST").has_value();
    clues.init_cgroup = posix::read_small_file("/proc/1/cgroup", 16 * 1024).value_or("");
    f.environment = linux_environment(clues);
#endif
#ifdef __linux__
    // The SYN retry settings (tcp(7)); tcp_syn_linear_timeouts (Linux 6.7+)
    // makes the first retries 1 s apart instead of doubling.
    for (const char* name : {"tcp_syn_retries", "tcp_syn_linear_timeouts"}) {
        const std::string path = fmt::format("/proc/sys/net/ipv4/{}", name);
        f.tcp_settings.emplace_back(fmt::format("net.ipv4.{}", name),
                                    read_first_line(path.c_str()));
    }
    f.tcp_settings.emplace_back("net.ipv6.bindv6only",
                                read_first_line("/proc/sys/net/ipv6/bindv6only"));
#endif
    return f;
}

Os build_os() noexcept {
#if defined(__APPLE__)
    return Os::macos;
#elif defined(__linux__)
    return Os::linux_;
#else
    return Os::other;
#endif
}

namespace {

void (*g_on_interrupt)() = nullptr;
std::atomic<int> g_interrupts{0}; // lock-free, so safe in a handler
std::atomic<bool> g_terminated{false};

extern "C" void handle_interrupt(int signal) {
    if (signal == SIGTERM)
        g_terminated.store(true);
    // The first signal asks the waits to end so the report can be printed.
    // A second one is tolerated: coreutils' timeout, for one, signals the
    // child and then its whole process group. A third ends the process now.
    if (++g_interrupts >= 3)
        ::_exit(g_terminated.load() ? 143 : 130);
    if (g_on_interrupt != nullptr)
        g_on_interrupt();
}

} // namespace

void install_interrupt_handler(void (*on_interrupt)()) noexcept {
    g_on_interrupt = on_interrupt;
    struct sigaction sa {};
    sa.sa_handler = handle_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; // no SA_RESTART: poll() must return EINTR so the wait ends now
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
}

bool terminate_requested() noexcept {
    return g_terminated.load();
}

// The signal that calls the handler interrupts poll() with EINTR (no
// SA_RESTART above), so there is no separate wake path to trigger.
bool interrupt_waits() noexcept {
    return false;
}

// A POSIX terminal shows the bytes it is given; there is no code page.
Utf8Console::Utf8Console() noexcept = default;
Utf8Console::~Utf8Console() = default;

bool is_terminal(Stream s) noexcept {
    return ::isatty(s == Stream::out ? 1 : 2) == 1;
}

int terminal_width() noexcept {
    winsize ws{};
    for (int fd : {1, 2})
        if (::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
            return ws.ws_col;
    return 0;
}

} // namespace loopcheck::platform
