// fold_clients: the client rows grouped by outcome, each client's run of
// version rows named once, for any rows (hand-made ones and the real table).
#include "loopcheck/core/clients/fold.hpp"
#include "support/catch.hpp"
#include "support/scenario.hpp"

#include <algorithm>
#include <string>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

namespace {

ClientImpact row(std::string id, std::string client, bool connected, Micros t,
                 std::optional<std::string> min = std::nullopt,
                 std::optional<std::string> below = std::nullopt) {
    ClientImpact c;
    c.id = std::move(id);
    c.client = std::move(client);
    c.min_version = std::move(min);
    c.below_version = std::move(below);
    c.prediction.connected = connected;
    c.prediction.time = t;
    return c;
}

std::vector<std::string> names(const ClientGroup& g) {
    return g.names;
}

} // namespace

TEST_CASE("clients that pay the same are one group, failures first, then the slowest",
          "[client_fold]") {
    const std::vector<ClientImpact> rows{
        row("python", "Python requests", true, 2030ms),
        row("dotnet", ".NET HttpClient", true, 2031ms),
        row("node", "Node.js < 17", true, 200us, std::nullopt, "17"),
        row("node", "Node.js 17 to 19", false, 700us, "17", "20"),
        row("node", "Node.js >= 20", true, 250ms, "20"),
        row("wget", "wget", true, 2029ms),
    };
    const auto groups = fold_clients(rows);
    REQUIRE(groups.size() == 4);
    CHECK_FALSE(groups[0].connected);
    CHECK(names(groups[0]) == std::vector<std::string>{"Node.js 17 to 19"});
    CHECK(group_time(groups[0]) == "fails after 0.700 ms");
    CHECK(names(groups[1]) ==
          std::vector<std::string>{"Python requests", ".NET HttpClient", "wget"});
    CHECK(groups[1].rows == 3);
    CHECK(group_time(groups[1]) == "2.03 s"); // 2.029 to 2.031 s read alike
    CHECK(names(groups[2]) == std::vector<std::string>{"Node.js >= 20"});
    CHECK(group_time(groups[2]) == "250 ms");
    CHECK(names(groups[3]) == std::vector<std::string>{"Node.js < 17"});
}

TEST_CASE("a run of one client's version rows is one name", "[client_fold]") {
    const std::vector<ClientImpact> rows{
        row("curl", "curl < 7.78", true, 200ms, std::nullopt, "7.78"),
        row("curl", "curl 7.78.0 to 8.2.0", true, 200ms, "7.78.0", "8.2.1"),
        row("curl", "curl >= 8.22", true, 200ms, "8.22"),
        row("go", "Go net.Dial < 1.21", true, 300ms, std::nullopt, "1.21"),
        row("go", "Go net.Dial >= 1.21", true, 1ms, "1.21"),
        row("java-socket", "Java java.net.Socket < 16", true, 1ms, std::nullopt, "16"),
        row("java-socket", "Java java.net.Socket 16 to 20", true, 1ms, "16", "21"),
        row("java-socket", "Java java.net.Socket >= 21", true, 9ms, "21"),
    };
    const auto groups = fold_clients(rows);
    REQUIRE(groups.size() == 3);
    // 200 and 300 ms are one cost to a reader; every curl row is "curl".
    CHECK(names(groups[0]) == std::vector<std::string>{"curl", "Go net.Dial < 1.21"});
    CHECK(group_time(groups[0]) == "200 to 300 ms");
    CHECK(names(groups[1]) == std::vector<std::string>{"Java java.net.Socket >= 21"});
    // Two Java rows from the first: "< 21"; Go's last row stands alone.
    CHECK(names(groups[2]) ==
          std::vector<std::string>{"Go net.Dial >= 1.21", "Java java.net.Socket < 21"});
    CHECK(groups[2].rows == 3);
}

