// `loopcheck wait`'s decisions over constructed polls: when the wait is
// over, who won, the order finding, and why a wait ran out.
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/measure/wait.hpp"
#include "support/catch.hpp"

#include <cstdint>
#include <string>

using namespace loopcheck;

namespace {

Micros ms(int n) {
    return Micros{n * 1000};
}

Address v4(std::uint16_t port) {
    return make_ipv4(127, 0, 0, 1, port);
}
Address v6(std::uint16_t port) {
    return ipv6_loopback(port);
}

/// localhost:PORT resolving to ::1 then 127.0.0.1.
WaitTarget localhost(std::uint16_t port) {
    WaitTarget t;
    t.target = *parse_target("localhost:" + std::to_string(port));
    t.addresses.push_back({v6(port), {}, {}, false, {}, 0, {}});
    t.addresses.push_back({v4(port), {}, {}, false, {}, 0, {}});
    return t;
}

WaitReport report_of(WaitTarget t, WaitGoal goal = WaitGoal::any_address) {
    WaitReport r;
    r.goal = goal;
    r.limit = ms(500);
    r.targets.push_back(std::move(t));
    return r;
}

bool has_text(const WaitReport& r, const std::string& needle) {
    for (const auto& f : r.findings)
        if (f.message.find(needle) != std::string::npos)
            return true;
    return false;
}

} // namespace

TEST_CASE("wait: polls are run-length encoded and the first accept is kept", "[wait]") {
    WaitAddress a{v4(80), {}, {}, false, {}, 0, {}};
    record_poll(a, WaitGoal::any_address, Outcome::refused, ms(1));
    record_poll(a, WaitGoal::any_address, Outcome::refused, ms(26));
    record_poll(a, WaitGoal::any_address, Outcome::refused, ms(51));
    CHECK_FALSE(a.reached);
    record_poll(a, WaitGoal::any_address, Outcome::accepted, ms(76));
    REQUIRE(a.timeline.size() == 2);
    CHECK(a.timeline[0].polls == 3);
    CHECK(a.timeline[0].from == ms(1));
    CHECK(a.timeline[0].to == ms(51));
    CHECK(a.timeline[1].outcome == Outcome::accepted);
    CHECK(a.first_accept == ms(76));
    CHECK(a.reached);
}

TEST_CASE("wait: any address, every address, or none", "[wait]") {
    auto t = localhost(3000);
    record_poll(t.addresses[0], WaitGoal::any_address, Outcome::refused, ms(1));
    CHECK_FALSE(target_done(t, WaitGoal::any_address));
    record_poll(t.addresses[1], WaitGoal::any_address, Outcome::accepted, ms(2));
    CHECK(target_done(t, WaitGoal::any_address));
    CHECK_FALSE(target_done(t, WaitGoal::all_addresses));
    record_poll(t.addresses[0], WaitGoal::all_addresses, Outcome::accepted, ms(3));
    CHECK(target_done(t, WaitGoal::all_addresses));

    auto d = localhost(3000);
    record_poll(d.addresses[0], WaitGoal::down, Outcome::refused, ms(1));
    record_poll(d.addresses[1], WaitGoal::down, Outcome::accepted, ms(1));
    CHECK_FALSE(target_done(d, WaitGoal::down));
    // No answer is no proof the port is free (a full accept queue).
    record_poll(d.addresses[1], WaitGoal::down, Outcome::timeout, ms(1030));
    CHECK_FALSE(target_done(d, WaitGoal::down));
    record_poll(d.addresses[1], WaitGoal::down, Outcome::refused, ms(1060));
    CHECK(target_done(d, WaitGoal::down));
    CHECK(winning_address(d, WaitGoal::down) == nullptr);

    WaitTarget unresolved = localhost(3000);
    unresolved.resolve_error = Error{ErrorKind::resolve, "no such name"};
    record_poll(unresolved.addresses[1], WaitGoal::any_address, Outcome::accepted, ms(1));
    CHECK_FALSE(target_done(unresolved, WaitGoal::any_address));
}

