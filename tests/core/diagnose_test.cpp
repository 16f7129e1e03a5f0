#include "loopcheck/core/diagnose.hpp"
#include "loopcheck/core/exit_codes.hpp"
#include "loopcheck/core/servers.hpp"
#include "support/catch.hpp"
#include "support/scenario.hpp"
#include "support/text.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

namespace {

struct Run {
    Target target;
    std::vector<Observation> obs;
    Diagnosis d;
};

Run diagnose_scenario(const std::string& input, std::vector<Observation> obs, Os os,
                      Micros timeout = 5s, bool expect_refused = false,
                      std::optional<std::vector<Listener>> listeners = std::nullopt) {
    Run r{*parse_target(input), std::move(obs), {}};
    DiagnosisInput in;
    in.target = &r.target;
    in.addresses = r.obs;
    in.threshold = 100ms;
    in.timeout = timeout;
    in.os = os;
    in.expect_refused = expect_refused;
    if (listeners)
        in.listeners = std::span<const Listener>(*listeners);
    r.d = diagnose(in);
    return r;
}

/// A listener as platform::list_listeners reports one.
Listener listening(Address bound, std::optional<std::uint32_t> pid, std::string name,
                   std::optional<bool> v6only = std::nullopt) {
    Listener l;
    l.bound = bound;
    l.pid = pid;
    l.process = std::move(name);
    l.v6only = v6only;
    return l;
}

Address wildcard6(std::uint16_t port) {
    Address a;
    a.family = Family::ipv6;
    a.port = port;
    return a;
}

const Finding* find(const Diagnosis& d, std::string_view id) {
    auto it = std::find_if(d.findings.begin(), d.findings.end(),
                           [&](const Finding& f) { return f.id == id; });
    return it == d.findings.end() ? nullptr : &*it;
}

} // namespace

TEST_CASE("Windows: ::1 refused after 2.03 s, IPv4-only server", "[diagnose]") {
    auto r = diagnose_scenario(
        "http://localhost:11434/v1",
        {observe(ipv6_loopback(11434), Outcome::refused, 2030ms, 700us),
         observe(make_ipv4(127, 0, 0, 1, 11434), Outcome::accepted, 200us, 200us)},
        Os::windows);
    const auto& d = r.d;
    // Slow for in-order clients; Node.js 17 to 19 tries ::1 only and fails.
    CHECK(d.exit_code == exit_code::partial);
    CHECK(d.verdict.rfind("PARTIAL: clients that try addresses in turn wait", 0) == 0);

    auto* slow = find(d, finding_id::slow_refusal);
    REQUIRE(slow);
    CHECK(slow->cause == cause::syn_retransmission);
    CHECK(slow->severity == Severity::warning);
    CHECK(contains(slow->message, "without SYN retransmissions"));
    CHECK(endpoint_string(*slow->address) == "[::1]:11434");

    auto* fb = find(d, finding_id::fallback_penalty);
    REQUIRE(fb);
    CHECK(fb->severity == Severity::warning);
    CHECK(contains(fb->message, "2.03 s"));

    auto* single = find(d, finding_id::single_stack_listener);
    REQUIRE(single);
    CHECK(contains(single->message, "IPv4 only"));
    CHECK_FALSE(find(d, finding_id::healthy));

    REQUIRE(d.rewritten);
    CHECK(*d.rewritten == "http://127.0.0.1:11434/v1");
    REQUIRE_FALSE(d.fixes.empty());
    CHECK(contains(d.fixes.front(), "http://127.0.0.1:11434/v1"));
    CHECK(std::none_of(d.fixes.begin(), d.fixes.end(),
                       [](auto& f) { return contains(f, "Do not switch"); }));
}

TEST_CASE("the cause is inferred from the retry staircase when not paired", "[diagnose]") {
    // 4 retries 500 ms apart: 2.03 s fits 4 whole steps.
    auto r = diagnose_scenario("localhost:9", {observe(ipv6_loopback(9), Outcome::refused, 2030ms)},
                               Os::windows);
    auto* slow = find(r.d, finding_id::slow_refusal);
    REQUIRE(slow);
    CHECK(slow->cause == cause::syn_retransmission);
    CHECK(contains(slow->message, "4 whole step(s)"));
    CHECK(r.d.exit_code == exit_code::slow); // a slow refusal outranks "server down"

    // 1.77 s is no whole number of 500 ms steps, and nothing else says why.
    auto u = diagnose_scenario("localhost:9", {observe(ipv6_loopback(9), Outcome::refused, 1770ms)},
                               Os::windows);
    REQUIRE(find(u.d, finding_id::slow_refusal));
    CHECK(find(u.d, finding_id::slow_refusal)->cause == cause::unknown);
}

TEST_CASE("the kernel's retransmission count names the cause (Linux netns)", "[diagnose]") {
    auto r =
        diagnose_scenario("localhost:8000",
                          {observe(ipv6_loopback(8000), Outcome::refused, 1020ms, std::nullopt, 1),
                           observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 60us)},
                          Os::linux_);
    auto* slow = find(r.d, finding_id::slow_refusal);
    REQUIRE(slow);
    CHECK(slow->cause == cause::syn_retransmission);
    CHECK(contains(slow->message, "1 SYN retransmission"));
    CHECK(r.d.exit_code == exit_code::partial); // and Node.js 17 to 19 fails
    CHECK(*r.d.rewritten == "127.0.0.1:8000");
}