TEST_CASE("a group's names say a client's name once in a row", "[client_fold]") {
    ClientGroup g;
    g.names = {"curl 7.78.0 to 8.2.0", "curl >= 8.22", "Node.js < 17", "Go net.Dial", "curl"};
    CHECK(group_names(g) == "curl 7.78.0 to 8.2.0, >= 8.22, Node.js < 17, Go net.Dial, curl");
    g.fastest = 200us;
    g.slowest = 1500ms;
    g.connected = true;
    CHECK(group_time(g) == "0.200 ms to 1.50 s");
}

TEST_CASE("every row is in exactly one group, for the real table too", "[client_fold]") {
    const std::vector<Observation> obs{
        observe(ipv6_loopback(11434), Outcome::refused, 2030ms, 700us),
        observe(make_ipv4(127, 0, 0, 1, 11434), Outcome::accepted, 200us, 200us)};
    const auto all = predict_clients(obs, {"localhost", Os::windows});
    const auto groups = fold_clients(all);
    std::size_t rows = 0;
    for (const auto& g : groups) {
        rows += g.rows;
        CHECK_FALSE(g.names.empty());
        CHECK(g.fastest <= g.slowest);
    }
    CHECK(rows == all.size());
    // The seed article's split: 2.03 s for the sequential clients first.
    REQUIRE_FALSE(groups.empty());
    CHECK(group_time(groups.front()).find("fails") != std::string::npos);
    CHECK(group_time(groups[1]) == "2.03 s");
    CHECK(groups.size() < all.size() / 2);
}

TEST_CASE("the Windows fold leaves out rows without a Windows prediction", "[client_fold]") {
    std::vector<ClientImpact> rows{row("python", "Python", true, 1ms),
                                   row("wget", "wget", true, 1ms)};
    rows[0].windows = ConnectPrediction{true, 2030ms, std::nullopt, 2, false};
    const auto groups = fold_clients(rows, FoldOn::windows);
    REQUIRE(groups.size() == 1);
    CHECK(names(groups[0]) == std::vector<std::string>{"Python"});
    CHECK(fold_clients(std::vector<ClientImpact>{}).empty());
}

TEST_CASE("every failing row is in the one failing group, whatever its time", "[client_fold]") {
    // Java on Windows with a server on ::1 only: the rows fail after 1 ms,
    // 2 s and 4 s, three groups of fold_clients; "these fail" names them all.
    const std::vector<ClientImpact> rows{
        row("python", "Python requests", true, 2030ms),
        row("node", "Node.js < 17", false, 1ms, std::nullopt, "17"),
        row("node", "Node.js >= 17", true, 1ms, "17"),
        row("java-socket", "Java java.net.Socket < 16", false, 2s, std::nullopt, "16"),
        row("java-socket", "Java java.net.Socket >= 16", false, 1ms, "16"),
        row("java-httpclient", "Java HttpClient 11 to 15", false, 4s, "11", "16"),
        row("java-httpclient", "Java HttpClient >= 16", false, 2ms, "16"),
    };
    const auto groups = fold_clients(rows);
    CHECK(std::count_if(groups.begin(), groups.end(), [](auto& g) { return !g.connected; }) == 3);
    CHECK(groups.front().names == std::vector<std::string>{"Java HttpClient 11 to 15"});
    const auto failing = failing_clients(rows);
    REQUIRE(failing.has_value());
    CHECK_FALSE(failing->connected);
    CHECK(failing->rows == 5);
    CHECK(failing->names ==
          std::vector<std::string>{"Node.js < 17", "Java java.net.Socket", "Java HttpClient"});
    CHECK(group_span(*failing) == "1.00 ms to 4.00 s");

    // Nothing fails: no group.
    const std::vector<ClientImpact> fine{row("python", "Python requests", true, 2030ms)};
    CHECK_FALSE(failing_clients(fine).has_value());
    // The Windows fold: rows without a Windows prediction are left out.
    auto on_windows = rows;
    on_windows[3].windows = on_windows[3].prediction;
    const auto w = failing_clients(on_windows, FoldOn::windows);
    REQUIRE(w.has_value());
    CHECK(w->names == std::vector<std::string>{"Java java.net.Socket < 16"});
}
