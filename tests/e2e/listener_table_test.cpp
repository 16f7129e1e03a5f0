// platform::list_listeners against listeners the test opens itself, and
// against `loopcheck listen` running as a child process.
#include "loopcheck/platform/platform.hpp"
#include "run/probe.hpp"
#include "support/catch.hpp"
#include "support/child.hpp"
#include "support/helpers.hpp"
#include "support/process.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

namespace {

bool have_ipv6() {
    return platform::bind_closed(ipv6_loopback()).ok();
}

std::vector<Listener> listeners_on(std::uint16_t port) {
    auto table = platform::list_listeners(port);
    INFO((table ? "" : table.error().message));
    REQUIRE(table.ok());
    for (const auto& l : table->listeners)
        CHECK(l.bound.port == port); // the filter holds
    return table->listeners;
}

/// The port in a "listening on ADDRESS[ (...)]" line of `loopcheck listen`.
std::uint16_t port_in(const std::string& line) {
    const auto colon =
        line.rfind(':', line.find(" (") == std::string::npos ? std::string::npos : line.find(" ("));
    REQUIRE(colon != std::string::npos);
    return static_cast<std::uint16_t>(std::stoi(line.substr(colon + 1)));
}

/// Polls `done` for up to 10 s: for what another process does in its own time.
template <class F>
bool eventually(F done) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!done()) {
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(20ms);
    }
    return true;
}

#ifdef __linux__
constexpr bool names_processes = true; // the only implementation run here
#else
constexpr bool names_processes = false;
#endif

} // namespace

TEST_CASE("the table shows this process's listener: address, pid, name",
          "[listeners][integration]") {
    Net net;
    auto l = listener(make_ipv4(127, 0, 0, 1));
    const auto port = port_of(l);
    const auto seen = listeners_on(port);
    REQUIRE(seen.size() == 1);
    CHECK(endpoint_string(seen[0].bound) == "127.0.0.1:" + std::to_string(port));
    CHECK_FALSE(seen[0].v6only); // IPv4: no such flag
    if (names_processes || seen[0].pid) {
        REQUIRE(seen[0].pid);
        CHECK(static_cast<int>(*seen[0].pid) == current_pid());
    } else {
        WARN("the listener table names no owner here (Wine reports pid 0)");
    }
    if (names_processes)
        CHECK(seen[0].process == "loopcheck_e2e_t");

    // Every port: the same listener is in the full table too.
    auto all = platform::list_listeners(std::nullopt);
    REQUIRE(all.ok());
    CHECK(std::count(all->listeners.begin(), all->listeners.end(), seen[0]) == 1);
}

TEST_CASE("a bound socket that does not listen is not a listener", "[listeners][integration]") {
    Net net;
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(closed.ok());
    CHECK(listeners_on(port_of(*closed)).empty());
}

TEST_CASE("IPv6 listeners carry IPV6_V6ONLY", "[listeners][integration]") {
    Net net;
    if (!have_ipv6())
        LC_SKIP("IPv6 loopback is not available on this machine");
    // One port, both families: another process may hold the IPv4 side of
    // the port picked for IPv6, so try a few.
    platform::Socket v6, v4;
    std::uint16_t port = 0;
    for (int attempt = 0; attempt < 20 && !v4.valid(); ++attempt) {
        v6 = listener(ipv6_loopback(), true);
        port = port_of(v6);
        if (auto s = platform::open_listener({make_ipv4(127, 0, 0, 1, port), true, 16}))
            v4 = std::move(*s);
    }
    REQUIRE(v4.valid());
    const auto seen = listeners_on(port);
    REQUIRE(seen.size() == 2);
    CHECK(seen[0].bound.family == Family::ipv4); // IPv4 first
    CHECK(endpoint_string(seen[1].bound) == "[::1]:" + std::to_string(port));
    if (names_processes)
        CHECK(seen[1].v6only == true);

    Address any6;
    any6.family = Family::ipv6;
    auto dual = listener(any6, false);
    const auto dual_seen = listeners_on(port_of(dual));
    REQUIRE(dual_seen.size() == 1);
    CHECK(is_unspecified(dual_seen[0].bound));
    CHECK(dual_seen[0].bound.family == Family::ipv6);
    if (names_processes)
        CHECK(dual_seen[0].v6only == false);
    if (names_processes || dual_seen[0].pid)
        CHECK(static_cast<int>(dual_seen[0].pid.value_or(0)) == current_pid());
}