TEST_CASE("Linux: a fast refusal then IPv4: PARTIAL for Node.js 17 to 19, the latent cost named",
          "[diagnose]") {
    auto r = diagnose_scenario("localhost:8000",
                               {observe(ipv6_loopback(8000), Outcome::refused, 20us),
                                observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 50us)},
                               Os::linux_);
    // Cheap here for every client but Node.js 17 to 19, which tries ::1
    // only and fails (issue #23: this was "OK", exit 0).
    CHECK(r.d.exit_code == exit_code::partial);
    CHECK(r.d.verdict.rfind("PARTIAL:", 0) == 0);
    auto* fb = find(r.d, finding_id::fallback_penalty);
    REQUIRE(fb);
    CHECK(fb->severity == Severity::info);
    CHECK(contains(fb->message, "on Windows"));
    CHECK_FALSE(find(r.d, finding_id::healthy));
    REQUIRE(find(r.d, finding_id::clients_fail));
    CHECK(contains(find(r.d, finding_id::clients_fail)->message, "Node.js 17 to 19"));
    CHECK(find(r.d, finding_id::single_stack_listener));
    // Cheap here for every client but Node.js 17 to 19, which tries ::1
    // only and fails: its setting is a fix. On Windows, ::1's refusal costs
    // the clients that try in turn 2 s: the address that accepts comes
    // first, for Windows users, then the server on both families.
    REQUIRE(r.d.fixes.size() == 3);
    CHECK(contains(r.d.fixes[0], "For Windows users"));
    CHECK(contains(r.d.fixes[0], "connect to 127.0.0.1:8000 instead of localhost:8000"));
    CHECK(contains(r.d.fixes[0], "and the clients that fail or wait here"));
    CHECK(contains(r.d.fixes[1], "listen on both ::1 and 127.0.0.1"));
    CHECK(contains(r.d.fixes[2], "--dns-result-order=ipv4first"));
    CHECK(r.d.rewritten == "127.0.0.1:8000");
}

TEST_CASE("this machine fine, Windows 2 s: the address fix, for Windows users", "[diagnose]") {
    // The stock Linux hosts file (localhost is 127.0.0.1 only), a server on
    // 127.0.0.1: every client connects here at once; on Windows, which
    // answers localhost itself with ::1 first, Python requests pays 2 s.
    auto ollama = listening(make_ipv4(127, 0, 0, 1, 11434), 4242, "ollama");
    ollama.server = recognise_server("ollama", std::vector<std::string>{"ollama", "serve"});
    REQUIRE(ollama.server);
    const std::vector<Observation> v4{
        observe(make_ipv4(127, 0, 0, 1, 11434), Outcome::accepted, 90us)};
    // curl's own localhost probes (it answers ::1 itself): ::1 refused.
    const std::vector<Observation> curl{observe(ipv6_loopback(11434), Outcome::refused, 67us),
                                        v4.front()};
    auto with_curl = [&](const std::string& input, const std::vector<Listener>& table, Os os) {
        Run run{*parse_target(input), v4, {}};
        DiagnosisInput in;
        in.target = &run.target;
        in.addresses = run.obs;
        in.os = os;
        in.listeners = std::span<const Listener>(table);
        in.curl_localhost = curl;
        run.d = diagnose(in);
        return run;
    };
    const std::vector<Listener> ollama_table{ollama};
    auto r = with_curl("localhost:11434", ollama_table, Os::linux_);
    // This machine is fine: the verdict and exit code say so.
    CHECK(r.d.exit_code == exit_code::healthy);
    CHECK(r.d.verdict.rfind("OK:", 0) == 0);
    REQUIRE(r.d.fixes.size() == 2);
    CHECK(r.d.fixes[0] == "For Windows users (Windows tries IPv6 first for localhost and waits "
                          "about 2 s for its refusal): connect to 127.0.0.1:11434 instead of "
                          "localhost:11434; ollama (pid 4242) listens on 127.0.0.1:11434.");
    // Ollama is recognised: its own setting, shown beside the first fix.
    REQUIRE(r.d.server_fix == 1u);
    CHECK(contains(r.d.fixes[1], "OLLAMA_HOST"));
    CHECK(r.d.rewritten == "127.0.0.1:11434");

    // A URL keeps its path; an unknown server gets "listen on both".
    const std::vector<Listener> app{listening(make_ipv4(127, 0, 0, 1, 11434), 7, "app")};
    auto url = with_curl("http://localhost:11434/v1", app, Os::linux_);
    REQUIRE(url.d.fixes.size() == 2);
    CHECK(contains(url.d.fixes[0], "connect to http://127.0.0.1:11434/v1 instead of "
                                   "http://localhost:11434/v1"));
    CHECK(contains(url.d.fixes[1], "listen on both ::1 and 127.0.0.1"));

    // ::1 first here and a server on both families: Windows pays nothing more.
    auto both = diagnose_scenario(
        "localhost:11434", {observe(ipv6_loopback(11434), Outcome::accepted, 80us), v4.front()},
        Os::linux_);
    CHECK(both.d.fixes.empty());
    // On Windows itself the report measures Windows: no projection, no fix.
    auto windows = with_curl("localhost:11434", ollama_table, Os::windows);
    CHECK(windows.d.fixes.empty());
}

