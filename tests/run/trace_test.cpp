// run_trace against real programs: tests/support/trace_helper.cpp makes
// connects of a known kind to sockets this test opens and checks what it
// reads itself (exit 3 when the tracer disturbed it); these tests check
// what the tracer recorded. Linux only: elsewhere run_trace says it is not
// available, which the last case checks.
#include "loopcheck/run/trace.hpp"
#include "support/catch.hpp"

#include <arpa/inet.h>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <netinet/in.h>
#include <poll.h>
#include <pty.h>
#include <set>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using loopcheck::TraceOutcome;
using loopcheck::TraceRun;

// A bound socket on 127.0.0.1 (or ::1) and its port; listening or not
// (bound and not listening: every connect to it is refused, and no other
// program can take the port meanwhile).
struct Port {
    int fd = -1;
    int port = 0;
    Port(bool listening, bool v6 = false) {
        fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
        sockaddr_storage ss{};
        socklen_t len = 0;
        if (v6) {
            auto* a = reinterpret_cast<sockaddr_in6*>(&ss);
            a->sin6_family = AF_INET6;
            a->sin6_addr = in6addr_loopback;
            len = sizeof *a;
        } else {
            auto* a = reinterpret_cast<sockaddr_in*>(&ss);
            a->sin_family = AF_INET;
            a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            len = sizeof *a;
        }
        REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&ss), len) == 0);
        if (listening)
            REQUIRE(listen(fd, 64) == 0);
        getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
        port = ntohs(v6 ? reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port
                        : reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
    }
    ~Port() { close(fd); }
    Port(const Port&) = delete;
    Port& operator=(const Port&) = delete;
    [[nodiscard]] std::string text() const { return std::to_string(port); }
};

TraceRun trace(std::vector<std::string> command, bool order = false, bool timing = false) {
    loopcheck::TraceRequest request;
    request.command = std::move(command);
    request.windows_order = order;
    request.windows_timing = timing;
    request.name_shim = LOOPCHECK_NAME_SHIM;
    auto run = loopcheck::run_trace(request);
    REQUIRE(run.ok());
    INFO(run->mode_reason);
    REQUIRE(run->mode == loopcheck::TraceMode::seccomp_ptrace);
    return std::move(run.value());
}

const std::string helper = LOOPCHECK_TRACE_HELPER;

} // namespace

TEST_CASE("a blocking connect to a closed port is recorded as refused, and the program "
          "reads ECONNREFUSED",
          "[trace]") {
    Port closed(false);
    const TraceRun run = trace({helper, "blocking", "127.0.0.1", closed.text(), "refused"});
    CHECK(run.exit_status == 0);
    REQUIRE(run.connects.size() == 1);
    const auto& c = run.connects[0];
    CHECK(c.outcome == TraceOutcome::refused);
    CHECK(c.error == ECONNREFUSED);
    CHECK(c.program_errno == ECONNREFUSED);
    CHECK_FALSE(c.nonblocking);
    CHECK(c.destination.port == closed.port);
    CHECK(c.pid == c.tid);
    CHECK(c.duration_ms.has_value());
}

TEST_CASE("a non-blocking connect's refusal is seen on the tracer's duplicate, and the "
          "program's own SO_ERROR still reads ECONNREFUSED",
          "[trace]") {
    Port closed(false, true);
    const TraceRun run = trace({helper, "nonblocking", "::1", closed.text(), "refused"});
    CHECK(run.exit_status == 0); // 3: the program's SO_ERROR was not ECONNREFUSED
    REQUIRE(run.connects.size() == 1);
    const auto& c = run.connects[0];
    CHECK(c.outcome == TraceOutcome::refused);
    CHECK(c.destination.family == loopcheck::Family::ipv6);
    CHECK(c.program_errno == ECONNREFUSED);
}

