#include "loopcheck/core/clients/impact.hpp"
#include "support/catch.hpp"
#include "support/client_row.hpp"
#include "support/scenario.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

namespace {

const Address v4_loopback(std::uint16_t port) {
    return make_ipv4(127, 0, 0, 1, port);
}

// Windows 11, localhost -> ::1, 127.0.0.1; the server listens on 127.0.0.1
// only. ::1 is refused after 2.03 s with the defaults and after 0.7 ms with
// SYN retries off; 127.0.0.1 accepts in 0.2 ms (the seed articles' figures).
std::vector<Observation> windows_ipv4_only_server() {
    return {observe(ipv6_loopback(11434), Outcome::refused, 2030ms, 700us),
            observe(v4_loopback(11434), Outcome::accepted, 200us, 200us)};
}

// The network-namespace lab of issue 13: localhost -> ::1 first, the first
// RST of each connection dropped so a refusal costs about 1.02 s, a server
// on 127.0.0.1 only that accepts in 0.1 ms.
std::vector<Observation> lab_ipv4_only_server() {
    return {observe(ipv6_loopback(8000), Outcome::refused, 1020ms, std::nullopt, 1),
            observe(v4_loopback(8000), Outcome::accepted, 100us)};
}

// The lab's mirror: gai.conf ranks ::ffff:0:0/96 above ::1, so 127.0.0.1
// comes first and is refused after 1.02 s; the server listens on ::1 only.
std::vector<Observation> lab_ipv6_only_server() {
    return {observe(v4_loopback(8000), Outcome::refused, 1020ms, std::nullopt, 1),
            observe(ipv6_loopback(8000), Outcome::accepted, 100us)};
}

const ClientContext windows_localhost{"localhost", Os::windows};
const ClientContext linux_localhost{"localhost", Os::linux_};

} // namespace

TEST_CASE("every row has an id from the contract and a range that holds together", "[clients]") {
    const std::set<std::string> ids{"python",
                                    "python-httpx-async",
                                    "python-aiohttp",
                                    "python-asyncio",
                                    "python-asyncio-default",
                                    "dotnet",
                                    "curl",
                                    "wget",
                                    "node",
                                    "node-no-autoselect",
                                    "go",
                                    "java-socket",
                                    "java-httpclient",
                                    "ruby",
                                    "perl",
                                    "php"};
    std::set<std::string> seen;
    for (const auto& m : client_models()) {
        INFO(m.name);
        CHECK(ids.count(std::string(m.id)) == 1);
        seen.insert(std::string(m.id));
        if (!m.versions.min.empty() && !m.versions.below.empty())
            CHECK(m.versions.min != m.versions.below);
    }
    CHECK(seen == ids);
    // curl, Node.js, Go and Java Socket ranges chain: each row starts where the last ended.
    for (std::string_view id : {"curl", "node", "go", "java-socket"}) {
        std::string_view below;
        for (const auto& m : client_models()) {
            if (m.id != id)
                continue;
            CHECK(m.versions.min == below);
            below = m.versions.below;
        }
        CHECK(below.empty()); // the last row is open-ended
    }
}