TEST_CASE("IPv6-only server: never rewrite to 127.0.0.1", "[diagnose]") {
    auto r = diagnose_scenario("localhost:3000",
                               {observe(make_ipv4(127, 0, 0, 1, 3000), Outcome::refused, 2030ms),
                                observe(ipv6_loopback(3000), Outcome::accepted, 300us)},
                               Os::windows);
    // Slow for in-order clients, and Java (IPv4 only) fails: PARTIAL.
    CHECK(r.d.exit_code == exit_code::partial);
    CHECK(*r.d.rewritten == "[::1]:3000");
    CHECK(std::any_of(r.d.fixes.begin(), r.d.fixes.end(),
                      [](auto& f) { return contains(f, "Do not switch to 127.0.0.1"); }));
}

TEST_CASE("server down: fast refusals exit 3, or 0 when expected", "[diagnose]") {
    std::vector<Observation> obs{observe(ipv6_loopback(9), Outcome::refused, 20us),
                                 observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 25us)};
    auto r = diagnose_scenario("localhost:9", obs, Os::linux_);
    CHECK(r.d.exit_code == exit_code::server_down);
    CHECK(r.d.verdict.rfind("DOWN:", 0) == 0);
    auto* down = find(r.d, finding_id::server_down);
    REQUIRE(down);
    CHECK(down->severity == Severity::error);

    auto e = diagnose_scenario("localhost:9", obs, Os::linux_, 5s, true);
    CHECK(e.d.exit_code == exit_code::healthy);
    CHECK(e.d.verdict.rfind("OK:", 0) == 0);

    // Expected refusals that are slow are still slow.
    std::vector<Observation> slow{observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 2030ms)};
    CHECK(diagnose_scenario("127.0.0.1:9", slow, Os::windows, 5s, true).d.exit_code ==
          exit_code::slow);
}

TEST_CASE("a timeout is no refusal, and a short --timeout is flagged", "[diagnose]") {
    auto r = diagnose_scenario("127.0.0.1:80",
                               {observe(make_ipv4(127, 0, 0, 1, 80), Outcome::timeout, 2s)},
                               Os::windows, 2s);
    CHECK(find(r.d, finding_id::no_answer));
    CHECK(find(r.d, finding_id::short_timeout));
    CHECK(r.d.exit_code == exit_code::server_down);

    auto longer = diagnose_scenario("127.0.0.1:80",
                                    {observe(make_ipv4(127, 0, 0, 1, 80), Outcome::timeout, 5s)},
                                    Os::windows, 5s);
    CHECK(find(longer.d, finding_id::no_answer));
    CHECK_FALSE(find(longer.d, finding_id::short_timeout));
}

TEST_CASE("a timeout where nothing listens names no listener's queue", "[diagnose]") {
    // A lab that drops the resets, -t 1s: the table says nothing listens.
    auto r = diagnose_scenario("127.0.0.1:8000",
                               {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::timeout, 1s)},
                               Os::linux_, 1s, false, std::vector<Listener>{});
    auto* no_answer = find(r.d, finding_id::no_answer);
    REQUIRE(no_answer);
    CHECK_FALSE(contains(no_answer->message, "queue"));
    CHECK_FALSE(contains(no_answer->message, "not a refusal")); // the next finding says it may be
    CHECK(contains(no_answer->message, "nothing listens on port 8000 here"));
    CHECK(contains(no_answer->message, "a firewall drops the SYN or its reset"));
    REQUIRE(find(r.d, finding_id::short_timeout));
    CHECK(contains(find(r.d, finding_id::short_timeout)->message,
                   "a refusal may be hiding behind these timeouts"));

    // Without a table, the queue stays a possibility.
    auto unknown = diagnose_scenario("127.0.0.1:8000",
                                     {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::timeout, 1s)},
                                     Os::linux_, 1s);
    CHECK(contains(find(unknown.d, finding_id::no_answer)->message, "queue is full"));
}

TEST_CASE("a slow accept is slow", "[diagnose]") {
    auto r = diagnose_scenario("127.0.0.1:80",
                               {observe(make_ipv4(127, 0, 0, 1, 80), Outcome::accepted, 300ms)},
                               Os::linux_);
    CHECK(find(r.d, finding_id::slow_accept));
    CHECK(r.d.exit_code == exit_code::slow);
}

TEST_CASE("an unresolved name exits 4", "[diagnose]") {
    auto t = *parse_target("nosuch.invalid:80");
    auto d = diagnose_unresolved(t, Error{ErrorKind::resolve, "cannot resolve 'nosuch.invalid'"});
    CHECK(d.exit_code == exit_code::unresolved);
    CHECK(d.verdict.rfind("UNRESOLVED:", 0) == 0);
    REQUIRE(d.findings.size() == 1);
    CHECK(d.findings[0].id == finding_id::unresolved);
    REQUIRE(d.fixes.size() == 1);
    CHECK(d.fixes[0] == "Check the name 'nosuch.invalid' (and the hosts file).");
}

