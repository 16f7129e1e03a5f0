// End to end: the real binary, its exit codes and its one-line errors.
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/measure/syn_policy.hpp"
#include "loopcheck/platform/platform.hpp"
#include "support/catch.hpp"
#include "support/helpers.hpp"
#include "support/process.hpp"

#include <string>

using namespace loopcheck;
using namespace loopcheck::test;

namespace {

void expect_usage_error(const std::vector<std::string>& args, const std::string& needle) {
    auto r = run_loopcheck(args);
    INFO("args: " << (args.empty() ? "" : args.front()) << "\nstderr: " << r.err);
    CHECK(r.exit_code == exit_code::usage);
    CHECK(r.out.empty()); // nothing was probed, nothing reported
    CHECK(lines(r.err).size() == 1);
    CHECK(contains(r.err, needle));
}

} // namespace

TEST_CASE("bad input: one line on stderr, exit 2, no probing", "[cli]") {
    expect_usage_error({"localhost:0"}, "port 0");
    expect_usage_error({"localhost:70000"}, "70000");
    expect_usage_error({"[::1:80"}, "unbalanced");
    expect_usage_error({"ftp://localhost"}, "no default port");
    expect_usage_error({"127.0.0.1:80", "bad$:1"}, "stray character");
    expect_usage_error({std::string(300, 'a') + ":80"}, "300 bytes");
    expect_usage_error({"--timeout", "soon", "127.0.0.1:80"}, "--timeout");
    expect_usage_error({"--timeout", "0", "127.0.0.1:80"}, "--timeout");
    expect_usage_error({"--threshold", "-5ms", "127.0.0.1:80"}, "--threshold");
    expect_usage_error({"-n", "0", "127.0.0.1:80"}, "--count");
    expect_usage_error({"-n", "many", "127.0.0.1:80"}, "count");
    expect_usage_error({"-4", "-6", "localhost:80"}, "exclude");
    expect_usage_error({"--format", "xml", "localhost:80"}, "format");
    expect_usage_error({"--bogus"}, "bogus");
}

TEST_CASE("help and version print and exit 0", "[cli]") {
    auto h = run_loopcheck({"--help"});
    CHECK(h.exit_code == 0);
    CHECK(contains(h.out, "Exit codes"));
    CHECK(contains(h.out, "--timeout"));
    auto v = run_loopcheck({"--version"});
    CHECK(v.exit_code == 0);
    CHECK(contains(v.out, "loopcheck "));
    CHECK(contains(v.out, "fmt"));
}

TEST_CASE("an accepting listener: exit 0 and OK", "[cli][integration]") {
    platform::NetworkScope net;
    auto l = platform::open_listener({make_ipv4(127, 0, 0, 1), true, 16});
    REQUIRE(l.ok());
    const auto target = "127.0.0.1:" + std::to_string(port_of(*l));
    auto r = run_loopcheck({target});
    INFO(r.out << r.err);
    CHECK(r.exit_code == exit_code::healthy);
    CHECK(lines(r.out).front().rfind("OK: " + target, 0) == 0);
    CHECK(contains(r.out, "accepted"));
}

TEST_CASE("a closed port: exit 3, or 0 with --expect refused", "[cli][integration]") {
    platform::NetworkScope net;
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(closed.ok());
    const auto target = "127.0.0.1:" + std::to_string(port_of(*closed));
    auto r = run_loopcheck({target});
    INFO(r.out << r.err);
    CHECK(r.exit_code == exit_code::server_down);
    CHECK(lines(r.out).front().rfind("DOWN:", 0) == 0);
    CHECK(contains(r.out, "refused"));

    auto e = run_loopcheck({"--expect", "refused", target});
    CHECK(e.exit_code == exit_code::healthy);
}

TEST_CASE("expect refused against an open port fails: exit 7, UNEXPECTED", "[cli][integration]") {
    platform::NetworkScope net;
    auto l = platform::open_listener({make_ipv4(127, 0, 0, 1), true, 16});
    REQUIRE(l.ok());
    const auto target = "127.0.0.1:" + std::to_string(port_of(*l));
    auto r = run_loopcheck({"--expect", "refused", target});
    INFO(r.out << r.err);
    CHECK(r.exit_code == exit_code::not_refused);
    CHECK(lines(r.out).front() ==
          "UNEXPECTED: " + target + " accepts on " + target + " (--expect refused)");
    auto j = run_loopcheck({"--json", "--expect", "refused", target});
    CHECK(j.exit_code == exit_code::not_refused);
    CHECK(contains(j.out, "\"id\": \"not-refused\""));
}