TEST_CASE("Windows, IPv4-only server: the seed figures, row by row", "[clients]") {
    const auto all = predict_clients(windows_ipv4_only_server(), windows_localhost);
    REQUIRE(all.size() == client_models().size());
    for (const auto& c : all)
        CHECK_FALSE(c.windows.has_value()); // this is Windows already

    auto& py = row(all, "python").prediction;
    CHECK(py.connected);
    CHECK(py.time == 2030ms + 200us); // the whole refusal, then the fallback
    CHECK(endpoint_string(*py.via) == "127.0.0.1:11434");
    CHECK(py.attempts == 2);
    CHECK(row(all, "dotnet").prediction.time == 2030ms + 200us);
    CHECK(row(all, "wget").prediction.time == 2030ms + 200us);
    // Happy Eyeballs starts 127.0.0.1 after the delay, not after the refusal.
    CHECK(row(all, "python-asyncio").prediction.time == 250ms + 200us);
    // curl < 7.78 takes Windows' order (::1 first) and falls back after 200 ms.
    CHECK(row(all, "curl").prediction.time == 200ms + 200us);
    // 7.78 to 8.2.0 answers localhost itself with 127.0.0.1 first.
    CHECK(row(all, "curl", "7.78.0").prediction.time == 200us);
    CHECK(row(all, "curl", "7.78.0").prediction.attempts == 1);
    // From 8.2.1 ::1 comes first again: the 200 ms delay (curl #14144).
    CHECK(row(all, "curl", "8.2.1").prediction.time == 200ms + 200us);
    CHECK(row(all, "curl", "8.10.0").prediction.time == 200ms + 200us);
    CHECK(row(all, "curl", "8.16.0").prediction.time == 200ms + 200us);
    // 8.22 turns SYN retries off for ::1: the refusal is fast.
    CHECK(row(all, "curl", "8.22.0").prediction.time == 700us + 200us);
    // Node.js <= 16 sorts IPv4 first and connects there.
    CHECK(row(all, "node").prediction.time == 200us);
    // 17 to 19 tries ::1 only: refused at once (libuv), no fallback.
    auto& node18 = row(all, "node", "17.0.0").prediction;
    CHECK_FALSE(node18.connected);
    CHECK(node18.time == 700us);
    CHECK(node18.attempts == 1);
    // 20+: autoSelectFamily moves on after the fast refusal.
    CHECK(row(all, "node", "20.0.0").prediction.time == 700us + 200us);
    CHECK(row(all, "node", "25.2.0").prediction.time == 700us + 200us);
    // Go 1.21+ turns SYN retries off on loopback; before 1.21 the refusal
    // takes its 2.03 s and Go's 300 ms fallback to 127.0.0.1 wins.
    CHECK(row(all, "go", "1.21.0").prediction.time == 700us + 200us);
    CHECK(row(all, "go").prediction.time == 300ms + 200us);
    // Java prefers IPv4 and never tries ::1.
    auto& java = row(all, "java-socket").prediction;
    CHECK(java.time == 200us);
    CHECK(java.attempts == 1);
    CHECK(row(all, "java-httpclient", "11").prediction.time == 200us);
}

TEST_CASE("Node.js <= 16 fails fast on Windows only with libuv 1.39 (12.19+, 14.9+)", "[clients]") {
    // The server listens on ::1 only; Node.js <= 16 sorts IPv4 first and
    // tries 127.0.0.1 alone, so what it pays is that one refusal.
    const std::vector<Observation> win{observe(v4_loopback(8000), Outcome::refused, 2030ms, 700us),
                                       observe(ipv6_loopback(8000), Outcome::accepted, 200us)};
    const auto all = predict_clients(win, windows_localhost);
    for (const char* slow : {"", "13.0.0"}) {
        INFO(slow);
        CHECK_FALSE(row(all, "node", slow).prediction.connected);
        CHECK(row(all, "node", slow).prediction.time == 2030ms);
    }
    for (const char* fast : {"12.19.0", "14.9.0"}) {
        INFO(fast);
        CHECK_FALSE(row(all, "node", fast).prediction.connected);
        CHECK(row(all, "node", fast).prediction.time == 700us);
    }
    // Off Windows, the projection says the same.
    const std::vector<Observation> lin{observe(v4_loopback(8000), Outcome::refused, 50us),
                                       observe(ipv6_loopback(8000), Outcome::accepted, 100us)};
    const auto here = predict_clients(lin, linux_localhost);
    CHECK(row(here, "node").windows->time == windows_refusal_retries);
    CHECK(row(here, "node", "13.0.0").windows->time == windows_refusal_retries);
    CHECK(row(here, "node", "12.19.0").windows->time == windows_fast_refusal);
    CHECK(row(here, "node", "14.9.0").windows->time == windows_fast_refusal);
}

