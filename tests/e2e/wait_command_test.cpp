// `loopcheck wait` end to end: the real binary against listeners this test
// opens after a delay, on one family, the other, or both.
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/platform/platform.hpp"
#include "support/catch.hpp"
#include "support/child.hpp"
#include "support/helpers.hpp"
#include "support/process.hpp"

#include <chrono>
#include <csignal>
#include <cstdint>
#include <fmt/format.h>
#include <string>
#include <thread>
#include <vector>

#ifndef _WIN32
#include <sys/resource.h>
#endif

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

namespace {

/// Reserves a port on each address in `binds` (the same port on all, so a
/// name's addresses share it), closed until open() makes them listen.
class LateListeners {
public:
    explicit LateListeners(std::vector<Address> binds) : binds_(std::move(binds)) {
        for (int attempt = 0; attempt < 20 && held_.empty(); ++attempt) {
            auto first = platform::bind_closed(binds_[0]);
            REQUIRE(first.ok());
            port_ = port_of(*first);
            held_.push_back(std::move(*first));
            for (std::size_t i = 1; i < binds_.size(); ++i) {
                Address a = binds_[i];
                a.port = port_;
                auto s = platform::bind_closed(a);
                if (!s) { // taken on this family: try another port
                    held_.clear();
                    break;
                }
                held_.push_back(std::move(*s));
            }
        }
        REQUIRE_FALSE(held_.empty());
    }
    ~LateListeners() {
        if (opener_.joinable())
            opener_.join();
    }
    LateListeners(const LateListeners&) = delete;
    LateListeners& operator=(const LateListeners&) = delete;

    [[nodiscard]] std::uint16_t port() const { return port_; }

    /// After `delay`, swaps each reservation for a listener on its port.
    void open_after(std::chrono::milliseconds delay) {
        opener_ = std::thread([this, delay] {
            std::this_thread::sleep_for(delay);
            for (std::size_t i = 0; i < binds_.size(); ++i) {
                Address a = binds_[i];
                a.port = port_;
                held_[i] = platform::Socket{};
                auto s = platform::open_listener({a, true, 16});
                if (s)
                    listening_.push_back(std::move(*s));
            }
        });
    }

    [[nodiscard]] std::size_t listening() {
        if (opener_.joinable())
            opener_.join();
        return listening_.size();
    }

private:
    std::vector<Address> binds_;
    std::vector<platform::Socket> held_;
    std::vector<platform::Socket> listening_;
    std::uint16_t port_ = 0;
    std::thread opener_;
};

/// How long the binary surely takes to start and poll once: the listener
/// changes after that, so the first polls see the state before. Under Wine
/// a start alone takes a second or more.
#ifdef _WIN32
constexpr auto startup_margin = 3000ms;
#else
constexpr auto startup_margin = 300ms;
#endif

const Address any_v4 = make_ipv4(127, 0, 0, 1);
const Address any_v6 = ipv6_loopback();

std::string ep(const char* host, std::uint16_t port) {
    return std::string(host) + ":" + std::to_string(port);
}

#ifndef _WIN32
/// Waits (at most 10 s) until the child has started its second poll: with
/// -vv the binary traces every connect ("connect(ADDRESS) -> ..."), and the
/// second starts only when the first has ended. A test can then change the
/// listener after a poll that saw the old state, however slowly a loaded
/// machine started the binary.
bool polled_once(const Child& child) {
    const auto end = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < end) {
        const auto text = child.stderr_text();
        const auto first = text.find("trace connect(");
        if (first != std::string::npos &&
            text.find("trace connect(", first + 1) != std::string::npos)
            return true;
        std::this_thread::sleep_for(10ms);
    }
    return false;
}

std::string rest_of_stdout(Child& child) {
    std::string out;
    while (auto line = child.read_line(1000ms))
        out += *line + "\n";
    return out;
}
#endif

} // namespace