TEST_CASE("connects to a listener are accepted, blocking or not, and a v4-mapped address is "
          "reported as IPv4",
          "[trace]") {
    Port open(true);
    CHECK(trace({helper, "blocking", "127.0.0.1", open.text(), "ok"}).connects.at(0).outcome ==
          TraceOutcome::accepted);
    const TraceRun run = trace({helper, "nonblocking", "::ffff:127.0.0.1", open.text(), "ok"});
    CHECK(run.exit_status == 0);
    REQUIRE(run.connects.size() == 1);
    CHECK(run.connects[0].outcome == TraceOutcome::accepted);
    CHECK(run.connects[0].v4_mapped);
    CHECK(run.connects[0].destination.family == loopcheck::Family::ipv4);
}

TEST_CASE("every thread's connect is recorded, with its thread id", "[trace]") {
    Port closed(false);
    const TraceRun run = trace({helper, "threads", "127.0.0.1", closed.text(), "4"});
    REQUIRE(run.connects.size() == 4);
    std::set<int> tids;
    for (const auto& c : run.connects) {
        CHECK(c.pid == run.connects[0].pid);
        CHECK(c.outcome == TraceOutcome::refused);
        tids.insert(c.tid);
    }
    CHECK(tids.size() == 4);
}

TEST_CASE("a forked child's connect and an exec through sh -c are followed", "[trace]") {
    Port closed(false);
    const TraceRun run =
        trace({"sh", "-c", helper + " fork 127.0.0.1 " + closed.text() + "; exit 5"});
    CHECK(run.exit_status == 5);
    REQUIRE(run.connects.size() == 1);
    CHECK(run.connects[0].outcome == TraceOutcome::refused);
    REQUIRE(run.processes.size() >= 2);
    CHECK(run.processes[0].parent_pid == 0);
    const auto& helper_exec = run.processes[1];
    CHECK(helper_exec.executable == helper);
    CHECK(helper_exec.argv.at(1) == "fork");
    CHECK(helper_exec.parent_pid == run.processes[0].pid);
    CHECK(run.connects[0].pid != helper_exec.pid); // the forked child's
}

TEST_CASE("a background child that outlives the command is served until it exits", "[trace]") {
    Port closed(false);
    const TraceRun run = trace({helper, "background", "127.0.0.1", closed.text(), "300"});
    CHECK(run.exit_status == 0);
    REQUIRE(run.connects.size() == 1);
    CHECK(run.connects[0].outcome == TraceOutcome::refused);
    CHECK(run.connects[0].start_ms > run.wall_ms); // after the command itself exited
}

TEST_CASE("the command's exit status and the signal that ended it are recorded", "[trace]") {
    CHECK(trace({helper, "exit", "7"}).exit_status == 7);
    const TraceRun killed = trace({helper, "raise", std::to_string(SIGABRT)});
    CHECK(killed.exit_signal == SIGABRT);
}

TEST_CASE("SIGTERM, SIGHUP and a SIGINT sent to loopcheck by kill() are passed on to the "
          "command",
          "[trace]") {
    for (const int sig : {SIGTERM, SIGHUP, SIGINT}) {
        const TraceRun run = trace({helper, "signal-parent", std::to_string(sig)});
        CHECK(run.exit_signal == sig);
    }
}

