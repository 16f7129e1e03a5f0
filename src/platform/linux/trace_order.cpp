// Windows' address order for localhost, without touching the machine's own
// files: the command runs in a mount namespace of its own where
//
// - /etc/hosts lists `::1 localhost` before `127.0.0.1 localhost` (Windows
//   answers localhost itself with both, ::1 first), the machine's other
//   lines kept;
// - /etc/gai.conf, where one exists, is empty: glibc then sorts by RFC
//   6724's default policy table (::1 precedence 50 over IPv4's 35), as
//   Windows' prefix policies do. A `precedence ::ffff:0:0/96 100` line
//   (Debian's commented example, set on some machines) would put IPv4
//   first whatever the hosts file says, so both files matter.
//
// Unprivileged, the mount namespace needs a user namespace that maps the
// caller's own uid and gid (nothing else changes for the program); as root,
// a plain mount namespace. Mount propagation is made private first, so
// nothing leaks back to the machine.
#include "platform/linux/trace_order.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sched.h>
#include <string_view>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace loopcheck::platform::trace {

namespace {

std::string read_small(const char* path) {
    std::string text;
    if (FILE* f = std::fopen(path, "re")) {
        char buffer[4096];
        std::size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0 && text.size() < (1U << 20))
            text.append(buffer, n);
        std::fclose(f);
    }
    return text;
}

bool write_file(const std::string& path, const std::string& text) {
    FILE* f = std::fopen(path.c_str(), "we");
    if (f == nullptr)
        return false;
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    return std::fclose(f) == 0 && ok;
}

// Does a hosts line name localhost (as a name, not a prefix of one)?
bool names_localhost(std::string_view line) {
    const std::size_t hash = line.find('#');
    line = line.substr(0, hash);
    std::size_t at = 0;
    bool first = true;
    while (at < line.size()) {
        while (at < line.size() && (line[at] == ' ' || line[at] == '\t'))
            ++at;
        std::size_t end = at;
        while (end < line.size() && line[end] != ' ' && line[end] != '\t')
            ++end;
        if (!first && line.substr(at, end - at) == "localhost")
            return true;
        first = false;
        at = end;
    }
    return false;
}

// The machine's hosts file with Windows' localhost lines first.
std::string windows_hosts(const std::string& machine) {
    std::string out = "# loopcheck trace --windows-order: localhost as Windows answers it\n"
                      "::1 localhost\n127.0.0.1 localhost\n";
    std::size_t at = 0;
    while (at < machine.size()) {
        std::size_t end = machine.find('\n', at);
        if (end == std::string::npos)
            end = machine.size();
        const std::string_view line(machine.data() + at, end - at);
        if (!names_localhost(line))
            out.append(line).push_back('\n');
        at = end + 1;
    }
    return out;
}

int write_proc(const char* path, const char* text) noexcept {
    const int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    const auto len = static_cast<ssize_t>(std::strlen(text));
    const int err = write(fd, text, static_cast<std::size_t>(len)) == len ? 0 : errno;
    close(fd);
    return err;
}

} // namespace

bool prepare_order(OrderPlan& plan, std::string& why) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/loopcheck-trace-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
        why = fmt::format("could not make a temporary directory: {}", std::strerror(errno));
        return false;
    }
    plan.dir = pattern;
    plan.hosts = plan.dir + "/hosts";
    if (!write_file(plan.hosts, windows_hosts(read_small("/etc/hosts")))) {
        why = fmt::format("could not write {}: {}", plan.hosts, std::strerror(errno));
        return false;
    }
    struct stat st {};
    if (stat("/etc/gai.conf", &st) == 0) {
        plan.gai = plan.dir + "/gai.conf";
        if (!write_file(plan.gai, "# loopcheck trace --windows-order: RFC 6724's defaults\n")) {
            why = fmt::format("could not write {}: {}", plan.gai, std::strerror(errno));
            return false;
        }
    }
    chmod(plan.dir.c_str(), 0755); // readable by the program whatever its uid
    plan.user_namespace = geteuid() != 0;
    plan.uid_map = fmt::format("{0} {0} 1\n", geteuid());
    plan.gid_map = fmt::format("{0} {0} 1\n", getegid());
    return true;
}

int enter_order(const OrderPlan& plan, const char*& step) noexcept {
    step = "unshare";
    if (unshare(CLONE_NEWNS | (plan.user_namespace ? CLONE_NEWUSER : 0)) != 0)
        return errno;
    if (plan.user_namespace) {
        step = "setgroups";
        if (const int err = write_proc("/proc/self/setgroups", "deny"))
            return err;
        step = "uid_map";
        if (const int err = write_proc("/proc/self/uid_map", plan.uid_map.c_str()))
            return err;
        step = "gid_map";
        if (const int err = write_proc("/proc/self/gid_map", plan.gid_map.c_str()))
            return err;
    }
    step = "mount --make-rprivate /";
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return errno;
    step = "mount --bind over /etc/hosts";
    if (mount(plan.hosts.c_str(), "/etc/hosts", nullptr, MS_BIND, nullptr) != 0)
        return errno;
    step = "mount --bind over /etc/gai.conf";
    if (!plan.gai.empty() &&
        mount(plan.gai.c_str(), "/etc/gai.conf", nullptr, MS_BIND, nullptr) != 0)
        return errno;
    return 0;
}

std::string probe_order(const OrderPlan& plan) {
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0)
        return fmt::format("pipe: {}", std::strerror(errno));
    const pid_t pid = fork();
    if (pid == 0) {
        close(pipe_fds[0]);
        const char* step = "";
        const int err = enter_order(plan, step);
        if (err != 0) {
            char message[160];
            const int n =
                std::snprintf(message, sizeof message, "%s: %s", step, std::strerror(err));
            (void)!write(pipe_fds[1], message, static_cast<std::size_t>(n > 0 ? n : 0));
        }
        _exit(err == 0 ? 0 : 1);
    }
    close(pipe_fds[1]);
    std::string reason;
    char buffer[160];
    ssize_t n = 0;
    while ((n = read(pipe_fds[0], buffer, sizeof buffer)) > 0)
        reason.append(buffer, static_cast<std::size_t>(n));
    close(pipe_fds[0]);
    if (pid < 0)
        return fmt::format("fork: {}", std::strerror(errno));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return reason;
}

void cleanup_order(const OrderPlan& plan) noexcept {
    if (!plan.hosts.empty())
        unlink(plan.hosts.c_str());
    if (!plan.gai.empty())
        unlink(plan.gai.c_str());
    if (!plan.dir.empty())
        rmdir(plan.dir.c_str());
}

} // namespace loopcheck::platform::trace
