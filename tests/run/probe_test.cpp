// The platform layer against real sockets the test opens itself.
#include "loopcheck/platform/platform.hpp"
#include "platform/common/connect_book.hpp"
#include "run/probe.hpp"
#include "support/catch.hpp"
#include "support/helpers.hpp"

#include <thread>
#include <utility>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

namespace {

/// A V6ONLY listener on ::1 and its port held closed (bound, not
/// listening) on 127.0.0.1, so a connect there is refused for certain. The
/// port is the kernel's pick for ::1; when another program holds it on
/// 127.0.0.1 (tests run in parallel), the next pick is tried.
std::pair<platform::Socket, platform::Socket> ipv6_listener_ipv4_closed() {
    for (int attempt = 0; attempt < 20; ++attempt) {
        auto l = listener(ipv6_loopback(), true);
        auto held = platform::bind_closed(make_ipv4(127, 0, 0, 1, port_of(l)));
        if (held)
            return {std::move(l), std::move(*held)};
    }
    FAIL("no port free on both ::1 and 127.0.0.1 in 20 tries");
    return {};
}

bool have_ipv6() {
    return platform::bind_closed(ipv6_loopback()).ok();
}

/// The timeout for probes that take the system's SYN retries. A default
/// Windows stack needs 2.02-2.10 s to report a refused loopback connect
/// (four retries about 500 ms apart; docs/windows.md), GitHub's Windows
/// images included, so 2 s would turn those refusals into timeouts. 10 s
/// leaves room for a slow runner; a refusal ends the wait long before it.
constexpr Micros refusal_timeout = 10s;

Sample probe_one(const Address& a, Micros timeout = refusal_timeout) {
    std::vector<ProbeSpec> specs{{a}};
    auto r = probe(specs, timeout);
    REQUIRE(r.size() == 1);
    return r[0];
}

} // namespace

TEST_CASE("a closed port is refused with ECONNREFUSED", "[probe][integration]") {
    Net net;
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(closed.ok());
    auto s = probe_one(make_ipv4(127, 0, 0, 1, port_of(*closed)));
    CHECK(s.outcome == Outcome::refused);
    CHECK(s.native_name.find("CONNREFUSED") != std::string::npos);
    CHECK(s.latency > 0us);
    CHECK(s.option == OptionState::not_requested);
}

TEST_CASE("IPv4-only listener: 127.0.0.1 accepts, ::1 refuses", "[probe][integration]") {
    Net net;
    auto l = listener(make_ipv4(127, 0, 0, 1));
    const auto port = port_of(l);
    std::vector<ProbeSpec> specs{{make_ipv4(127, 0, 0, 1, port)}};
    if (have_ipv6())
        specs.push_back({ipv6_loopback(port)});
    auto r = probe(specs, refusal_timeout);
    REQUIRE(r.size() == specs.size());
    CHECK(r[0].outcome == Outcome::accepted);
    CHECK(r[0].native_code == 0);
    if (r.size() > 1)
        CHECK(r[1].outcome == Outcome::refused);
}

TEST_CASE("IPv6-only listener (V6ONLY): ::1 accepts, 127.0.0.1 refuses", "[probe][integration]") {
    Net net;
    if (!have_ipv6())
        LC_SKIP("IPv6 loopback is not available on this machine");
    const auto [l, v4_hold] = ipv6_listener_ipv4_closed();
    const auto port = port_of(l);
    std::vector<ProbeSpec> specs{{ipv6_loopback(port)}, {make_ipv4(127, 0, 0, 1, port)}};
    auto r = probe(specs, refusal_timeout);
    CHECK(r[0].outcome == Outcome::accepted);
    CHECK(r[1].outcome == Outcome::refused);
}

TEST_CASE("dual-stack listener ([::], V6ONLY off) accepts both families", "[probe][integration]") {
    Net net;
    if (!have_ipv6())
        LC_SKIP("IPv6 is not available on this machine");
    Address any6;
    any6.family = Family::ipv6;
    auto l = listener(any6, false);
    const auto port = port_of(l);
    std::vector<ProbeSpec> specs{{ipv6_loopback(port)}, {make_ipv4(127, 0, 0, 1, port)}};
    auto r = probe(specs, refusal_timeout);
    CHECK(r[0].outcome == Outcome::accepted);
    CHECK(r[1].outcome == Outcome::accepted);
}