#ifdef __linux__
TEST_CASE("the ListenOverflows counter is read only where a listener could overflow",
          "[cli][integration]") {
    platform::NetworkScope net;
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(closed.ok());
    auto l = platform::open_listener({make_ipv4(127, 0, 0, 1), true, 16});
    REQUIRE(l.ok());
    if (!platform::listen_overflows())
        LC_SKIP("no /proc/net/netstat counter here");
    // Nothing listens on the closed port: no accept queue, nothing read.
    auto c = run_loopcheck({"--json", "127.0.0.1:" + std::to_string(port_of(*closed))});
    INFO(c.out << c.err);
    CHECK(contains(c.out, "\"listen_overflows\": null"));
    // A listener: the counter before and after the probes.
    auto a = run_loopcheck({"--json", "127.0.0.1:" + std::to_string(port_of(*l))});
    INFO(a.out << a.err);
    CHECK(contains(a.out, "\"listen_overflows\": {"));
}
#endif

TEST_CASE("a family flag on a name with addresses of the other family only says so, exit 4",
          "[cli][integration]") {
    // Which family this machine's localhost lacks decides the flag: the
    // stock Debian hosts file has only 127.0.0.1; one with ::1 too has
    // nothing to show here.
    Net net;
    const auto all = platform::resolve("localhost", 0, FamilyFilter::any);
    REQUIRE(all);
    bool v4 = false, v6 = false;
    for (const auto& a : *all)
        (a.family == Family::ipv4 ? v4 : v6) = true;
    if (v4 && v6)
        LC_SKIP("localhost has both families here: no family is missing");
    const std::string flag = v4 ? "-6" : "-4";
    const auto r = run_loopcheck({flag, "localhost:9"});
    INFO(r.out << r.err);
    // Exit 4 (a name did not resolve): nothing could be probed, and the
    // command line was valid, so neither 2 (usage) nor 3 (nothing accepts).
    CHECK(r.exit_code == exit_code::unresolved);
    CHECK(contains(r.out, std::string("localhost has no ") + (v4 ? "IPv6" : "IPv4") +
                              " address here (" + flag + "); it resolves to " +
                              (v4 ? "127.0.0.1" : "::1")));
    CHECK(contains(r.out, "Drop " + flag));
    CHECK_FALSE(contains(r.out, "Name or service not known"));
    CHECK_FALSE(contains(r.out, "Check the name"));
}

TEST_CASE("a name that does not resolve: exit 4 with the resolver's message",
          "[cli][integration]") {
    auto r = run_loopcheck({"nosuch.invalid:80"});
    CHECK(r.exit_code == exit_code::unresolved);
    CHECK(contains(r.out, "UNRESOLVED"));
    CHECK(contains(r.out, "nosuch.invalid"));
}

TEST_CASE("several targets are each reported and their exit codes combine", "[cli][integration]") {
    platform::NetworkScope net;
    auto l = platform::open_listener({make_ipv4(127, 0, 0, 1), true, 16});
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(l.ok());
    REQUIRE(closed.ok());
    const auto open_t = "127.0.0.1:" + std::to_string(port_of(*l));
    const auto closed_t = "127.0.0.1:" + std::to_string(port_of(*closed));
    auto r = run_loopcheck({"-n", "3", open_t, closed_t});
    INFO(r.out);
    CHECK(r.exit_code == exit_code::server_down);
    const auto ls = lines(r.out);
    REQUIRE(ls.size() > 2);
    CHECK(ls[0].rfind("OK: " + open_t, 0) == 0);
    CHECK(ls[1].rfind("DOWN: nothing accepts on " + closed_t, 0) == 0);
    // One screen: each address's rounds as a picture, min to max with the
    // median marked; -v the numbers, median [min..max].
    CHECK(contains(r.out, "rounds ("));
    CHECK(contains(r.out, "median"));
    CHECK(contains(run_loopcheck({"-v", "-n", "3", open_t, closed_t}).out, "median [min..max]"));
}

TEST_CASE("the self-check opens its own listener and exits 0 here", "[cli][integration]") {
    auto r = run_loopcheck({});
    INFO(r.out << r.err);
    CHECK(r.exit_code == exit_code::healthy);
    CHECK(contains(r.out, "Self-check of this machine"));
    CHECK(contains(r.out, "localhost resolves to"));
    CHECK(contains(r.out, "A refused connect to 127.0.0.1 takes"));
}

