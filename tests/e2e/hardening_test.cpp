// Issue 28's hostile environments, against the real binary: closed standard
// descriptors, output that cannot be written, resource limits. POSIX only
// (posix_spawn, fork, setrlimit); on Windows the file is empty.
#ifndef _WIN32
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "support/catch.hpp"
#include "support/hardening.hpp"
#include "support/process.hpp"
#include "support/text.hpp"

#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <string>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;

TEST_CASE("a closed stdin, stdout or stderr never becomes a probe socket", "[hardening]") {
    for (int closed = 0; closed <= 2; ++closed) {
        INFO("descriptor " << closed << " closed");
        {
            const ClosedPort down;
            const auto r = spawn_loopcheck({"-vv", down.target()}, closed);
            INFO("stdout: " << r.out << "\nstderr: " << r.err);
            CHECK(r.exit_code == exit_code::server_down);
            if (closed != 1)
                CHECK(contains(r.out, "DOWN"));
        }
        {
            const ClosedPort down;
            const auto r =
                spawn_loopcheck({"wait", "-vv", "--for", "300ms", down.target()}, closed);
            INFO("wait stdout: " << r.out << "\nstderr: " << r.err);
            CHECK(r.exit_code != exit_code::healthy);
        }
        {
            TestListener up;
            const auto r = spawn_loopcheck({"-vv", up.target()}, closed);
            INFO("stdout: " << r.out << "\nstderr: " << r.err);
            CHECK(r.exit_code == exit_code::healthy);
            CHECK(up.accepted() > 0);
            CHECK(up.bytes_received() == 0);
        }
    }
}

namespace {

/// Runs loopcheck with stdout on `fd` (closed here afterwards).
RunResult with_stdout(
    const std::vector<std::string>& args, int fd, const std::function<void()>& prepare = [] {}) {
    auto r = fork_loopcheck(args, prepare, fd);
    ::close(fd);
    return r;
}

/// A pipe whose reader is already gone: its write end.
int broken_pipe() {
    int p[2];
    REQUIRE(::pipe(p) == 0);
    ::close(p[0]);
    return p[1];
}

void expect_lost_output(const RunResult& r, const char* why) {
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == exit_code::internal);
    CHECK(contains(r.err, "cannot write to standard output"));
    CHECK(contains(r.err, why));
}

} // namespace

TEST_CASE("a report, help or version that cannot be written is exit 5, not the verdict",
          "[hardening]") {
    const ClosedPort down;
    const std::vector<std::vector<std::string>> commands = {
        {"--json", down.target()},
        {"audit"},
        {"--help"},
        {"--version"},
        {"wait", "--help"},
        {"listen", "--for", "2s", "127.0.0.1:0"}};
    for (const auto& args : commands) {
        INFO("loopcheck " << args.front());
        const int full = ::open("/dev/full", O_WRONLY);
        REQUIRE(full >= 0);
        expect_lost_output(with_stdout(args, full), "No space left");
    }
}

TEST_CASE("a reader gone: EPIPE with SIGPIPE ignored is exit 5, by default the signal (141)",
          "[hardening]") {
    const ClosedPort down;
    expect_lost_output(
        with_stdout({"--json", down.target()}, broken_pipe(), [] { ::signal(SIGPIPE, SIG_IGN); }),
        "Broken pipe");
    const auto r =
        with_stdout({"--json", down.target()}, broken_pipe(), [] { ::signal(SIGPIPE, SIG_DFL); });
    CHECK(r.exit_code == 128 + SIGPIPE);
}

TEST_CASE("a file-size limit (EFBIG) cuts the report: exit 5", "[hardening]") {
    const ClosedPort down;
    const auto r = fork_loopcheck({"--json", down.target()}, [] {
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit small{100, 100};
        ::setrlimit(RLIMIT_FSIZE, &small);
    });
    expect_lost_output(r, "too large");
}

TEST_CASE("a URL's userinfo never reaches a report, and the probe still uses the URL",
          "[hardening]") {
    const ClosedPort down;
    const std::string url = "http://user:s3cret@" + down.target() + "/";
    for (const char* format : {"--markdown", "--json", "--format=text"}) {
        INFO(format);
        const auto r = spawn_loopcheck({format, url}, -1);
        INFO("stdout: " << r.out << "\nstderr: " << r.err);
        CHECK(r.exit_code == exit_code::server_down);
        CHECK_FALSE(contains(r.out + r.err, "s3cret"));
        CHECK(contains(r.out, "***@"));
    }
    const auto json = spawn_loopcheck({"--json", url}, -1);
    CHECK(contains(json.out, "\"userinfo_redacted\": true"));
    const auto wait = spawn_loopcheck({"wait", "--markdown", "--for", "100ms", url}, -1);
    CHECK_FALSE(contains(wait.out + wait.err, "s3cret"));
}