TEST_CASE("an unresolved near-miss of localhost asks 'did you mean'", "[diagnose]") {
    auto t = *parse_target("locahost:20401");
    auto d = diagnose_unresolved(t, Error{ErrorKind::resolve, "cannot resolve 'locahost'"});
    CHECK(d.exit_code == exit_code::unresolved);
    REQUIRE(d.fixes.size() == 1);
    CHECK(d.fixes[0] == "Check the name 'locahost': did you mean 'localhost'?");
}

TEST_CASE("retry steps", "[diagnose]") {
    CHECK(fits_retry_steps(2030ms, 500ms) == 4);
    CHECK(fits_retry_steps(1020ms, 1s) == 1);
    CHECK(fits_retry_steps(520ms, 500ms) == 1);
    CHECK_FALSE(fits_retry_steps(1770ms, 500ms));
    CHECK_FALSE(fits_retry_steps(20ms, 500ms));
    CHECK_FALSE(fits_retry_steps(2s, 0ms));
    CHECK(syn_retry_step(Os::windows) == 500ms);
    CHECK(syn_retry_step(Os::linux_) == 1s);
}

TEST_CASE("exit codes combine by documented precedence", "[diagnose]") {
    using namespace exit_code;
    CHECK(combine(healthy, server_down) == server_down);
    CHECK(combine(server_down, slow) == slow);
    CHECK(combine(slow, partial) == partial);
    CHECK(combine(partial, not_refused) == not_refused);
    CHECK(combine(not_refused, unresolved) == unresolved);
    CHECK(combine(slow, unresolved) == unresolved);
    CHECK(combine(unresolved, usage) == usage);
    CHECK(combine(internal, usage) == internal);
    CHECK(combine(interrupted, internal) == interrupted);
    CHECK(combine(healthy, healthy) == healthy);
}

TEST_CASE("interrupted addresses carry no finding", "[diagnose]") {
    auto cut = observe(ipv6_loopback(80), Outcome::timeout, 300ms);
    cut.summary.interrupted = true;
    auto r = diagnose_scenario("localhost:80",
                               {cut, observe(make_ipv4(127, 0, 0, 1, 80), Outcome::accepted, 50us)},
                               Os::linux_);
    CHECK_FALSE(find(r.d, finding_id::no_answer));
    CHECK(r.d.exit_code == exit_code::healthy);

    auto all = diagnose_scenario("localhost:80", {cut}, Os::linux_);
    CHECK(all.d.exit_code == exit_code::interrupted);
    CHECK(all.d.verdict.rfind("INCOMPLETE:", 0) == 0);
    CHECK(all.d.findings.empty());
}

TEST_CASE("listeners: the single-stack finding and the fix name the process", "[diagnose]") {
    auto r = diagnose_scenario(
        "http://localhost:11434/v1",
        {observe(ipv6_loopback(11434), Outcome::refused, 2030ms, 700us),
         observe(make_ipv4(127, 0, 0, 1, 11434), Outcome::accepted, 200us, 200us)},
        Os::windows, 5s, false,
        std::vector{listening(make_ipv4(127, 0, 0, 1, 11434), 4242, "ollama.exe")});
    auto* single = find(r.d, finding_id::single_stack_listener);
    REQUIRE(single);
    CHECK(single->message ==
          "ollama.exe (pid 4242) listens on 127.0.0.1:11434 only; localhost resolves to ::1 "
          "first.");
    REQUIRE(r.d.fixes.size() >= 2);
    CHECK(r.d.fixes[0] == "Connect to http://127.0.0.1:11434/v1 instead of "
                          "http://localhost:11434/v1: ollama.exe (pid 4242) listens on "
                          "127.0.0.1:11434.");
    CHECK(contains(r.d.fixes[1], "Or make ollama.exe listen on both"));
    // Listener data changes words, not verdicts: PARTIAL, as Node.js 17 to
    // 19 tries ::1 only and fails.
    CHECK(r.d.exit_code == exit_code::partial);
    CHECK(contains(r.d.verdict, "PARTIAL: clients that try addresses in turn wait"));
}

TEST_CASE("listeners: IPv4 first, the other family named", "[diagnose]") {
    auto r = diagnose_scenario("localhost:8000",
                               {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 50us),
                                observe(ipv6_loopback(8000), Outcome::refused, 20us)},
                               Os::linux_, 5s, false,
                               std::vector{listening(make_ipv4(0, 0, 0, 0, 8000), 12, "uvicorn")});
    auto* single = find(r.d, finding_id::single_stack_listener);
    REQUIRE(single);
    CHECK(single->message ==
          "uvicorn (pid 12) listens on 0.0.0.0:8000 only, while localhost also resolves to ::1.");
    auto* healthy = find(r.d, finding_id::healthy);
    REQUIRE(healthy);
    CHECK(contains(healthy->message, "uvicorn (pid 12) accepts on 127.0.0.1:8000"));
}