TEST_CASE("curl to localhost:9 on Windows fails after about 2.23 s", "[clients]") {
    // Both addresses refuse after 2.03 s; curl starts 127.0.0.1 200 ms
    // after ::1, so it gives up at 2.23 s (measured: 2.24 to 2.25 s).
    std::vector<Observation> obs{observe(ipv6_loopback(9), Outcome::refused, 2030ms, 700us),
                                 observe(v4_loopback(9), Outcome::refused, 2030ms, 700us)};
    const auto all = predict_clients(obs, windows_localhost);
    auto& curl = row(all, "curl", "8.2.1").prediction;
    CHECK_FALSE(curl.connected);
    CHECK(curl.time == 2230ms);
    CHECK(row(all, "python").prediction.time == 4060ms);
    CHECK(row(all, "node", "20.0.0").prediction.time == 1400us);
    // Java HttpClient (< 16: with the retries) runs the refused connect twice.
    auto& http = row(all, "java-httpclient", "11").prediction;
    CHECK_FALSE(http.connected);
    CHECK(http.time == 4060ms);
    CHECK(http.attempts == 2);
}

TEST_CASE("lab, IPv4-only server, 1.02 s refusals: the issue's real-client figures", "[clients]") {
    const auto all = predict_clients(lab_ipv4_only_server(), linux_localhost);
    // Python, urllib, socket.create_connection and wget measured 1.02 s.
    CHECK(row(all, "python").prediction.time == 1020ms + 100us);
    CHECK(row(all, "wget").prediction.time == 1020ms + 100us);
    // Node 20 measured 258 to 269 ms: the ::1 attempt cut at 250 ms.
    auto& node20 = row(all, "node", "20.0.0").prediction;
    CHECK(node20.connected);
    CHECK(node20.time == 250ms + 100us);
    CHECK(node20.attempts == 2);
    CHECK(row(all, "node", "25.2.0").prediction.time == 500ms + 100us);
    // Node 18 waits for the refusal of ::1 and does not fall back.
    auto& node18 = row(all, "node", "17.0.0").prediction;
    CHECK_FALSE(node18.connected);
    CHECK(node18.time == 1020ms);
    // curl 7.88 measured 0.2 ms: its own localhost answer starts at 127.0.0.1.
    CHECK(row(all, "curl", "7.78.0").prediction.time == 100us);
    // No SYN-retry clients do nothing off Windows: Go waits for its fallback.
    CHECK(row(all, "go").prediction.time == 300ms + 100us);
    CHECK(row(all, "go", "1.21.0").prediction.time == 300ms + 100us);
    CHECK(row(all, "curl", "8.22.0").prediction.time == 200ms + 100us);
}

TEST_CASE("lab, IPv6-only server with 127.0.0.1 first: Java fails, HttpClient twice", "[clients]") {
    const auto all = predict_clients(lab_ipv6_only_server(), linux_localhost);
    // Java HttpClient measured: fails after 2.04 s.
    auto& http = row(all, "java-httpclient", "11").prediction;
    CHECK_FALSE(http.connected);
    CHECK(http.time == 2040ms);
    CHECK(http.attempts == 2);
    auto& socket = row(all, "java-socket").prediction;
    CHECK_FALSE(socket.connected);
    CHECK(socket.time == 1020ms);
    CHECK(row(all, "python").prediction.time == 1020ms + 100us);
    // curl 7.78 to 8.2.0 starts with 127.0.0.1 whatever gai.conf says ...
    CHECK(row(all, "curl", "7.78.0").prediction.time == 200ms + 100us);
    // ... from 8.2.1 with ::1.
    CHECK(row(all, "curl", "8.2.1").prediction.time == 100us);
    // curl < 7.78 follows the resolver: 127.0.0.1 first, ::1 after 200 ms.
    CHECK(row(all, "curl").prediction.time == 200ms + 100us);
    // Node <= 16 and 17-19 try 127.0.0.1 only.
    CHECK_FALSE(row(all, "node").prediction.connected);
    CHECK_FALSE(row(all, "node", "17.0.0").prediction.connected);
    // Node 20 starts with the first address's family and moves on at 250 ms.
    CHECK(row(all, "node", "20.0.0").prediction.time == 250ms + 100us);
    // Go sorts by its own RFC 6724 table, not gai.conf: ::1 first. The
    // client harness measured Go 1.19 and 1.24 connecting via ::1 in 0.2 to
    // 0.4 ms here, not after the 300 ms fallback.
    auto& go = row(all, "go").prediction;
    CHECK(go.time == 100us);
    CHECK(endpoint_string(*go.via) == "[::1]:8000");
    // On Windows Go asks the OS: the observed order stands.
    const auto win = predict_clients(lab_ipv6_only_server(), windows_localhost);
    CHECK(row(win, "go").prediction.time == 300ms + 100us);
}