TEST_CASE("an error line never quotes a URL's password, whichever argument held it",
          "[hardening]") {
    const std::string url = "http://user:s3cret@localhost:abc/";
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{url}, std::vector<std::string>{"wait", url},
          std::vector<std::string>{"staircase", url}, std::vector<std::string>{"audit", url},
          std::vector<std::string>{"--expect", url, "localhost:9"},
          std::vector<std::string>{"-n", url, "localhost:9"},
          std::vector<std::string>{"user:s3cret@localhost:99999"},
          std::vector<std::string>{"wait", "--for", "user:s3cret@x", "localhost:9"}}) {
        INFO("loopcheck " << args.front() << " ...");
        const auto r = spawn_loopcheck(args, -1);
        INFO("stdout: " << r.out << "\nstderr: " << r.err);
        CHECK(r.exit_code == exit_code::usage);
        CHECK_FALSE(contains(r.out + r.err, "s3cret"));
        CHECK(contains(r.err, "***@"));
    }
}

TEST_CASE("too few descriptors is an internal-limit error, never \"does not resolve\"",
          "[hardening]") {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{}, std::vector<std::string>{"localhost:9"},
          std::vector<std::string>{"audit"}, std::vector<std::string>{"wait", "localhost:9"}}) {
        INFO("loopcheck " << (args.empty() ? "" : args.front()));
        const auto r = fork_loopcheck(args, [] {
            const rlimit six{6, 6};
            ::setrlimit(RLIMIT_NOFILE, &six);
        });
        INFO("stdout: " << r.out << "\nstderr: " << r.err);
        CHECK(r.exit_code == exit_code::internal);
        CHECK(contains(r.err, "descriptor limit (ulimit -n, RLIMIT_NOFILE) is 6"));
        CHECK(contains(r.err, "needs at least 16"));
        CHECK_FALSE(contains(r.out + r.err, "does not resolve"));
        CHECK(r.out.empty());
    }
}

namespace {

/// Runs `loopcheck args` in a private mount namespace where `file` is
/// bind-mounted over /etc/hosts, as tests/netns/lab.sh does; bounded by
/// timeout(1) so that a hang fails the test instead of the run. Needs root.
RunResult with_hosts_file(const std::string& file, const std::string& args) {
    return run_command("unshare -m --propagation private sh -c 'mount --bind " + file +
                       " /etc/hosts && exec timeout -s KILL 20 " + LOOPCHECK_EXE + " " + args +
                       "'");
}

/// Root, a mount namespace and a bind mount over /etc/hosts all work here
/// (a container without CAP_SYS_ADMIN has the first and not the others).
bool can_bind_mount_hosts() {
    return ::geteuid() == 0 && run_command("unshare -m --propagation private sh -c "
                                           "'mount --bind /etc/hosts /etc/hosts'")
                                       .exit_code == 0;
}

std::string temp_path(const char* name) {
    return (std::filesystem::temp_directory_path() /
            (std::string(name) + std::to_string(::getpid())))
        .string();
}

} // namespace

TEST_CASE("a FIFO as /etc/hosts is named, not read, and hangs nothing", "[hardening][mountns]") {
    if (!can_bind_mount_hosts())
        LC_SKIP("needs root, unshare -m and mount --bind, to put a FIFO over /etc/hosts");
    const auto fifo = temp_path("loopcheck_fifo_hosts_");
    REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
    const auto r = with_hosts_file(fifo, "--timeout 1s localhost:9");
    std::filesystem::remove(fifo);
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == exit_code::unresolved); // 137 when killed by timeout(1)
    CHECK(contains(r.out, "/etc/hosts is a FIFO, not a regular file"));
}