TEST_CASE("listeners: a server on ::1 only, localhost resolving to 127.0.0.1 only", "[diagnose]") {
    auto r = diagnose_scenario(
        "localhost:3000", {observe(make_ipv4(127, 0, 0, 1, 3000), Outcome::refused, 30us)},
        Os::linux_, 5s, false, std::vector{listening(ipv6_loopback(3000), 77, "node", true)});
    CHECK(r.d.exit_code == exit_code::server_down);
    auto* elsewhere = find(r.d, finding_id::listener_elsewhere);
    REQUIRE(elsewhere);
    CHECK(elsewhere->severity == Severity::error);
    CHECK(elsewhere->message == "node (pid 77) listens on [::1]:3000, which localhost:3000 does "
                                "not reach: it resolves to 127.0.0.1.");
    CHECK(endpoint_string(*elsewhere->address) == "[::1]:3000");
    REQUIRE(r.d.rewritten);
    CHECK(*r.d.rewritten == "[::1]:3000");
    REQUIRE(r.d.fixes.size() == 2);
    CHECK(r.d.fixes[0] ==
          "Connect to [::1]:3000 instead of localhost:3000: node (pid 77) listens on [::1]:3000.");
    CHECK(r.d.fixes[1] == "Or make node listen on 127.0.0.1 as well.");
    auto* down = find(r.d, finding_id::server_down);
    REQUIRE(down);
    CHECK_FALSE(contains(down->message, "Nothing listens"));
}

TEST_CASE("listeners: [::] with IPV6_V6ONLY on refuses IPv4", "[diagnose]") {
    auto r = diagnose_scenario(
        "127.0.0.1:8080", {observe(make_ipv4(127, 0, 0, 1, 8080), Outcome::refused, 25us)},
        Os::linux_, 5s, false, std::vector{listening(wildcard6(8080), std::nullopt, "", true)});
    auto* elsewhere = find(r.d, finding_id::listener_elsewhere);
    REQUIRE(elsewhere);
    CHECK(contains(elsewhere->message,
                   "a process not visible here listens on [::]:8080 (IPV6_V6ONLY on)"));
    CHECK(contains(elsewhere->message, "it is 127.0.0.1."));
    CHECK(contains(elsewhere->message, "IPV6_V6ONLY on, so it takes no IPv4 connects"));
    CHECK(*r.d.rewritten == "[::1]:8080");
    CHECK(contains(r.d.fixes[1], "Or make the server listen on 127.0.0.1 as well."));
}

TEST_CASE("listeners: nothing listens on the port", "[diagnose]") {
    std::vector<Observation> obs{observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 25us)};
    // A listener on another port is no listener on this one.
    auto r = diagnose_scenario("127.0.0.1:9", obs, Os::linux_, 5s, false,
                               std::vector{listening(make_ipv4(127, 0, 0, 1, 10), 5, "x")});
    auto* down = find(r.d, finding_id::server_down);
    REQUIRE(down);
    CHECK(contains(down->message, "Nothing listens on port 9 on this machine."));
    CHECK_FALSE(find(r.d, finding_id::listener_elsewhere));
    CHECK(contains(r.d.fixes.front(), "Start the server"));

    // Without a table nothing is claimed about listeners.
    auto unknown = diagnose_scenario("127.0.0.1:9", obs, Os::linux_);
    CHECK_FALSE(contains(find(unknown.d, finding_id::server_down)->message, "listens"));

    // A closed port expected to refuse: a listener elsewhere is only noted.
    auto expected = diagnose_scenario("127.0.0.1:9", obs, Os::linux_, 5s, true,
                                      std::vector{listening(ipv6_loopback(9), 5, "x")});
    CHECK(expected.d.exit_code == exit_code::healthy);
    REQUIRE(find(expected.d, finding_id::listener_elsewhere));
    CHECK(find(expected.d, finding_id::listener_elsewhere)->severity == Severity::info);
}

TEST_CASE("listeners: a timeout at a listening address is a full queue", "[diagnose]") {
    auto r = diagnose_scenario(
        "127.0.0.1:80", {observe(make_ipv4(127, 0, 0, 1, 80), Outcome::timeout, 5s)}, Os::linux_,
        5s, false, std::vector{listening(make_ipv4(127, 0, 0, 1, 80), 300, "gunicorn")});
    auto* no_answer = find(r.d, finding_id::no_answer);
    REQUIRE(no_answer);
    CHECK(contains(no_answer->message,
                   "though gunicorn (pid 300) listens on 127.0.0.1:80: its accept queue is full"));
    CHECK_FALSE(find(r.d, finding_id::listener_elsewhere)); // it is right there
    CHECK(std::none_of(r.d.fixes.begin(), r.d.fixes.end(),
                       [](auto& f) { return contains(f, "Start the server"); }));
}

