#include "loopcheck/core/clients.hpp"
#include "support/catch.hpp"
#include "support/scenario.hpp"

#include <string>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

namespace {

const ClientImpact& client(const std::vector<ClientImpact>& all, const std::string& prefix) {
    for (const auto& c : all)
        if (c.client.rfind(prefix, 0) == 0)
            return c;
    FAIL("no client " << prefix);
    return all.front();
}

// Windows 11, localhost -> ::1, 127.0.0.1; the server listens on 127.0.0.1
// only. ::1 is refused after 2.03 s with the defaults and after 0.7 ms with
// SYN retries off; 127.0.0.1 accepts in 0.2 ms (the seed articles' figures).
std::vector<Observation> windows_ipv4_only_server() {
    return {observe(ipv6_loopback(11434), Outcome::refused, 2030ms, 700us),
            observe(make_ipv4(127, 0, 0, 1, 11434), Outcome::accepted, 200us, 200us)};
}

} // namespace

TEST_CASE("Windows, IPv4-only server: what each client pays", "[clients]") {
    const auto all = predict_clients(windows_ipv4_only_server());
    REQUIRE(all.size() == client_models().size());

    auto& py = client(all, "Python requests").prediction;
    CHECK(py.connected);
    CHECK(py.time == 2030ms + 200us); // the whole refusal, then the fallback
    CHECK(endpoint_string(*py.via) == "127.0.0.1:11434");
    CHECK(py.attempts == 2);

    CHECK(client(all, ".NET").prediction.time == 2030ms + 200us);
    // Happy Eyeballs starts 127.0.0.1 after the delay, not after the refusal.
    CHECK(client(all, "Python asyncio").prediction.time == 250ms + 200us);
    CHECK(client(all, "curl < 8.22").prediction.time == 200ms + 200us);
    // No SYN retries on loopback: the refusal is fast, the fallback immediate.
    CHECK(client(all, "curl >= 8.22").prediction.time == 700us + 200us);
    CHECK(client(all, "Node.js").prediction.time == 700us + 200us);
    CHECK(client(all, "Go").prediction.time == 700us + 200us);
    // Java prefers IPv4 and never tries ::1.
    auto& java = client(all, "Java").prediction;
    CHECK(java.time == 200us);
    CHECK(java.attempts == 1);
}

TEST_CASE("curl < 8.22 to localhost:9 on Windows fails after about 2.23 s", "[clients]") {
    // Both addresses refuse after 2.03 s; curl starts 127.0.0.1 200 ms
    // after ::1, so it gives up at 2.23 s (measured: 2.24 to 2.25 s).
    std::vector<Observation> obs{
        observe(ipv6_loopback(9), Outcome::refused, 2030ms, 700us),
        observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 2030ms, 700us)};
    const auto all = predict_clients(obs);
    auto& curl = client(all, "curl < 8.22").prediction;
    CHECK_FALSE(curl.connected);
    CHECK(curl.time == 2230ms);
    CHECK(client(all, "Python requests").prediction.time == 4060ms);
    CHECK(client(all, "Node.js").prediction.time == 1400us);
}

TEST_CASE("Happy Eyeballs: a fast failure starts the next attempt at once", "[clients]") {
    std::vector<Attempt> a{{ipv6_loopback(1), Outcome::refused, 50us},
                           {make_ipv4(127, 0, 0, 1, 1), Outcome::accepted, 100us}};
    auto p = simulate(ConnectAlgorithm::happy_eyeballs, 250ms, a);
    CHECK(p.connected);
    CHECK(p.time == 150us);
}

TEST_CASE("Happy Eyeballs: a slow first success still wins if it ends first", "[clients]") {
    std::vector<Attempt> a{{ipv6_loopback(1), Outcome::accepted, 260ms},
                           {make_ipv4(127, 0, 0, 1, 1), Outcome::accepted, 100ms}};
    auto p = simulate(ConnectAlgorithm::happy_eyeballs, 250ms, a);
    CHECK(p.time == 260ms);
    CHECK(p.via->family == Family::ipv6);
    auto q = simulate(ConnectAlgorithm::happy_eyeballs, 100ms, a);
    CHECK(q.time == 200ms); // second starts at 100 ms, ends at 200 ms
    CHECK(q.via->family == Family::ipv4);
}

TEST_CASE("Go: fallbacks race after the delay", "[clients]") {
    std::vector<Attempt> a{{ipv6_loopback(1), Outcome::timeout, 5s},
                           {make_ipv4(127, 0, 0, 1, 1), Outcome::accepted, 1ms}};
    auto p = simulate(ConnectAlgorithm::go_dual_stack, 300ms, a);
    CHECK(p.connected);
    CHECK(p.time == 301ms);
    CHECK_FALSE(p.lower_bound); // the timed-out primary did not delay the winner

    auto seq = simulate(ConnectAlgorithm::sequential, 0ms, a);
    CHECK(seq.time == 5001ms);
    CHECK(seq.lower_bound); // the client's own timeout may be longer than ours
}

TEST_CASE("IPv6-first ordering for curl", "[clients]") {
    std::vector<Observation> obs{observe(make_ipv4(127, 0, 0, 1, 80), Outcome::refused, 20us),
                                 observe(ipv6_loopback(80), Outcome::accepted, 30us)};
    const ClientModel* curl = nullptr;
    for (const auto& m : client_models())
        if (m.ipv6_first)
            curl = &m;
    REQUIRE(curl != nullptr);
    auto attempts = attempts_for(*curl, obs);
    CHECK(attempts.front().address.family == Family::ipv6);
}

TEST_CASE("no addresses: nobody connects", "[clients]") {
    for (auto kind : {ConnectAlgorithm::sequential, ConnectAlgorithm::happy_eyeballs,
                      ConnectAlgorithm::go_dual_stack, ConnectAlgorithm::first_ipv4}) {
        auto p = simulate(kind, 250ms, {});
        CHECK_FALSE(p.connected);
        CHECK(p.attempts == 0);
    }
}