TEST_CASE("wait: a listener that appears after a delay ends the wait", "[wait][cli]") {
    Net net;
    SECTION("IPv4 only") {
        LateListeners late({any_v4});
#ifndef _WIN32
        // The listener opens once a poll has found the port closed.
        auto child = Child::start(
            {LOOPCHECK_EXE, "wait", "--for", "10s", "--json", "-vv", ep("127.0.0.1", late.port())});
        REQUIRE(child);
        REQUIRE(polled_once(*child));
        late.open_after(0ms);
        const auto code = child->wait(10000ms);
        const auto out = rest_of_stdout(*child);
        INFO(out << child->stderr_text());
        CHECK(late.listening() == 1);
        REQUIRE(code);
        CHECK(*code == exit_code::healthy);
        CHECK(contains(out, "\"winner\": \"127.0.0.1\""));
        CHECK(contains(out, "\"outcome\": \"refused\"")); // the poll before
#else
        late.open_after(startup_margin);
        const auto t0 = std::chrono::steady_clock::now();
        auto r = run_loopcheck({"wait", "--for", "10s", "--json", ep("127.0.0.1", late.port())});
        const auto took = std::chrono::steady_clock::now() - t0;
        INFO(r.out << r.err);
        CHECK(late.listening() == 1);
        CHECK(r.exit_code == exit_code::healthy);
        CHECK(contains(r.out, "\"winner\": \"127.0.0.1\""));
        CHECK(took >= startup_margin);
        // Ended by the listener, not by --for: said by the report, not by a
        // clock (a loaded Wine starts a process in anything up to seconds).
        CHECK(contains(r.out, "\"timed_out\": false"));
#endif
    }
    SECTION("IPv6 only") {
        LateListeners late({any_v6});
        late.open_after(startup_margin);
        auto r = run_loopcheck({"wait", "--for", "10s", "--json", ep("[::1]", late.port())});
        INFO(r.out << r.err);
        CHECK(late.listening() == 1);
        CHECK(r.exit_code == exit_code::healthy);
        CHECK(contains(r.out, "\"winner\": \"::1\""));
    }
    SECTION("dual-stack, every address") {
        LateListeners late({any_v4, any_v6});
        late.open_after(startup_margin);
        auto r = run_loopcheck({"wait", "--for", "10s", "--all-addresses", "--strict",
                                ep("127.0.0.1", late.port()), ep("[::1]", late.port())});
        INFO(r.out << r.err);
        CHECK(late.listening() == 2);
        CHECK(r.exit_code == exit_code::healthy);
        CHECK(contains(r.out, "up on 127.0.0.1 after"));
        CHECK(contains(r.out, "up on ::1 after"));
    }
}

TEST_CASE("wait: a listener on the other family runs out the wait and is named", "[wait][cli]") {
    Net net;
    auto l6 = listener(ipv6_loopback());
    const auto port = port_of(l6);
    auto r = run_loopcheck({"wait", "--for", "400ms", ep("127.0.0.1", port)});
    INFO(r.out << r.err);
    CHECK(r.exit_code == exit_code::server_down);
    CHECK(contains(r.out, "not up after 400 ms"));
    // The owner is this test process where the table shows it. The finding
    // wraps at the width: read it as one paragraph.
    std::string flat;
    for (const char c : r.out)
        if (c == '\r') // Windows' text-mode line ends
            continue;
        else if (c != '\n' || (!flat.empty() && flat.back() != ' '))
            flat += c == '\n' ? ' ' : c;
    for (std::size_t at; (at = flat.find("  ")) != std::string::npos;)
        flat.erase(at, 1);
    CHECK(contains(flat, "listens on [::1]:" + std::to_string(port)));
    CHECK(contains(flat, "which 127.0.0.1:" + std::to_string(port) + " does not reach"));
}

TEST_CASE("wait: nothing listening and a short --for exits 3 on time", "[wait][cli]") {
    Net net;
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(closed.ok());
    const auto port = port_of(*closed);
    const auto t0 = std::chrono::steady_clock::now();
    auto r = run_loopcheck({"wait", "--for", "300ms", "--json", ep("127.0.0.1", port)});
    const auto took = std::chrono::steady_clock::now() - t0;
    INFO(r.out << r.err);
    CHECK(r.exit_code == exit_code::server_down);
    CHECK(took >= 300ms);
    // A hang guard, far from any start-up time: the default --for is 30 s.
    CHECK(took < 20s);
    CHECK(contains(r.out, "\"timed_out\": true"));
    CHECK(contains(r.out, "nothing listens on port " + std::to_string(port)));
}

TEST_CASE("wait --down: ends when the listener closes", "[wait][cli]") {
    Net net;
    // A deep queue: nothing accepts the polls, and a full queue drops SYNs.
    auto l = listener(make_ipv4(127, 0, 0, 1), true, 1024);
    const auto port = port_of(l);
#ifndef _WIN32
    // Closed once a poll has found it listening.
    auto child = Child::start(
        {LOOPCHECK_EXE, "wait", "--down", "--for", "10s", "--json", "-vv", ep("127.0.0.1", port)});
    REQUIRE(child);
    REQUIRE(polled_once(*child));
    l = platform::Socket{};
    const auto code = child->wait(10000ms);
    const auto out = rest_of_stdout(*child);
    INFO(out << child->stderr_text());
    REQUIRE(code);
    CHECK(*code == exit_code::healthy);
    CHECK(contains(out, "\"goal\": \"down\""));
    CHECK(contains(out, "\"outcome\": \"accepted\"")); // it was up at first
    CHECK(contains(out, "\"outcome\": \"refused\""));
#else
    std::thread closer([&l] {
        std::this_thread::sleep_for(startup_margin);
        l = platform::Socket{};
    });
    auto r = run_loopcheck({"wait", "--down", "--for", "10s", "--json", ep("127.0.0.1", port)});
    closer.join();
    INFO(r.out << r.err);
    CHECK(r.exit_code == exit_code::healthy);
    CHECK(contains(r.out, "\"goal\": \"down\""));
    CHECK(contains(r.out, "\"outcome\": \"refused\""));
#endif

    // And a listener that stays: --down runs out.
    auto stays = listener(make_ipv4(127, 0, 0, 1));
    auto r2 = run_loopcheck({"wait", "--down", "--for", "300ms", ep("127.0.0.1", port_of(stays))});
    INFO(r2.out << r2.err);
    CHECK(r2.exit_code == exit_code::server_down);
    CHECK(contains(r2.out, "still accepting after 300 ms"));
}