TEST_CASE("listeners: Windows [::] with V6ONLY unknown, IPv4 refused", "[diagnose]") {
    // The refusal shows the [::] socket takes no IPv4, whatever its flag.
    auto r = diagnose_scenario(
        "127.0.0.1:5000", {observe(make_ipv4(127, 0, 0, 1, 5000), Outcome::refused, 2030ms)},
        Os::windows, 5s, false, std::vector{listening(wildcard6(5000), 900, "node.exe")});
    auto* elsewhere = find(r.d, finding_id::listener_elsewhere);
    REQUIRE(elsewhere);
    CHECK(contains(elsewhere->message, "node.exe (pid 900) listens on [::]:5000, which"));
    CHECK(*r.d.rewritten == "[::1]:5000");
    CHECK(r.d.exit_code == exit_code::slow); // the 2 s refusal is still the headline
}

// --- issue 13: wording that follows the measurement ---------------------

TEST_CASE("lab, IPv6-only server behind a slow refusal of 127.0.0.1: named a refusal, Java's "
          "fix given",
          "[diagnose]") {
    // gai.conf puts 127.0.0.1 first; its RST is dropped once (1.02 s); the
    // server listens on ::1 only.
    auto r = diagnose_scenario(
        "localhost:8000",
        {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::refused, 1020ms, std::nullopt, 1),
         observe(ipv6_loopback(8000), Outcome::accepted, 100us)},
        Os::linux_);
    CHECK(r.d.exit_code == exit_code::partial);         // the Java rows fail
    CHECK(contains(r.d.verdict, "per new connection")); // in-order clients pay it
    auto has_fix = [&](const std::string& text) {
        return std::any_of(r.d.fixes.begin(), r.d.fixes.end(),
                           [&](auto& f) { return contains(f, text); });
    };
    CHECK(has_fix("-Djava.net.preferIPv6Addresses=true"));
    // Every Java row fails here, before and after JDK 16's Windows change.
    CHECK(has_fix("Java java.net.Socket < 16, Java java.net.Socket >= 16, Java HttpClient 11 to "
                  "15, Java HttpClient >= 16"));
    CHECK(has_fix("[::1]:8000"));
    CHECK(has_fix("curl: add -6"));
    CHECK_FALSE(has_fix("SIO_TCP_INITIAL_RTO"));
    CHECK_FALSE(has_fix("-4"));
}

TEST_CASE("IPv6-only server, ::1 first: the slow refusal no in-order client reaches is called a "
          "refusal",
          "[diagnose]") {
    auto r = diagnose_scenario(
        "localhost:8000",
        {observe(ipv6_loopback(8000), Outcome::accepted, 100us),
         observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::refused, 1020ms, std::nullopt, 1)},
        Os::linux_);
    CHECK(r.d.exit_code == exit_code::partial); // the Java rows fail
    CHECK(contains(r.d.verdict, "127.0.0.1:8000 is refused only after 1.02 s"));
    CHECK_FALSE(contains(r.d.verdict, "a connect took longer"));
    // Java tries 127.0.0.1 only and fails: it is named, with its setting.
    CHECK(std::any_of(r.d.fixes.begin(), r.d.fixes.end(), [](auto& f) {
        return contains(f, "Java java.net.Socket") && contains(f, "never try [::1]:8000");
    }));
    CHECK(std::any_of(r.d.fixes.begin(), r.d.fixes.end(),
                      [](auto& f) { return contains(f, "-Djava.net.preferIPv6Addresses=true"); }));
}

TEST_CASE("advice that holds on Windows only is not given as such elsewhere", "[diagnose]") {
    // The same slow fallback on Linux (dropped RST) and on Windows.
    const std::vector<Observation> obs{
        observe(ipv6_loopback(8000), Outcome::refused, 1020ms, std::nullopt, 1),
        observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 60us)};
    auto linux_run = diagnose_scenario("localhost:8000", obs, Os::linux_);
    for (const auto& f : linux_run.d.fixes) {
        INFO(f);
        CHECK_FALSE(contains(f, "SIO_TCP_INITIAL_RTO"));
        CHECK_FALSE(contains(f, "turns SYN retries off"));
    }
    // The client-specific fixes for an IPv4-only server: who pays here.
    auto has = [](const Diagnosis& d, const std::string& text) {
        return std::any_of(d.fixes.begin(), d.fixes.end(),
                           [&](auto& f) { return contains(f, text); });
    };
    CHECK(has(linux_run.d, "--dns-result-order=ipv4first"));
    CHECK(has(linux_run.d, "DOTNET_SYSTEM_NET_DISABLEIPV6=1"));
    CHECK(has(linux_run.d, "curl: add -4"));
    // Every row carries what Windows would charge for the same set-up.
    for (const auto& c : linux_run.d.clients)
        CHECK(c.windows.has_value());

    // Down, with slow refusals: SIO_TCP_INITIAL_RTO only on Windows.
    const std::vector<Observation> down{
        observe(ipv6_loopback(9), Outcome::refused, 1020ms, std::nullopt, 1),
        observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 1020ms, std::nullopt, 1)};
    CHECK_FALSE(has(diagnose_scenario("localhost:9", down, Os::linux_).d, "SIO_TCP_INITIAL_RTO"));
    const std::vector<Observation> down_win{
        observe(ipv6_loopback(9), Outcome::refused, 2030ms, 700us),
        observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 2030ms, 700us)};
    auto win = diagnose_scenario("localhost:9", down_win, Os::windows);
    CHECK(has(win.d, "SIO_TCP_INITIAL_RTO"));
    for (const auto& c : win.d.clients)
        CHECK_FALSE(c.windows.has_value());
}