TEST_CASE("a listener whose queue is full lets a connect time out", "[probe][integration]") {
    Net net;
    // Backlog 0: Linux queues one connection, then drops further SYNs
    // without an answer, which is what a filtering firewall looks like.
    auto l = listener(make_ipv4(127, 0, 0, 1), true, 0);
    const auto addr = make_ipv4(127, 0, 0, 1, port_of(l));
    std::vector<Sample> seen;
    for (int i = 0; i < 4; ++i) {
        auto s = probe_one(addr, 300ms);
        seen.push_back(s);
        if (s.outcome == Outcome::timeout)
            break;
    }
    // Windows answers a SYN beyond a full backlog with a reset
    // (learn.microsoft.com .../winsock2/nf-winsock2-listen); Wine passes the
    // backlog to the Linux host and behaves like Linux.
    if (seen.back().outcome == Outcome::refused && platform::system_facts().os == Os::windows)
        LC_SKIP("Windows refuses connects beyond a full backlog instead of dropping them");
    REQUIRE(seen.back().outcome == Outcome::timeout);
    CHECK(seen.back().latency >= 300ms);
    CHECK(seen.back().latency < 10s); // our timeout, not the stack's (~2 min of SYN retries)
    CHECK(seen.front().outcome == Outcome::accepted);
}

TEST_CASE("results come back in spec order, one per spec", "[probe][integration]") {
    Net net;
    // A backlog above the number of connects: the test never accepts.
    auto l = listener(make_ipv4(127, 0, 0, 1), true, 128);
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(closed.ok());
    const auto open_addr = make_ipv4(127, 0, 0, 1, port_of(l));
    const auto closed_addr = make_ipv4(127, 0, 0, 1, port_of(*closed));
    std::vector<ProbeSpec> specs;
    for (int i = 0; i < 40; ++i)
        specs.push_back({i % 2 == 0 ? open_addr : closed_addr});
    auto r = probe(specs, refusal_timeout);
    REQUIRE(r.size() == specs.size());
    for (std::size_t i = 0; i < r.size(); ++i)
        CHECK(r[i].outcome == (i % 2 == 0 ? Outcome::accepted : Outcome::refused));
}

TEST_CASE("the progress callback reports the oldest pending probe", "[probe][integration]") {
    Net net;
    auto l = listener(make_ipv4(127, 0, 0, 1), true, 0);
    const auto addr = make_ipv4(127, 0, 0, 1, port_of(l));
    (void)probe_one(addr, 300ms); // fill the one-slot queue
    std::vector<ProbeSpec> specs{{addr}};
    int calls = 0;
    const ProbeSpec* oldest = nullptr;
    auto r = probe(specs, 400ms, [&](const ProbeProgress& p) {
        ++calls;
        oldest = p.oldest;
    });
    if (r[0].outcome != Outcome::timeout)
        LC_SKIP("the full queue did not hold the SYN here");
    CHECK(calls >= 1);
    CHECK(oldest == &specs[0]);
}

TEST_CASE("resolve keeps the resolver's order and sets the port", "[probe][integration]") {
    Net net;
    auto r = platform::resolve("localhost", 8080, FamilyFilter::any);
    REQUIRE(r.ok());
    REQUIRE_FALSE(r->empty());
    for (const auto& a : *r) {
        CHECK(a.port == 8080);
        CHECK(is_loopback(a));
    }
    auto v4 = platform::resolve("localhost", 1, FamilyFilter::ipv4);
    REQUIRE(v4.ok());
    for (const auto& a : *v4)
        CHECK(a.family == Family::ipv4);

    auto bad = platform::resolve("nosuch.invalid", 80, FamilyFilter::any);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().kind == ErrorKind::resolve);
    CHECK(bad.error().message.find("nosuch.invalid") != std::string::npos);
}

TEST_CASE("system facts name the OS", "[probe][integration]") {
    auto f = platform::system_facts();
    CHECK_FALSE(f.os_name.empty());
    CHECK_FALSE(f.os_version.empty());
    CHECK_FALSE(f.hosts_file.empty());
}

TEST_CASE("the SYN-retry option is applied, or refused with the OS's code",
          "[probe][integration]") {
    Net net;
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(closed.ok());
    const auto addr = make_ipv4(127, 0, 0, 1, port_of(*closed));
    std::vector<ProbeSpec> specs{{addr, SynPolicy::no_retries, 0},
                                 {addr, SynPolicy::fixed, 2},
                                 {addr, SynPolicy::fixed, 0},
                                 {addr, SynPolicy::system_default, 0}};
    auto r = probe(specs, refusal_timeout);
    REQUIRE(r.size() == specs.size());
    for (const auto& s : r)
        CHECK(s.outcome == Outcome::refused); // a refused option never stops the probe
    CHECK(r[3].option == OptionState::not_requested);
    const auto os = platform::system_facts().os;
    if (os == Os::linux_) {
        // Linux has no "no retries after a reset": it never retries one.
        CHECK(r[0].option == OptionState::unsupported);
        CHECK(r[1].option == OptionState::applied); // TCP_SYNCNT 2
        // TCP_SYNCNT takes 1..255 (tcp(7)).
        CHECK(r[2].option == OptionState::refused);
        CHECK(r[2].option_error_name == "EINVAL");
        // TCP_INFO stays readable after the refusal: no SYN was resent.
        CHECK(r[1].syn_retransmissions == 0);
    } else if (os == Os::windows) {
        for (std::size_t i = 0; i < 3; ++i) {
            INFO(i << ": " << option_state_name(r[i].option) << " " << r[i].option_error_name);
            // Applied on Windows 8 and later; Wine answers WSAEOPNOTSUPP.
            CHECK((r[i].option == OptionState::applied || r[i].option == OptionState::refused));
            if (r[i].option == OptionState::refused) {
                CHECK(r[i].option_error != 0);
                CHECK(r[i].option_error_name.rfind("WSAE", 0) == 0);
            }
        }
    }
}

