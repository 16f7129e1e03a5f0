#include "loopcheck/core/clients/emulation.hpp"
#include "support/catch.hpp"
#include "support/scenario.hpp"

#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

TEST_CASE("emulate strategies parse with their defaults", "[emulation]") {
    auto s = parse_emulation("sequential");
    REQUIRE(s.ok());
    CHECK(s->kind == ConnectAlgorithm::sequential);
    CHECK_FALSE(s->no_syn_retries_on_loopback);
    CHECK(s->label == "sequential");

    auto he = parse_emulation("happy-eyeballs");
    REQUIRE(he.ok());
    CHECK(he->kind == ConnectAlgorithm::happy_eyeballs);
    CHECK(he->delay == 250ms);
    CHECK(he->label == "happy-eyeballs=250ms");

    auto he200 = parse_emulation("happy-eyeballs=200ms");
    REQUIRE(he200.ok());
    CHECK(he200->delay == 200ms);

    auto go = parse_emulation("go");
    REQUIRE(go.ok());
    CHECK(go->delay == 300ms);
    CHECK(go->no_syn_retries_on_loopback);

    auto node = parse_emulation("node");
    REQUIRE(node.ok());
    CHECK(node->no_syn_retries_on_loopback);
}

TEST_CASE("bad emulate values are usage errors", "[emulation]") {
    for (const char* bad : {"", "fast", "sequential=1s", "happy-eyeballs=5ms", "happy-eyeballs=1h",
                            "happy-eyeballs=soon", "go=", "node=1s"}) {
        INFO(bad);
        auto r = parse_emulation(bad);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().kind == ErrorKind::usage);
    }
}

TEST_CASE("the model's prediction for an emulated strategy", "[emulation]") {
    std::vector<Observation> obs{observe(ipv6_loopback(80), Outcome::refused, 2030ms, 700us),
                                 observe(make_ipv4(127, 0, 0, 1, 80), Outcome::accepted, 200us)};
    CHECK(predict_emulation(*parse_emulation("sequential"), obs, Os::windows).time ==
          2030ms + 200us);
    CHECK(predict_emulation(*parse_emulation("happy-eyeballs=100ms"), obs, Os::windows).time ==
          100ms + 200us);
    CHECK(predict_emulation(*parse_emulation("node"), obs, Os::windows).time == 700us + 200us);
}

TEST_CASE("Happy Eyeballs alternates families in its order", "[emulation]") {
    std::vector<Address> resolved{ipv6_loopback(1), make_ipv4(127, 0, 0, 2, 1), ipv6_loopback(2),
                                  make_ipv4(127, 0, 0, 1, 1)};
    // Same family twice in a row in resolver order: [::1]:1, [::1]:2 ...
    std::vector<Address> v6_first{ipv6_loopback(1), ipv6_loopback(2), make_ipv4(127, 0, 0, 1, 1)};
    auto order = emulation_order(*parse_emulation("happy-eyeballs"), v6_first);
    REQUIRE(order.size() == 3);
    CHECK(order[0] == v6_first[0]);
    CHECK(order[1] == v6_first[2]);
    CHECK(order[2] == v6_first[1]);
    auto seq = emulation_order(*parse_emulation("sequential"), v6_first);
    CHECK(seq == v6_first);
    CHECK(emulation_order(*parse_emulation("go"), resolved).size() == resolved.size());
}

TEST_CASE("an emulated connect off its model by more than max(50 ms, 20 %) is flagged",
          "[emulation]") {
    const ConnectPrediction model{true, 200us, make_ipv4(127, 0, 0, 1, 80), 1, false};
    auto at = [](Micros t, bool connected = true) {
        return ConnectPrediction{connected, t, std::nullopt, 1, false};
    };
    CHECK_FALSE(off_model(at(40ms), model));   // within 50 ms
    CHECK(off_model(at(300ms), model));        // the 0.3 s against 0.017 ms
    CHECK(off_model(at(200us, false), model)); // ended differently
    const ConnectPrediction slow{true, 2030ms, std::nullopt, 2, false};
    CHECK_FALSE(off_model(at(2400ms), slow)); // within 20 %
    CHECK(off_model(at(2500ms), slow));

    EmulationResult e;
    e.predicted = model;
    e.rounds = {at(300us), at(1000ms), at(250us), at(200us), at(900ms)};
    settle_rounds(e);
    CHECK(e.measured.time == 300us); // the median round
    CHECK(e.rounds_off_model == 2);
}

TEST_CASE("the off-model rule as the report says it", "[emulation]") {
    CHECK(off_model_rule() ==
          "further than max(50 ms, 20 %) from the model's time, or ending differently");
}