TEST_CASE("wait: ::1 first refusing while 127.0.0.1 accepts is a warning, an error with "
          "--strict",
          "[wait]") {
    auto t = localhost(8000);
    record_poll(t.addresses[0], WaitGoal::any_address, Outcome::refused, ms(1));
    record_poll(t.addresses[1], WaitGoal::any_address, Outcome::accepted, ms(1));
    t.done_at = ms(1);
    REQUIRE(winning_address(t, WaitGoal::any_address) == &t.addresses[1]);
    REQUIRE(refusing_before_winner(t, WaitGoal::any_address).size() == 1);

    auto r = report_of(t);
    conclude_wait(r);
    CHECK(r.exit_code == exit_code::healthy);
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].severity == WaitSeverity::warning);
    CHECK(has_text(r, "up on 127.0.0.1"));
    CHECK(has_text(r, "[::1]:8000 comes first in resolver order (::1 refused)"));
    CHECK(has_text(r, "Python, .NET"));
    CHECK(has_text(r, "2 s per connection on Windows"));

    r.strict = true;
    conclude_wait(r);
    CHECK(r.exit_code == exit_code::slow);
    CHECK(r.findings[0].severity == WaitSeverity::error);
}

TEST_CASE("wait: up on ::1 only while 127.0.0.1 refuses warns that IPv4-only clients fail, "
          "and keeps the exit code",
          "[wait]") {
    // The check says PARTIAL here (clients-fail); wait said nothing.
    auto t = localhost(8000);
    record_poll(t.addresses[0], WaitGoal::any_address, Outcome::accepted, ms(1));
    record_poll(t.addresses[1], WaitGoal::any_address, Outcome::refused, ms(1));
    t.done_at = ms(1);
    auto r = report_of(t);
    conclude_wait(r);
    CHECK(r.exit_code == exit_code::healthy);
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].id == "clients-fail");
    CHECK(r.findings[0].severity == WaitSeverity::warning);
    CHECK(r.findings[0].message ==
          "up on ::1, but 127.0.0.1 refused: some clients never try ::1 and fail (Java and "
          "Node.js <= 16 try IPv4 only); loopcheck localhost:8000 names them");
    r.strict = true; // wait is about "up": not even --strict fails it
    conclude_wait(r);
    CHECK(r.exit_code == exit_code::healthy);
    CHECK(r.findings.size() == 1);

    // 127.0.0.1 accepting too, or never polled, or IPv4 winning: no such finding.
    auto both = localhost(8000);
    record_poll(both.addresses[0], WaitGoal::any_address, Outcome::accepted, ms(1));
    record_poll(both.addresses[1], WaitGoal::any_address, Outcome::refused, ms(1));
    record_poll(both.addresses[1], WaitGoal::any_address, Outcome::accepted, ms(2));
    auto rb = report_of(both);
    conclude_wait(rb);
    CHECK(rb.findings.empty());
    auto v4_up = localhost(8000);
    record_poll(v4_up.addresses[0], WaitGoal::any_address, Outcome::refused, ms(1));
    record_poll(v4_up.addresses[1], WaitGoal::any_address, Outcome::accepted, ms(1));
    auto rv = report_of(v4_up);
    conclude_wait(rv);
    CHECK_FALSE(has_text(rv, "never try"));
}

TEST_CASE("wait: an earlier address that never answered counts too", "[wait]") {
    auto t = localhost(8000);
    t.addresses[0].unanswered_for = ms(100);
    record_poll(t.addresses[1], WaitGoal::any_address, Outcome::accepted, ms(1));
    t.done_at = ms(1);
    auto r = report_of(t);
    r.strict = true;
    conclude_wait(r);
    CHECK(r.exit_code == exit_code::slow);
    CHECK(has_text(r, "::1 no answer after 100 ms"));
}

TEST_CASE("wait: no finding when the first address wins, or every one accepted", "[wait]") {
    auto t = localhost(8000);
    record_poll(t.addresses[0], WaitGoal::any_address, Outcome::accepted, ms(1));
    t.done_at = ms(1);
    auto r = report_of(t);
    r.strict = true;
    conclude_wait(r);
    CHECK(r.findings.empty());
    CHECK(r.exit_code == exit_code::healthy);
}