TEST_CASE("JSON goes to stdout alone and logs go to stderr", "[cli][integration]") {
    auto r = run_loopcheck({"--json", "-vv", "nosuch.invalid:80"});
    CHECK(r.exit_code == exit_code::unresolved);
    REQUIRE_FALSE(r.out.empty());
    CHECK(r.out.front() == '{');
    CHECK(contains(r.out, "\"schema\": \"loopcheck/1\""));
    CHECK(contains(r.out, "\"exit_code\": 4"));
    CHECK(contains(r.err, "getaddrinfo"));
}

#ifndef _WIN32
TEST_CASE("Ctrl-C ends the waits, prints what was measured, exits 130", "[cli][integration]") {
    platform::NetworkScope net;
    // A listener with a full one-slot queue: further SYNs get no answer.
    auto l = platform::open_listener({make_ipv4(127, 0, 0, 1), true, 0});
    REQUIRE(l.ok());
    const auto target = "127.0.0.1:" + std::to_string(port_of(*l));
    (void)run_loopcheck({"--timeout", "300ms", target}); // fills the queue
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(closed.ok());
    const auto closed_t = "127.0.0.1:" + std::to_string(port_of(*closed));

    // coreutils' timeout sends SIGINT after 1 s; --preserve-status passes
    // loopcheck's own exit code through.
    auto r =
        run_command("timeout --preserve-status -s INT 1 " LOOPCHECK_EXE " --json --timeout 30s " +
                    target + " " + closed_t);
    INFO(r.out << r.err);
    CHECK(r.exit_code == exit_code::interrupted);
    CHECK(contains(r.out, "\"incomplete\": true"));
    CHECK(contains(r.out, "\"exit_code\": 130"));
    CHECK(contains(r.out, "\"native_name\": \"interrupted\""));
    CHECK(contains(r.out, "ECONNREFUSED")); // the closed port was measured before the interrupt

    auto text =
        run_command("timeout --preserve-status -s INT 1 " LOOPCHECK_EXE " --timeout 30s " + target);
    CHECK(text.exit_code == exit_code::interrupted);
    CHECK(contains(text.out, "INCOMPLETE"));
}
#endif

#ifndef _WIN32
TEST_CASE("a slow probe on a terminal shows a live wait line on stderr", "[cli][integration]") {
    if (run_command("command -v script").exit_code != 0)
        LC_SKIP("util-linux script(1), which gives loopcheck a terminal, is not installed");
    platform::NetworkScope net;
    auto l = platform::open_listener({make_ipv4(127, 0, 0, 1), true, 0});
    REQUIRE(l.ok());
    const auto target = "127.0.0.1:" + std::to_string(port_of(*l));
    (void)run_loopcheck({"--timeout", "300ms", target}); // fills the one-slot queue

    // script(1) runs loopcheck on a pseudo-terminal: stdout and stderr are
    // both a terminal there, and script copies what they show.
    auto tty = run_command("script -qec '" LOOPCHECK_EXE " --timeout 1s " + target + "' /dev/null");
    INFO(tty.out);
    CHECK(contains(tty.out, "waiting for " + target));
    CHECK(contains(tty.out, "\r\033[K")); // the line erases itself

    // With -n the line counts the rounds and the run's time.
    auto rounds =
        run_command("script -qec '" LOOPCHECK_EXE " -n 2 --timeout 1s " + target + "' /dev/null");
    INFO(rounds.out);
    CHECK(contains(rounds.out, "round 2/2: waiting for " + target));
    CHECK(contains(rounds.out, " s in all"));

    // TERM=dumb: no colour with --color auto, where TERM=xterm gets it.
    const std::string run_on_tty =
        "script -qec '" LOOPCHECK_EXE " --timeout 300ms " + target + "' /dev/null";
    auto xterm = run_command("env -u NO_COLOR TERM=xterm " + run_on_tty);
    CHECK(contains(xterm.out, "\033[0m"));
    auto dumb = run_command("env -u NO_COLOR TERM=dumb " + run_on_tty);
    CHECK_FALSE(contains(dumb.out, "\033[0m"));
    CHECK(contains(dumb.out, target));

    // Not a terminal, or -q: no wait line.
    auto piped = run_loopcheck({"--timeout", "1s", target});
    CHECK_FALSE(contains(piped.err, "waiting for"));
    auto quiet =
        run_command("script -qec '" LOOPCHECK_EXE " -q --timeout 1s " + target + "' /dev/null");
    CHECK_FALSE(contains(quiet.out, "waiting for"));
}
#endif