TEST_CASE("accept-queue-full: an accept that needed a SYN retransmission", "[diagnose]") {
    // -n 5 against a Python server with backlog 5: one round's accept took
    // 1.00 s with one SYN retransmission; the median stayed fast.
    Observation o =
        observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 17us, std::nullopt, 1);
    o.summary.latency.max = 1000ms;
    Run r{*parse_target("127.0.0.1:8000"), {o}, {}};
    DiagnosisInput in;
    in.target = &r.target;
    in.addresses = r.obs;
    in.os = Os::linux_;
    in.listen_overflows = ListenOverflows{40, 41};
    r.d = diagnose(in);
    auto* f = find(r.d, finding_id::accept_queue_full);
    REQUIRE(f);
    CHECK(f->severity == Severity::warning);
    CHECK(contains(f->message, "1 SYN retransmission"));
    CHECK(contains(f->message, "ListenOverflows counter (/proc/net/netstat) went from 40 to 41"));
    CHECK(r.d.exit_code == exit_code::slow);
    CHECK(contains(r.d.verdict, "accept queue overflowed"));

    // Without the kernel's count, a whole retry step in the worst round
    // is the evidence; a fast accept gives none.
    Observation step = observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 20us);
    step.summary.latency.max = 1010ms;
    auto r2 = diagnose_scenario("127.0.0.1:8000", {step}, Os::linux_);
    REQUIRE(find(r2.d, finding_id::accept_queue_full));
    CHECK(contains(find(r2.d, finding_id::accept_queue_full)->message, "whole step"));
    auto r3 = diagnose_scenario("127.0.0.1:8000",
                                {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 20us)},
                                Os::linux_);
    CHECK_FALSE(find(r3.d, finding_id::accept_queue_full));
}

// The contradictions issue #23 lists, each as the verdict now reads.

TEST_CASE("server on [::1] only, stock hosts file: PARTIAL, not DOWN", "[diagnose][verdict]") {
    Target t = *parse_target("localhost:18434");
    const std::vector<Observation> obs{
        observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::refused, 80us)};
    const std::vector<Observation> extra{observe(ipv6_loopback(18434), Outcome::accepted, 90us)};
    const std::vector<Listener> ls{listening(ipv6_loopback(18434), 77, "python3")};
    DiagnosisInput in;
    in.target = &t;
    in.addresses = obs;
    in.os = Os::linux_;
    in.curl_localhost = extra;
    in.listeners = std::span<const Listener>(ls);
    const auto d = diagnose(in);
    CHECK(d.exit_code == exit_code::partial);
    CHECK(d.verdict.rfind(
              "PARTIAL: localhost:18434 accepts only on an address it does not resolve to here",
              0) == 0);
    CHECK(find(d, finding_id::listener_elsewhere));
    CHECK_FALSE(find(d, finding_id::server_down));
    auto* fail = find(d, finding_id::clients_fail);
    REQUIRE(fail);
    CHECK(contains(fail->message, "Python requests"));
}

TEST_CASE("PARTIAL without a winner names the slow refusal in its first line",
          "[diagnose][verdict]") {
    // The stock hosts file (127.0.0.1 only), the server on [::1] only, and
    // 127.0.0.1's refusal slow (RSTs dropped): every client that asks the
    // resolver waits 1.02 s and then fails. The line leads with that cost.
    Target t = *parse_target("localhost:18434");
    const std::vector<Observation> obs{
        observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::refused, 1020ms, std::nullopt, 1)};
    const std::vector<Observation> extra{observe(ipv6_loopback(18434), Outcome::accepted, 90us)};
    DiagnosisInput in;
    in.target = &t;
    in.addresses = obs;
    in.os = Os::linux_;
    in.curl_localhost = extra;
    const auto d = diagnose(in);
    CHECK(d.exit_code == exit_code::partial);
    INFO(d.verdict);
    CHECK(d.verdict.rfind("PARTIAL: 127.0.0.1:18434 is refused only after 1.02 s, and "
                          "localhost:18434 accepts only on an address it does not resolve to here",
                          0) == 0);
}

TEST_CASE("server on [::1] only, ::1 first: PARTIAL, the clients that never try it named",
          "[diagnose][verdict]") {
    auto r = diagnose_scenario("localhost:18434",
                               {observe(ipv6_loopback(18434), Outcome::accepted, 90us),
                                observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::refused, 80us)},
                               Os::linux_);
    CHECK(r.d.exit_code == exit_code::partial);
    auto* fail = find(r.d, finding_id::clients_fail);
    REQUIRE(fail);
    CHECK(contains(fail->message, "Node.js < 12.19"));
    CHECK(contains(fail->message, "Java HttpClient"));
}