TEST_CASE("interrupt_waits() ends a wait on a connect that hangs", "[probe][integration]") {
    // What the Windows console handler does after a Ctrl-C: it runs on a
    // thread of its own, so only this wakes the select() in wait().
    Net net;
    // A connect that stays pending: a listener whose one-slot queue is full
    // (Linux and Wine drop the SYN; Windows refuses it, and then there is
    // nothing pending to wake).
    auto l = listener(make_ipv4(127, 0, 0, 1), true, 0);
    const auto addr = make_ipv4(127, 0, 0, 1, port_of(l));
    for (int i = 0; i < 3 && probe_one(addr, 300ms).outcome != Outcome::timeout; ++i) {
    }
    platform::ConnectSet set;
    const auto id = set.start({addr});
    REQUIRE(id);
    const auto first = set.wait(200ms);
    if (!first.empty())
        LC_SKIP("no connect stays pending here (a full queue refuses it)");
    if (!platform::interrupt_waits())
        LC_SKIP("no wake path on this platform: a signal interrupts poll() itself");

    // The wake was sent before this wait: it must not be lost.
    auto t0 = platform::monotonic_now();
    auto done = set.wait(10s);
    CHECK(done.empty());
    CHECK(platform::monotonic_now() - t0 < 5s); // woken, not the 10 s

    // A wake from another thread while the wait sleeps.
    std::thread waker([] {
        std::this_thread::sleep_for(300ms);
        platform::interrupt_waits();
    });
    t0 = platform::monotonic_now();
    done = set.wait(10s);
    const auto waited = platform::monotonic_now() - t0;
    waker.join();
    CHECK(done.empty());
    CHECK(waited >= 250ms);
    CHECK(waited < 5s); // woken, not the 10 s it was given
    CHECK(set.pending() == 1);

    // Drained: the next wait sleeps again until its own timeout.
    t0 = platform::monotonic_now();
    done = set.wait(300ms);
    CHECK(done.empty());
    CHECK(platform::monotonic_now() - t0 >= 250ms);
    (void)set.abandon(*id);
}

namespace {
int closed_handles = 0;
void fake_close(int& handle, Sample& sample) {
    ++closed_handles;
    sample.syn_retransmissions = 0;
    handle = -1;
}
} // namespace

TEST_CASE("a failed wait ends every pending connect with its code, once", "[probe]") {
    // select() (Windows) or poll() failing must end the wait: before, the
    // wait returned nothing and the probe loop called it again at once.
    platform::detail::ConnectBook<int, -1, fake_close> book;
    closed_handles = 0;
    for (int i = 0; i < 3; ++i) {
        book.entries.push_back({10 + i, Micros{1000 * i}, {}});
        book.open.push_back(static_cast<platform::ConnectSet::Id>(i));
    }
    book.entries[1].sample.option = OptionState::applied;
    Sample failed;
    failed.outcome = Outcome::error;
    failed.native_code = 10055; // WSAENOBUFS
    failed.native_name = "select: WSAENOBUFS";
    const auto done = book.fail_open(failed, Micros{5000});
    REQUIRE(done.size() == 3);
    CHECK(book.open.empty());
    CHECK(book.pending() == 0);
    CHECK(closed_handles == 3);
    for (std::size_t i = 0; i < done.size(); ++i) {
        INFO(i);
        CHECK(done[i].id == i);
        CHECK(done[i].sample.outcome == Outcome::error);
        CHECK(done[i].sample.native_code == 10055);
        CHECK(done[i].sample.native_name == "select: WSAENOBUFS");
        CHECK(done[i].sample.latency == Micros{5000 - 1000 * static_cast<int>(i)});
        CHECK(book.entries[i].handle == -1);
    }
    CHECK(done[1].sample.option == OptionState::applied); // what start() noted stays
    CHECK(book.fail_open(failed, Micros{6000}).empty());  // nothing left to end
}