TEST_CASE("wait: with several targets, one never up fails the wait", "[wait][cli]") {
    Net net;
    auto up = listener(make_ipv4(127, 0, 0, 1));
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(closed.ok());
    auto r = run_loopcheck({"wait", "--for", "300ms", ep("127.0.0.1", port_of(up)),
                            ep("127.0.0.1", port_of(*closed))});
    INFO(r.out << r.err);
    CHECK(r.exit_code == exit_code::server_down);
    CHECK(contains(r.out, ep("127.0.0.1", port_of(up)) + ": up on 127.0.0.1"));
    CHECK(contains(r.out, ep("127.0.0.1", port_of(*closed)) + ": not up"));
}

TEST_CASE("wait: bad input is one line and exit 2, nothing waited for", "[wait][cli]") {
    const std::vector<std::vector<std::string>> cases = {
        {"wait"},
        {"wait", "localhost:0"},
        {"wait", "--for", "soon", "localhost:80"},
        {"wait", "--for", "0", "localhost:80"},
        {"wait", "--interval", "0", "localhost:80"},
        {"wait", "--interval", "2m", "localhost:80"},
        {"wait", "--down", "--strict", "localhost:80"},
        {"wait", "--down", "--all-addresses", "localhost:80"},
        {"wait", "--json", "--markdown", "localhost:80"},
    };
    for (const auto& args : cases) {
        const auto t0 = std::chrono::steady_clock::now();
        auto r = run_loopcheck(args);
        INFO(args.back() << " stderr: " << r.err);
        CHECK(r.exit_code == exit_code::usage);
        CHECK(r.out.empty());
        CHECK(lines(r.err).size() == 1);
        // Refused before any poll: far below the default --for of 30 s
        // whatever a loaded machine's start-up costs.
        CHECK(std::chrono::steady_clock::now() - t0 < 20s);
    }
}

TEST_CASE("wait: a name that never resolves is asked for until --for, then exit 4", "[wait][cli]") {
    // A compose service's name appears only when its container starts: the
    // wait asks again (every 250 ms) instead of giving up at once.
    auto r = run_loopcheck({"wait", "--for", "1s", "no-such-host.invalid:80"});
    INFO(r.out << r.err);
    CHECK(r.exit_code == exit_code::unresolved);
    CHECK(contains(r.out, "did not resolve in 1.0"));
    CHECK(contains(r.out, "tries)"));
}

#ifndef _WIN32
TEST_CASE("wait: Ctrl-C exits 130, SIGTERM 143, with the report so far", "[wait][cli]") {
    const int signal = GENERATE(SIGINT, SIGTERM);
    Net net;
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(closed.ok());
    auto child = Child::start({LOOPCHECK_EXE, "wait", "--json", "-vv", "--for", "30s",
                               ep("127.0.0.1", port_of(*closed))});
    REQUIRE(child);
    // Interrupted after its first refusal, however slowly it started.
    REQUIRE(polled_once(*child));
    child->signal(signal);
    const auto code = child->wait(5000ms);
    REQUIRE(code);
    CHECK(*code == (signal == SIGTERM ? exit_code::terminated : exit_code::interrupted));
    const auto out = rest_of_stdout(*child);
    CHECK(contains(out, "\"interrupted\": true"));
    CHECK(contains(out, fmt::format("\"exit_code\": {}", *code)));
    CHECK(contains(out, "\"outcome\": \"refused\""));
}
#endif

#ifndef _WIN32
namespace {
double children_cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_CHILDREN, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}
} // namespace

TEST_CASE("wait: the pause between polls is a sleep, not a busy loop", "[wait][cli]") {
    Net net;
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(closed.ok());
    const auto target = ep("127.0.0.1", port_of(*closed));
    // The CPU of a 2 s wait less that of a 0.1 s one: what the waiting
    // itself costs, without the start-up (an ASan build's is a large,
    // machine-dependent share).
    auto cpu_of = [&](const char* limit) {
        const double before = children_cpu_seconds();
        auto r = run_loopcheck({"wait", "--for", limit, target});
        CHECK(r.exit_code == exit_code::server_down);
        return children_cpu_seconds() - before;
    };
    const double short_wait = cpu_of("100ms");
    const double long_wait = cpu_of("2s");
    const double waiting = long_wait - short_wait;
    INFO("CPU " << long_wait << " s for a 2 s wait, " << short_wait << " s for 0.1 s");
    // About 40 polls a second cost a few percent of a core; a busy loop
    // costs most of the 1.9 s between the two.
    CHECK(waiting < 0.6);
}
#endif