namespace {

// A listener on 127.0.0.1 whose one accept-queue place is taken: the SYNs
// of every further connect are dropped, so it stays SYN_SENT.
struct FullListener {
    Port port{false};
    int filler = socket(AF_INET, SOCK_STREAM, 0);
    FullListener() {
        REQUIRE(listen(port.fd, 0) == 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons(static_cast<std::uint16_t>(port.port));
        REQUIRE(connect(filler, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    }
    ~FullListener() { close(filler); }
    FullListener(const FullListener&) = delete;
    FullListener& operator=(const FullListener&) = delete;
};

} // namespace

namespace {

// Has `pid`'s child exec'd the helper?
bool runs_helper(pid_t pid) {
    const std::string children =
        "/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children";
    FILE* f = std::fopen(children.c_str(), "r");
    if (f == nullptr)
        return false;
    int child = 0;
    const bool found = std::fscanf(f, "%d", &child) == 1;
    std::fclose(f);
    if (!found)
        return false;
    char exe[4096];
    const std::string link = "/proc/" + std::to_string(child) + "/exe";
    const ssize_t n = readlink(link.c_str(), exe, sizeof exe - 1);
    return n > 0 && std::string(exe, static_cast<std::size_t>(n)) == helper;
}

} // namespace

TEST_CASE("Ctrl-C on the terminal reaches the command, once, and the tracer reports its end",
          "[trace]") {
    // The tracer (loopcheck_trace_run) in a terminal of its own; ^C makes
    // the terminal send SIGINT to its foreground process group, which holds
    // both the tracer and the command.
    int terminal = -1;
    const pid_t pid = forkpty(&terminal, nullptr, nullptr, nullptr);
    REQUIRE(pid >= 0);
    if (pid == 0) {
        const std::string run = LOOPCHECK_TRACE_RUN;
        execl(run.c_str(), run.c_str(), "--", helper.c_str(), "sleep", "20000", nullptr);
        _exit(127);
    }
    std::string out;
    char buffer[512];
    pollfd p{terminal, POLLIN, 0};
    // The tracer says nothing until the end: wait until the command runs
    // (the tracer's child has exec'd the helper).
    for (int i = 0; i < 200 && !runs_helper(pid); ++i)
        usleep(50 * 1000);
    REQUIRE(write(terminal, "\x03", 1) == 1);
    while (poll(&p, 1, 15000) > 0) {
        const ssize_t n = read(terminal, buffer, sizeof buffer);
        if (n <= 0)
            break;
        out.append(buffer, static_cast<std::size_t>(n));
    }
    int status = 0;
    waitpid(pid, &status, 0);
    close(terminal);
    INFO(out);
    CHECK(out.find("signal 2") != std::string::npos); // the command died of SIGINT
    REQUIRE(WIFEXITED(status));                       // and the tracer did not
    CHECK(WEXITSTATUS(status) == 128 + SIGINT);
}

TEST_CASE("a non-blocking connect the program closes while SYN_SENT is abandoned", "[trace]") {
    const FullListener full;
    const TraceRun run = trace({helper, "abandon", "127.0.0.1", full.port.text()});
    REQUIRE(run.connects.size() == 1);
    CHECK(run.connects[0].nonblocking);
    CHECK(run.connects[0].outcome == TraceOutcome::abandoned);
}

TEST_CASE("a blocking connect a signal interrupts (EINTR) is watched on, and abandoned when "
          "the program closes it",
          "[trace]") {
    const FullListener full;
    const TraceRun run = trace({helper, "eintr", "127.0.0.1", full.port.text()});
    CHECK(run.exit_status == 0); // 3: the program did not read EINTR
    REQUIRE(run.connects.size() == 1);
    CHECK(run.connects[0].outcome == TraceOutcome::abandoned);
}

TEST_CASE("where ptrace is refused the preload shim records the connects, and the run says "
          "why",
          "[trace]") {
    // A tracer under a tracer: the inner one's PTRACE_SEIZE fails (its child
    // is already traced by the outer one), as under Yama's ptrace_scope 3.
    Port closed(false);
    const std::string log = "/tmp/loopcheck-trace-test-" + std::to_string(getpid());
    const TraceRun outer =
        trace({"sh", "-c",
               std::string(LOOPCHECK_TRACE_RUN) + " --windows-timing -- " + helper +
                   " resolve localhost " + closed.text() + " 2>" + log + "; exit 4"});
    CHECK(outer.exit_status == 4); // the command ran
    CHECK_FALSE(outer.self_tracing_pids.empty());
    std::string text(8192, '\0');
    FILE* f = std::fopen(log.c_str(), "r");
    REQUIRE(f != nullptr);
    text.resize(std::fread(text.data(), 1, text.size(), f));
    std::fclose(f);
    std::remove(log.c_str());
    INFO(text);
    CHECK(text.find("mode: tracing was refused: ptrace() was refused") != std::string::npos);
    CHECK(text.find("the preload shim recorded") != std::string::npos);
    CHECK(text.find(":" + closed.text() + " name localhost refused") != std::string::npos);
    CHECK(text.find("timing: not applied") != std::string::npos);
}

TEST_CASE("UDP and non-loopback connects are counted, not recorded", "[trace]") {
    const TraceRun run = trace({helper, "udp", "127.0.0.1", "9"});
    CHECK(run.connects.empty());
    CHECK(run.other_connects >= 1);
}

TEST_CASE("io_uring_setup and ptrace by the program are reported", "[trace]") {
    CHECK(trace({helper, "io-uring"}).io_uring_setups == 1);
    const TraceRun run = trace({helper, "self-trace"});
    REQUIRE(run.self_tracing_pids.size() == 1);
    CHECK(run.self_tracing_pids[0] == run.processes.at(0).pid);
}

TEST_CASE("the shim names the connects to what getaddrinfo() answered for localhost", "[trace]") {
    Port closed(false);
    const TraceRun run = trace({helper, "resolve", "localhost", closed.text()});
    REQUIRE_FALSE(run.connects.empty());
    for (const auto& c : run.connects) {
        CHECK(c.name == "localhost");
        CHECK(c.name_source == loopcheck::NameSource::shim);
    }
}

TEST_CASE("Windows' order (--windows-order): localhost resolves ::1 first for the command",
          "[trace]") {
    Port closed(false);
    const TraceRun run = trace({helper, "resolve", "localhost", closed.text()}, true);
    if (!run.windows_order)
        LC_SKIP("Windows' order is refused here: " << run.windows_order_note);
    REQUIRE(run.connects.size() == 2);
    CHECK(run.connects[0].destination.family == loopcheck::Family::ipv6);
    CHECK(run.connects[1].destination.family == loopcheck::Family::ipv4);
}

TEST_CASE("Windows' timing (--windows-timing): a refused connect is refused after resent SYNs, and "
          "the program "
          "still reads ECONNREFUSED",
          "[trace]") {
    // A port nothing is bound to on ::1 (the tarpit must be able to take
    // it): one the kernel just gave out and this test let go.
    std::string port;
    {
        const Port probe(false, true);
        port = probe.text();
    }
    const TraceRun blocking = trace({helper, "blocking", "::1", port, "refused"}, false, true);
    CHECK(blocking.exit_status == 0);
    REQUIRE(blocking.connects.size() == 1);
    CHECK(blocking.connects[0].outcome == TraceOutcome::refused);
    CHECK(blocking.connects[0].syn_retransmits >= 1);
    const TraceRun nonblocking =
        trace({helper, "nonblocking", "::1", port, "refused"}, false, true);
    CHECK(nonblocking.exit_status == 0);
    REQUIRE(nonblocking.connects.size() == 1);
    CHECK(nonblocking.connects[0].outcome == TraceOutcome::refused);
    CHECK(nonblocking.connects[0].syn_retransmits >= 1);
    CHECK(nonblocking.connects[0].program_errno == ECONNREFUSED);
    CHECK(nonblocking.windows_timing_note.empty());
}

TEST_CASE("Windows' timing (--windows-timing) says which refusals it could not slow", "[trace]") {
    Port bound(false); // bound, not listening: the tracer cannot take it
    const TraceRun run =
        trace({helper, "blocking", "127.0.0.1", bound.text(), "refused"}, false, true);
    REQUIRE(run.connects.size() == 1);
    CHECK(run.connects[0].outcome == TraceOutcome::refused);
    CHECK(run.connects[0].syn_retransmits == 0);
    CHECK(run.windows_timing_note.find("1 refused connect (e.g. to 127.0.0.1:" + bound.text()) !=
          std::string::npos);
}

TEST_CASE("a command that cannot be run is an error, not a run", "[trace]") {
    loopcheck::TraceRequest request;
    request.command = {"/nonexistent/loopcheck-test-command"};
    const auto run = loopcheck::run_trace(request);
    REQUIRE_FALSE(run.ok());
    CHECK(run.error().kind == loopcheck::ErrorKind::usage);
    CHECK(run.error().message.find("No such file") != std::string::npos);
}