TEST_CASE("off Windows, each row also says what Windows would cost", "[clients]") {
    // Linux: localhost -> ::1, 127.0.0.1; refusals are instant (50 us).
    std::vector<Observation> obs{observe(ipv6_loopback(8000), Outcome::refused, 50us),
                                 observe(v4_loopback(8000), Outcome::accepted, 100us)};
    const auto all = predict_clients(obs, linux_localhost);
    for (const auto& c : all)
        REQUIRE(c.windows.has_value());
    CHECK(row(all, "python").prediction.time == 150us);
    CHECK(row(all, "python").windows->time == windows_refusal_retries + 100us);
    // Clients that turn SYN retries off on loopback pay Windows' fast
    // refusal (not this machine's 50 us), then the accept.
    CHECK(row(all, "node", "20.0.0").windows->time == windows_fast_refusal + 100us);
    CHECK(row(all, "go", "1.21.0").windows->time == windows_fast_refusal + 100us);
    // Go before 1.21 keeps Windows' retries: its 300 ms fallback wins.
    CHECK(row(all, "go").windows->time == 300ms + 100us);
    CHECK(row(all, "curl", "8.22.0").windows->time == windows_fast_refusal + 100us);
    // Node 17-19 fails on both; Windows does not change that.
    CHECK_FALSE(row(all, "node", "17.0.0").windows->connected);
    CHECK(row(all, "curl", "8.2.1").windows->time == 200ms + 100us);
}

TEST_CASE("as_on_windows puts Windows' refusal cost in place of this machine's", "[clients]") {
    std::vector<Observation> obs{observe(ipv6_loopback(1), Outcome::refused, 50us),
                                 observe(v4_loopback(1), Outcome::accepted, 100us),
                                 observe(make_ipv4(10, 0, 0, 1, 1), Outcome::timeout, 5s)};
    WindowsProjection p;
    const auto w = as_on_windows(obs, {"app.test", Os::linux_, {}}, &p);
    REQUIRE(w.size() == 3);
    CHECK(p.addresses.size() == 3);
    CHECK(p.assumed.find("this machine's address order") != std::string::npos);
    CHECK(w[0].summary.latency.median == windows_refusal_retries);
    REQUIRE(w[0].summary.fast_latency.has_value());
    CHECK(w[0].summary.fast_latency->median == windows_fast_refusal);
    CHECK(w[1].summary.latency.median == 100us);
    CHECK_FALSE(w[1].summary.fast_latency.has_value());
    CHECK(w[2].summary.latency.median == 5s);
}