TEST_CASE("wait: a wait that ran out says why", "[wait]") {
    SECTION("nothing listens") {
        auto t = localhost(3000);
        record_poll(t.addresses[0], WaitGoal::any_address, Outcome::refused, ms(1));
        record_poll(t.addresses[1], WaitGoal::any_address, Outcome::refused, ms(1));
        t.listeners = std::vector<Listener>{};
        auto r = report_of(t);
        r.timed_out = true;
        conclude_wait(r);
        CHECK(r.exit_code == exit_code::server_down);
        CHECK(has_text(r, "nothing listens on port 3000"));
        CHECK(has_text(r, "::1 refused, 127.0.0.1 refused"));
    }
    SECTION("it listens on the other family") {
        WaitTarget t;
        t.target = *parse_target("127.0.0.1:3000");
        t.addresses.push_back({v4(3000), {}, {}, false, {}, 0, {}});
        record_poll(t.addresses[0], WaitGoal::any_address, Outcome::refused, ms(1));
        Listener node;
        node.bound = v6(3000);
        node.v6only = true;
        node.pid = 77;
        node.process = "node";
        t.listeners = std::vector<Listener>{node};
        auto r = report_of(t);
        r.timed_out = true;
        conclude_wait(r);
        CHECK(r.exit_code == exit_code::server_down);
        CHECK(has_text(r, "node (pid 77) listens on [::1]:3000"));
        CHECK(has_text(r, "which 127.0.0.1:3000 does not reach"));
    }
    SECTION("no answer at all") {
        auto t = localhost(3000);
        record_poll(t.addresses[0], WaitGoal::any_address, Outcome::timeout, ms(1000));
        record_poll(t.addresses[1], WaitGoal::any_address, Outcome::timeout, ms(1000));
        auto r = report_of(t);
        r.timed_out = true;
        conclude_wait(r);
        CHECK(r.exit_code == exit_code::server_down);
        CHECK(has_text(r, "accept queue"));
    }
    SECTION("--down: still accepting") {
        auto t = localhost(3000);
        record_poll(t.addresses[1], WaitGoal::down, Outcome::accepted, ms(1));
        auto r = report_of(t, WaitGoal::down);
        r.timed_out = true;
        conclude_wait(r);
        CHECK(r.exit_code == exit_code::server_down);
        CHECK(has_text(r, "still accepting after 500 ms: [::1]:3000, 127.0.0.1:3000"));
    }
    SECTION("a name that did not resolve") {
        auto t = localhost(3000);
        t.addresses.clear();
        t.resolve_error = Error{ErrorKind::resolve, "cannot resolve 'x'"};
        auto r = report_of(t);
        conclude_wait(r);
        CHECK(r.exit_code == exit_code::unresolved);
        CHECK(has_text(r, "did not resolve"));
    }
    SECTION("interrupted: 130 and no verdict") {
        auto t = localhost(3000);
        auto r = report_of(t);
        r.interrupted = true;
        conclude_wait(r);
        CHECK(r.exit_code == exit_code::interrupted);
        CHECK(r.findings.empty());
    }
}

TEST_CASE("wait: the live line names each address's state", "[wait]") {
    auto t = localhost(8000);
    record_poll(t.addresses[0], WaitGoal::any_address, Outcome::refused, ms(1));
    record_poll(t.addresses[1], WaitGoal::any_address, Outcome::refused, ms(1));
    auto r = report_of(t);
    CHECK(wait_status_line(r, ms(3200)) ==
          "waiting for localhost:8000: ::1 refused, 127.0.0.1 refused - 3.2 s");
}

