// The rows of issue 25: httpx's AsyncClient (anyio's own address order),
// aiohttp before and after aiohappyeyeballs, asyncio without a delay,
// Node.js without autoSelectFamily, Ruby, Perl and PHP; and every row's
// libraries and connection reuse.
#include "loopcheck/core/clients/impact.hpp"
#include "loopcheck/core/clients/table.hpp"
#include "support/catch.hpp"
#include "support/client_row.hpp"
#include "support/scenario.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

namespace {

const ClientModel& model(std::string_view id, std::string_view min = "") {
    for (const auto& m : client_models())
        if (m.id == id && m.versions.min == min)
            return m;
    FAIL("no model " << id);
    return client_models().front();
}

const ClientContext linux_localhost{"localhost", Os::linux_};
const ClientContext windows_localhost{"localhost", Os::windows};

// The lab with gai.conf putting 127.0.0.1 first and a server on 127.0.0.1
// only: every resolver-order client connects at once.
std::vector<Observation> v4_first_ipv4_only_server() {
    return {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 100us),
            observe(ipv6_loopback(8000), Outcome::refused, 1020ms, std::nullopt, 1)};
}

// The same order, the server on ::1 only: 127.0.0.1 refused after 1.02 s.
std::vector<Observation> v4_first_ipv6_only_server() {
    return {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::refused, 1020ms, std::nullopt, 1),
            observe(ipv6_loopback(8000), Outcome::accepted, 100us)};
}

// Windows, ::1 first, server on 127.0.0.1 only: ::1 refused after 2.03 s,
// or 0.7 ms with SYN retries off (the seed figures).
std::vector<Observation> windows_ipv4_only_server(std::uint16_t port) {
    return {observe(ipv6_loopback(port), Outcome::refused, 2030ms, 700us),
            observe(make_ipv4(127, 0, 0, 1, port), Outcome::accepted, 200us)};
}

// ::1 first (the hosts file), server on 127.0.0.1 only.
std::vector<Observation> v6_first_ipv4_only_server() {
    return {observe(ipv6_loopback(8000), Outcome::refused, 1020ms, std::nullopt, 1),
            observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 100us)};
}

} // namespace

TEST_CASE("httpx.AsyncClient: IPv6 first whatever the resolver says", "[clients]") {
    SECTION("127.0.0.1 first, IPv4-only server: the issue's 254-325 ms, not 0.1 ms") {
        const auto all = predict_clients(v4_first_ipv4_only_server(), linux_localhost);
        const auto& p = row(all, "python-httpx-async").prediction;
        CHECK(p.connected);
        CHECK(p.time == 250ms + 100us); // ::1 first, 127.0.0.1 after the delay
        CHECK(ip_string(*p.via) == "127.0.0.1");
        // The sync clients take the resolver's order and pay nothing.
        CHECK(row(all, "python").prediction.time == 100us);
        CHECK(row(all, "python-asyncio").prediction.time == 100us);
    }
    SECTION("127.0.0.1 first, IPv6-only server: straight to ::1") {
        const auto all = predict_clients(v4_first_ipv6_only_server(), linux_localhost);
        const auto& p = row(all, "python-httpx-async").prediction;
        CHECK(p.connected);
        CHECK(p.time == 100us);
        CHECK(ip_string(*p.via) == "::1");
        CHECK(row(all, "python").prediction.time == 1020ms + 100us);
    }
    SECTION("on Windows the refusal's 2 s are cut at 250 ms") {
        const auto all = predict_clients(windows_ipv4_only_server(11434), windows_localhost);
        CHECK(row(all, "python-httpx-async").prediction.time == 250ms + 200us);
        CHECK(row(all, "python").prediction.time == 2030ms + 200us);
    }
}