TEST_CASE("duplicate addresses from the resolver are probed once", "[hardening][mountns]") {
    if (!can_bind_mount_hosts())
        LC_SKIP("needs root, unshare -m and mount --bind, to put a file over /etc/hosts");
    const ClosedPort down;
    const auto hosts = temp_path("loopcheck_dup_hosts_");
    {
        std::ofstream out(hosts);
        for (int i = 0; i < 50; ++i)
            out << "127.0.0.1 dup.loopcheck.test\n";
    }
    const auto port = down.target().substr(down.target().rfind(':') + 1);
    const auto r = with_hosts_file(hosts, "--json -n 1 dup.loopcheck.test:" + port);
    std::filesystem::remove(hosts);
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == exit_code::server_down);
    const std::string endpoint = "\"endpoint\": \"" + down.target() + "\"";
    std::size_t probed = 0;
    for (auto at = r.out.find(endpoint); at != std::string::npos; at = r.out.find(endpoint, at + 1))
        ++probed;
    CHECK(probed == 1); // one address object, not 50
}

TEST_CASE("wait: up on ::1 only with 127.0.0.1 refused warns as the check would, exit 0",
          "[hardening][mountns][wait]") {
    if (!can_bind_mount_hosts())
        LC_SKIP("needs root, unshare -m and mount --bind, to put a file over /etc/hosts");
    // A listener on [::1] only, and the same port held closed on 127.0.0.1
    // (bound, not listening: refused), so nothing else can answer there.
    const int v6 = ::socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int v4 = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(v6 >= 0);
    REQUIRE(v4 >= 0);
    const int on = 1;
    ::setsockopt(v6, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
    sockaddr_in6 a6{};
    a6.sin6_family = AF_INET6;
    a6.sin6_addr = in6addr_loopback;
    socklen_t len = sizeof a6;
    const bool v6_up = ::bind(v6, reinterpret_cast<sockaddr*>(&a6), sizeof a6) == 0 &&
                       ::listen(v6, 8) == 0 &&
                       ::getsockname(v6, reinterpret_cast<sockaddr*>(&a6), &len) == 0;
    sockaddr_in a4{};
    a4.sin_family = AF_INET;
    a4.sin_port = a6.sin6_port;
    a4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool v4_held = v6_up && ::bind(v4, reinterpret_cast<sockaddr*>(&a4), sizeof a4) == 0;
    const auto port = std::to_string(ntohs(a6.sin6_port));
    const auto hosts = temp_path("loopcheck_v6_first_hosts_");
    std::ofstream(hosts) << "::1 localhost\n127.0.0.1 localhost\n";
    const auto r =
        v4_held ? with_hosts_file(hosts, "wait --for 2s localhost:" + port) : RunResult{};
    std::filesystem::remove(hosts);
    ::close(v4);
    ::close(v6);
    if (!v4_held)
        LC_SKIP("no port free on both ::1 and 127.0.0.1");
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == exit_code::healthy);
    CHECK(contains(r.out, "up on ::1"));
    CHECK(contains(r.out, "127.0.0.1 refused: some clients never try ::1 and fail"));
}

TEST_CASE("listen: a thread that cannot start is one error line and a clean exit", "[hardening]") {
    // RLIMIT_NPROC counts every process and thread of the real user, and
    // root is exempt: the child becomes `nobody`, who runs nothing else.
    if (::geteuid() != 0) {
        LC_SKIP("needs root, to run the child as nobody under its own RLIMIT_NPROC");
    }
    const passwd* nobody = ::getpwnam("nobody");
    REQUIRE(nobody != nullptr);
    const uid_t uid = nobody->pw_uid;
    const gid_t gid = nobody->pw_gid;
    std::vector<std::string> args{"listen", "--for", "3s", "-q"};
    for (int i = 0; i < 12; ++i)
        args.emplace_back("127.0.0.1:0");
    const auto r = fork_loopcheck(args, [uid, gid] {
        if (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0)
            ::_exit(126);
        // A checkout in a private directory (root's home, a chroot's build
        // tree) keeps the binary from nobody: nothing to learn then.
        if (::access(LOOPCHECK_EXE, X_OK) != 0)
            ::_exit(125);
        const rlimit few{4, 4}; // this process and three threads
        ::setrlimit(RLIMIT_NPROC, &few);
    });
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code != 126);
    if (r.exit_code == 125) {
        LC_SKIP("nobody cannot execute " LOOPCHECK_EXE " here (a private directory on its path)");
    }
    CHECK(r.exit_code == exit_code::internal);
    CHECK(contains(r.err, "cannot start thread"));
    CHECK(contains(r.err, " of 12 "));
    CHECK_FALSE(contains(r.err, "terminate"));
    CHECK(lines(r.err).size() == 1);
}

#endif