TEST_CASE("server on 127.0.0.1 only, ::1 first: the failing Node.js 17 to 19 row is a finding",
          "[diagnose][verdict]") {
    auto r = diagnose_scenario("localhost:18434",
                               {observe(ipv6_loopback(18434), Outcome::refused, 316us),
                                observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::accepted, 90us)},
                               Os::linux_);
    CHECK(r.d.exit_code == exit_code::partial);
    auto* fail = find(r.d, finding_id::clients_fail);
    REQUIRE(fail);
    CHECK(contains(fail->message, "Node.js 17 to 19"));
}

TEST_CASE("every attempt timed out: DOWN, called timeouts, no accept-queue-full",
          "[diagnose][verdict]") {
    auto o = observe(make_ipv4(192, 0, 2, 123, 80), Outcome::timeout, 1s);
    o.summary.mixed = true; // one round was EHOSTUNREACH
    o.summary.latency.max = 1s;
    auto r = diagnose_scenario("192.0.2.123:80", {o}, Os::linux_, 1s);
    CHECK(r.d.exit_code == exit_code::server_down);
    CHECK(r.d.verdict == "DOWN: nothing accepts on 192.0.2.123:80 (1 address tried; no answer "
                         "within 1.00 s: timed out)");
    CHECK_FALSE(find(r.d, finding_id::accept_queue_full));
}

TEST_CASE("IPv6 off here: said so, and no advice to listen on ::1", "[diagnose][verdict]") {
    auto off = observe(ipv6_loopback(18434), Outcome::unreachable, 40us);
    off.summary.native_name = "EADDRNOTAVAIL";
    auto r = diagnose_scenario(
        "localhost:18434", {off, observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::accepted, 90us)},
        Os::linux_, 5s, false, std::vector{listening(make_ipv4(127, 0, 0, 1, 18434), 9, "node")});
    auto* f = find(r.d, finding_id::ipv6_off);
    REQUIRE(f);
    CHECK(contains(f->message, "IPv6 is off here"));
    CHECK_FALSE(find(r.d, finding_id::single_stack_listener));
    for (const auto& fix : r.d.fixes)
        CHECK_FALSE(contains(fix, "::1"));
}

TEST_CASE("expect refused: an accept fails it, a slow refusal fails it, a timeout fails it",
          "[diagnose][verdict]") {
    auto accepts = diagnose_scenario(
        "127.0.0.1:18434", {observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::accepted, 90us)},
        Os::linux_, 5s, true);
    CHECK(accepts.d.exit_code == exit_code::not_refused);
    CHECK(accepts.d.verdict ==
          "UNEXPECTED: 127.0.0.1:18434 accepts on 127.0.0.1:18434 (--expect refused)");
    CHECK(find(accepts.d, finding_id::not_refused));
    auto slow =
        diagnose_scenario("[::1]:18434", {observe(ipv6_loopback(18434), Outcome::refused, 2030ms)},
                          Os::windows, 5s, true);
    CHECK(slow.d.exit_code == exit_code::slow);
    auto timeout = diagnose_scenario(
        "127.0.0.1:18434", {observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::timeout, 1s)},
        Os::linux_, 1s, true);
    CHECK(timeout.d.exit_code == exit_code::server_down);
    CHECK(contains(timeout.d.verdict, "timed out"));
    auto fast = diagnose_scenario("127.0.0.1:18434",
                                  {observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::refused, 80us)},
                                  Os::linux_, 5s, true);
    CHECK(fast.d.exit_code == exit_code::healthy);
    CHECK(fast.d.verdict.rfind("OK:", 0) == 0);
}

TEST_CASE("without full client rows the findings, fixes and verdict are the same", "[diagnose]") {
    // run/measure asks for lean rows when the report keeps none (more than
    // three targets, text): the one line per target must read the same.
    const std::vector<std::pair<std::string, std::vector<Observation>>> cases{
        {"localhost:8000",
         {observe(ipv6_loopback(8000), Outcome::refused, 1020ms, std::nullopt, 1),
          observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 100us)}},
        {"localhost:8000",
         {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::refused, 40us),
          observe(ipv6_loopback(8000), Outcome::accepted, 100us)}},
        {"127.0.0.1:9", {observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 30us)}},
        {"localhost:9",
         {observe(ipv6_loopback(9), Outcome::refused, 1020ms, std::nullopt, 1),
          observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 1019ms, std::nullopt, 1)}}};
    for (const auto& [input, obs] : cases) {
        for (const Os os : {Os::linux_, Os::windows}) {
            const Target target = *parse_target(input);
            DiagnosisInput in;
            in.target = &target;
            in.addresses = obs;
            in.os = os;
            const auto full = diagnose(in);
            in.full_client_rows = false;
            const auto lean = diagnose(in);
            INFO(input << " " << os_label(os) << ": " << full.verdict);
            CHECK(lean.verdict == full.verdict);
            CHECK(lean.exit_code == full.exit_code);
            CHECK(lean.fixes == full.fixes);
            REQUIRE(lean.findings.size() == full.findings.size());
            for (std::size_t i = 0; i < full.findings.size(); ++i) {
                CHECK(lean.findings[i].id == full.findings[i].id);
                CHECK(lean.findings[i].message == full.findings[i].message);
            }
            CHECK(lean.clients_agree == full.clients_agree);
        }
    }
}