TEST_CASE("anyio's order: the first IPv6 address first, the first IPv4 one after it second",
          "[clients]") {
    const auto& m = model("python-httpx-async");
    // 10.0.0.1, 10.0.0.2, fd00::1, 10.0.0.3, fd00::2 -> fd00::1, 10.0.0.3, 10.0.0.1,
    // 10.0.0.2, fd00::2 (anyio inserts at 0 and 1 and appends the rest).
    auto v6 = [](std::uint8_t last) {
        Address a = ipv6_loopback(80);
        a.bytes[0] = 0xfd;
        a.bytes[15] = last;
        return a;
    };
    const std::vector<Address> in{make_ipv4(10, 0, 0, 1, 80), make_ipv4(10, 0, 0, 2, 80), v6(1),
                                  make_ipv4(10, 0, 0, 3, 80), v6(2)};
    CHECK(attempt_order(m, in) == std::vector<std::size_t>{2, 3, 0, 1, 4});
    // No IPv6 address: the resolver's order.
    const std::vector<Address> v4s{make_ipv4(10, 0, 0, 1, 80), make_ipv4(10, 0, 0, 2, 80)};
    CHECK(attempt_order(m, v4s) == std::vector<std::size_t>{0, 1});
}

TEST_CASE("aiohttp: one address after another before 3.10, Happy Eyeballs from 3.10", "[clients]") {
    const auto all = predict_clients(v6_first_ipv4_only_server(), linux_localhost);
    // The Debian 12 figure: aiohttp 3.8.4 paid the whole refusal.
    CHECK(row(all, "python-aiohttp").prediction.time == 1020ms + 100us);
    CHECK(row(all, "python-aiohttp", "3.10.0").prediction.time == 250ms + 100us);
    CHECK(model("python-aiohttp").versions.below == "3.10.0");
}

TEST_CASE("asyncio without happy_eyeballs_delay is sequential", "[clients]") {
    const auto all = predict_clients(v6_first_ipv4_only_server(), linux_localhost);
    CHECK(row(all, "python-asyncio-default").prediction.time == 1020ms + 100us);
    CHECK(row(all, "python-asyncio").prediction.time == 250ms + 100us);
}

TEST_CASE("Node.js with autoSelectFamily off fails while the server is up", "[clients]") {
    const auto all = predict_clients(v6_first_ipv4_only_server(), linux_localhost);
    const auto& p = row(all, "node-no-autoselect", "18.13.0").prediction;
    CHECK_FALSE(p.connected);
    CHECK(p.time == 1020ms);
    CHECK(p.attempts == 1);
    // With autoSelectFamily (the default from 20) the same set-up connects.
    CHECK(row(all, "node", "20.0.0").prediction.connected);
    // On Windows, libuv's fast loopback refusal: 0.7 ms, not 2 s.
    const auto win = predict_clients(windows_ipv4_only_server(3000), windows_localhost);
    CHECK(row(win, "node-no-autoselect", "18.13.0").prediction.time == 700us);
}

TEST_CASE("Ruby, Perl and PHP try one address after another", "[clients]") {
    const auto all = predict_clients(v6_first_ipv4_only_server(), linux_localhost);
    for (std::string id : {"ruby", "perl", "php"}) {
        INFO(id);
        const auto& p = row(all, id).prediction;
        CHECK(p.connected);
        CHECK(p.time == 1020ms + 100us);
    }
    CHECK(model("ruby").versions.below == "3.4.0"); // 3.4: Happy Eyeballs v2 (below)
}