#ifndef _WIN32
TEST_CASE("many targets under a low descriptor limit are probed in waves", "[cli][integration]") {
    platform::NetworkScope net;
    auto l = platform::open_listener({make_ipv4(127, 0, 0, 1), true, 1024});
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(l.ok());
    REQUIRE(closed.ok());
    const auto open_t = "127.0.0.1:" + std::to_string(port_of(*l));
    const auto closed_t = "127.0.0.1:" + std::to_string(port_of(*closed));
    std::string targets;
    constexpr int pairs = 300;
    for (int i = 0; i < pairs; ++i)
        targets += " " + open_t + " " + closed_t;
    // 48 descriptors: a few for stdio and the resolver, the rest for
    // connects in flight; 600 targets need many waves.
    auto r = run_command("ulimit -n 48 && " LOOPCHECK_EXE " --json" + targets);
    INFO(r.err);
    CHECK(r.exit_code == exit_code::server_down);
    CHECK_FALSE(contains(r.out, "EMFILE"));
    std::size_t accepted = 0, refused = 0;
    for (std::size_t pos = 0; (pos = r.out.find("\"outcome\": \"", pos)) != std::string::npos;) {
        pos += 12;
        if (r.out.compare(pos, 8, "accepted") == 0)
            ++accepted;
        if (r.out.compare(pos, 7, "refused") == 0)
            ++refused;
    }
    // Each address appears twice: its summary and its one sample.
    CHECK(accepted == 2 * pairs);
    CHECK(refused == 2 * pairs);
}
#endif

TEST_CASE("staircase: bad input is one line and exit 2", "[cli][staircase]") {
    expect_usage_error({"staircase", "--count", "0"}, "--count");
    expect_usage_error({"staircase", "--count", "101"}, "--count");
    expect_usage_error({"staircase", "--timeout", "soon"}, "--timeout");
    expect_usage_error({"staircase", "--timeout", "0"}, "--timeout");
    expect_usage_error({"staircase", "localhost:0"}, "port 0");
    expect_usage_error({"staircase", "--bogus"}, "bogus");
}

TEST_CASE("staircase: a name that does not resolve exits 4", "[cli][staircase][integration]") {
    auto r = run_loopcheck({"staircase", "nosuch.invalid:80"});
    CHECK(r.exit_code == exit_code::unresolved);
    CHECK(r.out.empty());
    CHECK(lines(r.err).size() == 1);
    CHECK(contains(r.err, "nosuch.invalid"));
}

TEST_CASE("staircase: the reserved closed ports, every limit, in JSON",
          "[cli][staircase][integration]") {
    auto r = run_loopcheck({"staircase", "--json", "-n", "1", "--timeout", "4s"});
    INFO(r.out << r.err);
    CHECK(r.exit_code == exit_code::healthy);
    CHECK(contains(r.out, "\"schema\": \"loopcheck-staircase/1\""));
    CHECK(contains(r.out, "\"reserved_closed_port\": true"));
    // Windows before 1709 (a new Wine prefix says 7601) starts at limit 1
    // and says why; everywhere else the walk is 0..5.
    const auto facts = platform::system_facts();
    const int first = staircase_first_limit(facts.os, facts.windows_build);
    for (int limit = first; limit <= 5; ++limit)
        CHECK(contains(r.out, "\"limit\": " + std::to_string(limit)));
    CHECK(contains(r.out, "\"limit\": 0") == (first == 0));
    CHECK(contains(r.out, "one retry (this build cannot turn them off)") == (first == 1));
    CHECK_FALSE(contains(r.out, "\"outcome\": \"accepted\""));
    const auto os = facts.os;
    if (os == Os::linux_) {
        // The kernel counts no retransmission after a reset: flat, and said so.
        CHECK(contains(r.out, "\"shape\": \"flat\""));
        CHECK(contains(r.out, "refusals are not retried here"));
        CHECK(contains(r.out, "\"option_error\": \"EINVAL\"")); // TCP_SYNCNT=0
    }
}

TEST_CASE("staircase: text against a listener says there is no refusal to time",
          "[cli][staircase][integration]") {
    platform::NetworkScope net;
    auto l = platform::open_listener({make_ipv4(127, 0, 0, 1), true, 64});
    REQUIRE(l.ok());
    const auto target = "127.0.0.1:" + std::to_string(port_of(*l));
    auto r = run_loopcheck({"staircase", "-n", "1", target});
    INFO(r.out << r.err);
    CHECK(r.exit_code == exit_code::healthy);
    CHECK(contains(r.out, "Staircase: refused connects with"));
    CHECK(contains(r.out, target + "  [not-refused]"));
    CHECK(contains(r.out, "was not refused (accepted)"));
}