TEST_CASE("loopcheck listen: its sockets, pid and name, and SIGTERM ends it with 0",
          "[listeners][listen][integration]") {
    Net net;
    const bool v6 = have_ipv6();
    std::vector<std::string> argv{LOOPCHECK_EXE, "listen", "127.0.0.1:0"};
    if (v6)
        argv.push_back("[::1]:0");
    for (const char* a : {"--for", "60s"})
        argv.emplace_back(a);
    auto child = Child::start(argv);
    if (!child)
        LC_SKIP("no child processes on this platform");
    auto first = child->read_line(10s);
    REQUIRE(first);
    CHECK(first->rfind("listening on 127.0.0.1:", 0) == 0);
    const auto port4 = port_in(*first);
    CHECK(port4 != 0); // port 0 picked a real one, and said which

    const auto seen = listeners_on(port4);
    REQUIRE(seen.size() == 1);
    REQUIRE(seen[0].pid);
    CHECK(static_cast<int>(*seen[0].pid) == child->pid());
    if (names_processes)
        CHECK(seen[0].process == "loopcheck");

    if (v6) {
        auto second = child->read_line(10s);
        REQUIRE(second);
        CHECK(second->rfind("listening on [::1]:", 0) == 0);
        const auto seen6 = listeners_on(port_in(*second));
        REQUIRE(seen6.size() == 1);
        CHECK(static_cast<int>(seen6[0].pid.value_or(0)) == child->pid());
        if (names_processes)
            CHECK(seen6[0].v6only == true);
    }

    // It accepts, and says so on stderr with the peer address.
    std::vector<ProbeSpec> specs{{make_ipv4(127, 0, 0, 1, port4)}};
    CHECK(probe(specs, 5s)[0].outcome == Outcome::accepted);
    CHECK(eventually([&] { return child->stderr_text().find("accepted") != std::string::npos; }));

    child->signal(SIGTERM);
    CHECK(child->wait(10s) == 0);
    const auto err = child->stderr_text();
    INFO(err);
    CHECK(err.find("accepted 127.0.0.1:") != std::string::npos);
    CHECK(err.find("on 127.0.0.1:" + std::to_string(port4)) != std::string::npos);
    CHECK(err.find("stopped after 1 connection(s)") != std::string::npos);
    CHECK(listeners_on(port4).empty()); // gone with it
}

TEST_CASE("ListenOverflows rises when a listener's accept queue overflows",
          "[listeners][integration]") {
    Net net;
    const auto before = platform::listen_overflows();
#ifndef __linux__
    CHECK_FALSE(before.has_value()); // no counter is read elsewhere
#else
    REQUIRE(before.has_value()); // /proc/net/netstat is always there on Linux
    // Backlog 0 never accepted: the queue holds one connection; the next
    // SYNs are dropped, and each drop counts.
    auto l = listener(make_ipv4(127, 0, 0, 1), true, 0);
    const auto target = make_ipv4(127, 0, 0, 1, port_of(l));
    platform::ConnectSet set;
    std::vector<platform::ConnectSet::Id> ids;
    for (int i = 0; i < 4; ++i) {
        auto id = set.start({target, SynPolicy::system_default, 0});
        REQUIRE(id.has_value());
        ids.push_back(*id);
    }
    // Long enough for the SYNs to arrive, short of a retransmission (1 s).
    const auto until = platform::monotonic_now() + 300ms;
    while (platform::monotonic_now() < until)
        (void)set.wait(until - platform::monotonic_now());
    const auto after = platform::listen_overflows();
    REQUIRE(after.has_value());
    CHECK(*after > *before);
#endif
}