TEST_CASE("Ruby >= 3.4: Happy Eyeballs v2 off Windows, one address at a time on Windows",
          "[clients]") {
    CHECK(model("ruby", "3.4.0").versions.below.empty());
    CHECK(model("ruby", "3.4.0").sequential_on_windows);
    CHECK_FALSE(model("ruby").sequential_on_windows);
    SECTION("::1 first, server on 127.0.0.1: 127.0.0.1 starts 250 ms after ::1") {
        const auto all = predict_clients(v6_first_ipv4_only_server(), linux_localhost);
        const auto& p = row(all, "ruby", "3.4.0").prediction;
        CHECK(p.connected);
        CHECK(p.time == 250ms + 100us);
        CHECK(p.attempts == 2);
        CHECK(row(all, "ruby").prediction.time == 1020ms + 100us);
    }
    SECTION("127.0.0.1 first: Ruby still starts with ::1 (IPv6 first), the older rows do not") {
        const auto all = predict_clients(v4_first_ipv4_only_server(), linux_localhost);
        CHECK(row(all, "ruby", "3.4.0").prediction.time == 250ms + 100us);
        CHECK(row(all, "ruby").prediction.time == 100us);
    }
    SECTION("server on ::1 only, 127.0.0.1 first: ::1 is tried first and accepts") {
        const auto all = predict_clients(v4_first_ipv6_only_server(), linux_localhost);
        const auto& p = row(all, "ruby", "3.4.0").prediction;
        CHECK(p.connected);
        CHECK(p.attempts == 1);
    }
    SECTION("on Windows: the resolver's order, the whole refusal paid") {
        const auto all = predict_clients(windows_ipv4_only_server(3000), windows_localhost);
        const auto& p = row(all, "ruby", "3.4.0").prediction;
        CHECK(p.connected);
        CHECK(p.time == 2030ms + 200us);
        CHECK(row(all, "ruby").prediction.time == 2030ms + 200us);
    }
    SECTION("the \"on Windows\" column of a Linux report is the Windows behaviour") {
        const auto all = predict_clients(v6_first_ipv4_only_server(), linux_localhost);
        const auto& w = row(all, "ruby", "3.4.0").windows;
        REQUIRE(w);
        CHECK(w->connected);
        CHECK(w->time >= 2000ms);
    }
}

TEST_CASE("every row names its libraries and says whether a second request reuses", "[clients]") {
    const auto all = predict_clients(v6_first_ipv4_only_server(), linux_localhost);
    for (const auto& c : all) {
        INFO(c.client);
        CHECK_FALSE(c.libraries.empty());
        CHECK_FALSE(c.reuse_note.empty());
        for (const auto& l : c.libraries) {
            CHECK_FALSE(l.empty());
            CHECK(l.find(", ") == std::string::npos);
        }
    }
    auto has = [](const ClientImpact& c, std::string_view lib) {
        return std::find(c.libraries.begin(), c.libraries.end(), lib) != c.libraries.end();
    };
    CHECK(has(row(all, "python"), "openai (OpenAI)"));
    CHECK(has(row(all, "python"), "requests"));
    CHECK(has(row(all, "python-httpx-async"), "openai (AsyncOpenAI)"));
    CHECK(has(row(all, "python-httpx-async"), "ollama (AsyncClient)"));
    CHECK(has(row(all, "node", "20.0.0"), "axios"));
    CHECK(has(row(all, "node", "20.0.0"), "fetch (undici; Node.js 18+)"));
    CHECK(has(row(all, "node", "20.0.0"), "ollama (ollama-js)"));
    // requests without a Session: a new connection per call; one httpx
    // client: reused; fetch back to back: the second request pays again.
    CHECK(row(all, "python").reuse == Reuse::depends);
    CHECK(row(all, "python-httpx-async").reuse == Reuse::pooled);
    CHECK(row(all, "php").reuse == Reuse::per_call);
    CHECK(row(all, "node", "20.0.0").reuse_note.find("second request opens a new connection") !=
          std::string::npos);
    CHECK(reuse_name(Reuse::pooled) == "pooled");
    CHECK(reuse_name(Reuse::per_call) == "per_call");
    CHECK(reuse_name(Reuse::depends) == "depends");
}

TEST_CASE("versions: dotted parts compared as numbers, never wrapped", "[clients]") {
    CHECK(version_less("3.9.5", "3.10"));
    CHECK_FALSE(version_less("3.10.0", "3.10"));
    CHECK(version_less("0.9", "0.10.1"));
    // 2^32 wrapped to 0 in a 32-bit part and read as "aiohttp < 3.10".
    CHECK_FALSE(version_less("4294967296.0", "3.10"));
    CHECK_FALSE(version_less("99999999999999999999999", "3.10"));
    // A part's digits only: a pre-release suffix does not turn into digits.
    CHECK(version_less("3.10rc1", "3.11"));
    CHECK(in_version_range({"3.10", ""}, "3.11.2"));
    CHECK_FALSE(in_version_range({"", "3.10"}, "3.11.2"));
    CHECK(in_version_range({"1.21", "1.22"}, "1.21.5"));
}