TEST_CASE("wait: an HTTP target is up on an expected answer, not on an accept", "[wait][http]") {
    auto t = localhost(8000);
    t.http = WaitHttp{"/health?token=x", "/health?token=***"};
    const auto expect = default_expected_statuses();
    auto& v4a = t.addresses[1];
    record_poll(t.addresses[0], WaitGoal::any_address, Outcome::refused, ms(1));
    record_poll(v4a, WaitGoal::any_address, Outcome::accepted, ms(1), true);
    CHECK_FALSE(v4a.reached); // an accept alone is not enough
    CHECK(v4a.first_accept == ms(1));
    record_answer(v4a, read_answer({ExchangeEnd::head, "HTTP/1.1 503 Service Unavailable\r\n\r\n"}),
                  expect);
    CHECK_FALSE(v4a.reached);
    CHECK_FALSE(target_done(t, WaitGoal::any_address));

    SECTION("the wait that runs out names the last answer and what was expected") {
        auto r = report_of(t);
        r.timed_out = true;
        conclude_wait(r);
        CHECK(r.exit_code == exit_code::server_down);
        CHECK(has_text(r, "127.0.0.1 answered 503 Service Unavailable; GET /health?token=*** "
                          "expects 200-399"));
        CHECK(wait_heartbeat_line(r, ms(12'400)) ==
              "waiting for localhost:8000 (12 s of 1 s): ::1 refused, 127.0.0.1 answered 503 "
              "Service Unavailable");
    }
    SECTION("a 200 makes it up, and the winner is that address") {
        record_answer(v4a, read_answer({ExchangeEnd::closed, "HTTP/1.0 200 OK\r\n"}), expect);
        CHECK(v4a.reached);
        CHECK(v4a.answers == 2);
        CHECK(target_done(t, WaitGoal::any_address));
        CHECK(winning_address(t, WaitGoal::any_address) == &v4a);
    }
    SECTION("an address that accepted but answered wrong is not a refusal before the winner") {
        // Both accept; only 127.0.0.1 answers 200: no in-order client pays a
        // refusal on ::1, so no fallback-penalty.
        record_poll(t.addresses[0], WaitGoal::any_address, Outcome::accepted, ms(2), true);
        record_answer(t.addresses[0],
                      read_answer({ExchangeEnd::head, "HTTP/1.1 404 Not Found\r\n"}), expect);
        record_answer(v4a, read_answer({ExchangeEnd::head, "HTTP/1.1 204 No Content\r\n"}), expect);
        CHECK(refusing_before_winner(t, WaitGoal::any_address).empty());
    }
}

TEST_CASE("wait: a name that resolves late, or never", "[wait]") {
    auto t = localhost(5432);
    auto r = report_of(t);
    r.targets[0].resolve_error = Error{ErrorKind::system, "no such host"};
    r.targets[0].resolve_attempts = 40;
    r.targets[0].addresses.clear();
    r.waited = ms(10'000);
    CHECK(wait_heartbeat_line(r, ms(5'000)) ==
          "waiting for localhost:5432 (5 s of 1 s): the name does not resolve yet");
    r.timed_out = true;
    conclude_wait(r);
    CHECK(r.exit_code == exit_code::unresolved);
    CHECK(has_text(r, "did not resolve in 10.00 s (40 tries): no such host"));
    SECTION("SIGTERM instead: 143, no verdict on the name") {
        r.interrupted = true;
        r.terminated = true;
        conclude_wait(r);
        CHECK(r.exit_code == exit_code::terminated);
        CHECK(r.findings.empty());
    }
}

TEST_CASE("wait: the CI log's start line names limits, paths and statuses", "[wait]") {
    auto t = localhost(8000);
    t.http = WaitHttp{"/h", "/h"};
    auto r = report_of(t);
    r.limit = ms(60'000);
    r.expect_status = {{200, 200}, {204, 204}};
    CHECK(wait_start_line(r) == "loopcheck wait: up to 60 s for localhost:8000 (GET /h, 200,204)");
    r.limit = ms(1'500);
    r.targets[0].http.reset();
    r.goal = WaitGoal::down;
    CHECK(wait_start_line(r) == "loopcheck wait: up to 1.50 s for localhost:8000 to go down");
}

TEST_CASE("wait: an https target waits for its port and says so", "[wait]") {
    auto t = localhost(8443);
    t.tls_unchecked = true;
    record_poll(t.addresses[1], WaitGoal::any_address, Outcome::accepted, ms(1));
    auto r = report_of(t);
    conclude_wait(r);
    CHECK(r.exit_code == exit_code::healthy);
    REQUIRE_FALSE(r.findings.empty());
    CHECK(r.findings.front().id == "tls-not-checked");
}