TEST_CASE("as_on_windows: a refusal without SYN retries costs Windows' figure, not this "
          "machine's",
          "[clients]") {
    // Linux refuses ::1 in 0.067 ms; a slow lab in 3 ms, with its no-retry
    // twin as slow: neither is what Windows pays.
    for (const Micros here : {Micros{67}, Micros{3'000}}) {
        CAPTURE(here.count());
        auto refused = observe(ipv6_loopback(1), Outcome::refused, here);
        refused.summary.fast_outcome = Outcome::refused;
        refused.summary.fast_latency = refused.summary.latency;
        std::vector<Observation> obs{refused, observe(v4_loopback(1), Outcome::accepted, 90us)};
        for (const auto& ctx : {ClientContext{"localhost", Os::linux_, {}},
                                ClientContext{"app.test", Os::macos, {}}}) {
            const auto w = as_on_windows(obs, ctx);
            REQUIRE(w.size() == 2);
            REQUIRE(w[0].summary.fast_latency.has_value());
            CHECK(w[0].summary.fast_latency->median == windows_fast_refusal);
            CHECK(w[0].summary.latency.median == windows_refusal_retries);
        }
    }
}

TEST_CASE("curl answers localhost itself", "[clients]") {
    CHECK(curl_answers_itself("localhost"));
    CHECK(curl_answers_itself("LocalHost."));
    CHECK(curl_answers_itself("app.localhost"));
    CHECK_FALSE(curl_answers_itself("localhost.example"));
    CHECK_FALSE(curl_answers_itself("notlocalhost"));
    CHECK_FALSE(curl_answers_itself("127.0.0.1"));

    // The hosts file gives localhost only 127.0.0.1: curl would try ::1
    // too, but only what was probed can be costed.
    std::vector<Observation> v4only{observe(v4_loopback(80), Outcome::accepted, 100us)};
    const ClientModel* curl821 = nullptr;
    for (const auto& m : client_models())
        if (m.id == "curl" && m.versions.min == "8.2.1")
            curl821 = &m;
    REQUIRE(curl821 != nullptr);
    auto a = attempts_for(*curl821, v4only, linux_localhost);
    REQUIRE(a.size() == 1);
    CHECK(a.front().address.family == Family::ipv4);
    // Another name goes through the resolver, in its order (IPv6 first
    // from 8.10, here not yet).
    std::vector<Observation> named{observe(v4_loopback(80), Outcome::refused, 20us),
                                   observe(ipv6_loopback(80), Outcome::accepted, 30us)};
    a = attempts_for(*curl821, named, {"db.internal", Os::linux_});
    CHECK(a.front().address.family == Family::ipv4);
}

TEST_CASE("Node.js autoSelectFamily: every attempt but the last is cut", "[clients]") {
    std::vector<Attempt> a{{ipv6_loopback(1), Outcome::timeout, 5s},
                           {v4_loopback(1), Outcome::timeout, 5s}};
    auto p = simulate(ConnectAlgorithm::attempt_timeout, 250ms, a);
    CHECK_FALSE(p.connected);
    CHECK(p.time == 250ms + 5s);
    CHECK(p.lower_bound); // the last one ran to loopcheck's timeout
    CHECK(p.attempts == 2);
    // One address: a plain connect, no cut.
    auto one = simulate(ConnectAlgorithm::attempt_timeout, 250ms, std::span(a).first(1));
    CHECK(one.time == 5s);
    // A slow accept on the first address is cut too, and lost.
    std::vector<Attempt> slow{{ipv6_loopback(1), Outcome::accepted, 300ms},
                              {v4_loopback(1), Outcome::refused, 1ms}};
    auto q = simulate(ConnectAlgorithm::attempt_timeout, 250ms, slow);
    CHECK_FALSE(q.connected);
    CHECK(q.time == 251ms);
}

TEST_CASE("Java HttpClient does not retry a timeout", "[clients]") {
    std::vector<Observation> obs{observe(v4_loopback(80), Outcome::timeout, 5s)};
    const auto all = predict_clients(obs, {"example.internal", Os::linux_});
    auto& http = row(all, "java-httpclient", "11").prediction;
    CHECK(http.time == 5s);
    CHECK(http.attempts == 1);
    CHECK(http.lower_bound);
}

TEST_CASE("Happy Eyeballs: a fast failure starts the next attempt at once", "[clients]") {
    std::vector<Attempt> a{{ipv6_loopback(1), Outcome::refused, 50us},
                           {v4_loopback(1), Outcome::accepted, 100us}};
    auto p = simulate(ConnectAlgorithm::happy_eyeballs, 250ms, a);
    CHECK(p.connected);
    CHECK(p.time == 150us);
}

TEST_CASE("Happy Eyeballs: a slow first success still wins if it ends first", "[clients]") {
    std::vector<Attempt> a{{ipv6_loopback(1), Outcome::accepted, 260ms},
                           {v4_loopback(1), Outcome::accepted, 100ms}};
    auto p = simulate(ConnectAlgorithm::happy_eyeballs, 250ms, a);
    CHECK(p.time == 260ms);
    CHECK(p.via->family == Family::ipv6);
    auto q = simulate(ConnectAlgorithm::happy_eyeballs, 100ms, a);
    CHECK(q.time == 200ms); // second starts at 100 ms, ends at 200 ms
    CHECK(q.via->family == Family::ipv4);
}

TEST_CASE("Go: fallbacks race after the delay", "[clients]") {
    std::vector<Attempt> a{{ipv6_loopback(1), Outcome::timeout, 5s},
                           {v4_loopback(1), Outcome::accepted, 1ms}};
    auto p = simulate(ConnectAlgorithm::go_dual_stack, 300ms, a);
    CHECK(p.connected);
    CHECK(p.time == 301ms);
    CHECK_FALSE(p.lower_bound); // the timed-out primary did not delay the winner

    auto seq = simulate(ConnectAlgorithm::sequential, 0ms, a);
    CHECK(seq.time == 5001ms);
    CHECK(seq.lower_bound); // the client's own timeout may be longer than ours
}

TEST_CASE("IPv6-first ordering for curl >= 8.10", "[clients]") {
    std::vector<Observation> obs{observe(v4_loopback(80), Outcome::refused, 20us),
                                 observe(ipv6_loopback(80), Outcome::accepted, 30us)};
    for (const auto& m : client_models()) {
        if (!m.ipv6_first)
            continue;
        INFO(m.name);
        auto attempts = attempts_for(m, obs, {"db.internal", Os::linux_});
        CHECK(attempts.front().address.family == Family::ipv6);
    }
}

TEST_CASE("no addresses: nobody connects", "[clients]") {
    for (auto kind : {ConnectAlgorithm::sequential, ConnectAlgorithm::happy_eyeballs,
                      ConnectAlgorithm::go_dual_stack, ConnectAlgorithm::first_ipv4,
                      ConnectAlgorithm::first_address, ConnectAlgorithm::attempt_timeout}) {
        auto p = simulate(kind, 250ms, {});
        CHECK_FALSE(p.connected);
        CHECK(p.attempts == 0);
    }
}

TEST_CASE("curl's localhost: an address the resolver left out, probed on the side", "[clients]") {
    // The hosts file lists only 127.0.0.1 localhost; the server listens on
    // ::1 only. Measured: curl 7.88.1 tries 127.0.0.1, then connects via ::1.
    std::vector<Observation> resolved{observe(v4_loopback(80), Outcome::refused, 70us)};
    std::vector<Observation> side{observe(ipv6_loopback(80), Outcome::accepted, 80us)};
    const auto all = predict_clients(resolved, {"localhost", Os::linux_, side});
    auto& curl788 = row(all, "curl", "7.78.0").prediction;
    CHECK(curl788.connected);
    CHECK(endpoint_string(*curl788.via) == "[::1]:80");
    CHECK(curl788.time == 150us); // 127.0.0.1 refused, then ::1 at once
    CHECK(row(all, "curl", "8.2.1").prediction.time == 80us);
    // Rows that ask the resolver never see ::1.
    CHECK_FALSE(row(all, "curl").prediction.connected);
    CHECK_FALSE(row(all, "python").prediction.connected);
    // The side probe also gets its Windows cost.
    REQUIRE(row(all, "curl", "7.78.0").windows);
    CHECK(row(all, "curl", "7.78.0").windows->time == 200ms + 80us);
}

TEST_CASE("RFC 6724's default precedence", "[clients]") {
    CHECK(rfc6724_precedence(ipv6_loopback()) == 50);
    CHECK(rfc6724_precedence(make_ipv4(127, 0, 0, 1)) == 35);
    CHECK(rfc6724_precedence(*parse_ip_literal("2a00:1450::1")) == 40);
    CHECK(rfc6724_precedence(*parse_ip_literal("2002:c000:0204::1")) == 30);
    CHECK(rfc6724_precedence(*parse_ip_literal("2001:0:4136::1")) == 5);
    CHECK(rfc6724_precedence(*parse_ip_literal("fd00::1")) == 3);
    CHECK(rfc6724_precedence(*parse_ip_literal("fec0::1")) == 1);
    CHECK(rfc6724_precedence(*parse_ip_literal("::")) == 1);
}

TEST_CASE("on Windows, localhost is Windows' own answer: ::1 then 127.0.0.1", "[clients]") {
    // Linux, stock hosts file: localhost -> 127.0.0.1 only, the server on
    // 127.0.0.1 only; ::1 was probed on the side for curl, and refused.
    const std::vector<Observation> obs{observe(v4_loopback(11434), Outcome::accepted, 100us)};
    const std::vector<Observation> extra{observe(ipv6_loopback(11434), Outcome::refused, 50us)};
    WindowsProjection p;
    const auto all = predict_clients(obs, {"localhost", Os::linux_, extra}, &p);
    REQUIRE(p.addresses.size() == 2);
    CHECK(ip_string(p.addresses[0]) == "::1");
    CHECK(ip_string(p.addresses[1]) == "127.0.0.1");
    CHECK(p.assumed.find("Windows answers it itself") != std::string::npos);
    CHECK(row(all, "python").prediction.time == 100us);
    CHECK(row(all, "python").windows->time == windows_refusal_retries + 100us);
    CHECK(row(all, "dotnet").windows->time == windows_refusal_retries + 100us);
}

TEST_CASE("a slow lab refusal becomes 2 s on Windows, not 3 s", "[clients]") {
    // A netns lab whose ::1 refusal takes 1 s here (one Linux retry).
    const std::vector<Observation> obs{observe(ipv6_loopback(80), Outcome::refused, 1s),
                                       observe(v4_loopback(80), Outcome::accepted, 100us)};
    const auto all = predict_clients(obs, linux_localhost);
    CHECK(row(all, "python").prediction.time == 1s + 100us);
    CHECK(row(all, "python").windows->time == windows_refusal_retries + 100us);
    // A client that turns SYN retries off pays at most a fast refusal.
    CHECK(row(all, "node", "20.0.0").windows->time <= windows_fast_refusal + 100us);
}

TEST_CASE("IPv6 off here: on Windows ::1 exists and refuses", "[clients]") {
    auto off = observe(ipv6_loopback(80), Outcome::unreachable, 40us);
    const std::vector<Observation> obs{off, observe(v4_loopback(80), Outcome::accepted, 100us)};
    const auto all = predict_clients(obs, linux_localhost);
    CHECK(row(all, "python").windows->time == windows_refusal_retries + 100us);
}

TEST_CASE("rows that behave alike share a prediction: each row as if predicted alone",
          "[clients]") {
    // predict_clients reuses the prediction of the first row with the same
    // algorithm, delay, address source and retries; every row must still
    // get what its own model predicts, here and on Windows.
    const std::vector<std::pair<std::vector<Observation>, ClientContext>> cases{
        {windows_ipv4_only_server(), windows_localhost},
        {lab_ipv4_only_server(), linux_localhost},
        {lab_ipv6_only_server(), linux_localhost},
        {{observe(v4_loopback(9), Outcome::refused, 30us)}, {"127.0.0.1", Os::linux_}}};
    for (const auto& [obs, ctx] : cases) {
        const auto rows = predict_clients(obs, ctx);
        const auto windows_obs = as_on_windows(obs, ctx);
        const auto models = client_models();
        REQUIRE(rows.size() == models.size());
        for (std::size_t i = 0; i < models.size(); ++i) {
            INFO(rows[i].client);
            const auto alone = predict(models[i], obs, ctx);
            CHECK(rows[i].prediction.connected == alone.connected);
            CHECK(rows[i].prediction.time == alone.time);
            CHECK(rows[i].prediction.via == alone.via);
            CHECK(rows[i].prediction.attempts == alone.attempts);
            if (ctx.os != Os::windows) {
                REQUIRE(rows[i].windows.has_value());
                const auto there = predict(models[i], windows_obs, {ctx.host, Os::windows, {}});
                CHECK(rows[i].windows->time == there.time);
                CHECK(rows[i].windows->connected == there.connected);
            }
        }
    }
}

TEST_CASE("without full rows: the same ids, names and predictions, nothing else", "[clients]") {
    // The many-targets text report keeps no rows: what the findings read
    // (id, name, prediction here) must not change.
    const auto obs = lab_ipv4_only_server();
    auto lean_ctx = linux_localhost;
    lean_ctx.full_rows = false;
    const auto full = predict_clients(obs, linux_localhost);
    const auto lean = predict_clients(obs, lean_ctx);
    REQUIRE(full.size() == lean.size());
    for (std::size_t i = 0; i < full.size(); ++i) {
        INFO(full[i].client);
        CHECK(lean[i].id == full[i].id);
        CHECK(lean[i].client == full[i].client);
        CHECK(lean[i].prediction.connected == full[i].prediction.connected);
        CHECK(lean[i].prediction.time == full[i].prediction.time);
        CHECK(lean[i].prediction.via == full[i].prediction.via);
        CHECK(lean[i].algorithm.empty());
        CHECK(lean[i].libraries.empty());
        CHECK_FALSE(lean[i].windows.has_value());
    }
}
