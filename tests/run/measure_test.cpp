// The check's steps in order (src/run/measure.cpp), against a closed port the
// test holds: the report comes back whole, and the live line is told when
// the probing is over, before the conclusions and emulations that follow.
#include "loopcheck/platform/platform.hpp"
#include "run/measure.hpp"
#include "support/catch.hpp"

#include <vector>

using namespace loopcheck;

TEST_CASE("measure: a closed port is concluded, and the progress ends with 'over'",
          "[run][measure]") {
    const platform::NetworkScope network;
    REQUIRE_FALSE(network.error());
    auto closed = platform::bind_closed(make_ipv4(127, 0, 0, 1));
    REQUIRE(closed.ok());
    const auto bound = platform::local_address(*closed);
    REQUIRE(bound.ok());

    std::vector<bool> calls; // true: a call that names a pending probe
    CheckRequest request;
    request.timeout = Micros{10'000'000};
    const auto measured = measure({address_target(*bound)}, request, [&](const ProbeProgress& p) {
        calls.push_back(p.oldest != nullptr);
    });
    REQUIRE(measured.ok());
    const Report& report = *measured;
    REQUIRE(report.targets.size() == 1);
    REQUIRE(report.targets[0].addresses.size() == 1);
    CHECK(report.targets[0].addresses[0].summary.outcome == Outcome::refused);
    CHECK_FALSE(report.targets[0].diagnosis.verdict.word.empty());
    CHECK(report.exit_code == report.targets[0].diagnosis.exit_code);
    REQUIRE_FALSE(calls.empty());
    CHECK_FALSE(calls.back()); // the last word: the probing is over
}

TEST_CASE("measure: more connects than --max-probes is a usage error, and nothing is probed",
          "[run][measure]") {
    const platform::NetworkScope network;
    REQUIRE_FALSE(network.error());
    CheckRequest request;
    request.count = 3;      // three rounds of two addresses: six connects
    request.no_pair = true; // Windows would pair each loopback probe with a twin
    request.max_probes = 5;
    bool probed = false;
    const auto measured =
        measure({address_target(make_ipv4(127, 0, 0, 1, 9)), address_target(ipv6_loopback(9))},
                request, [&](const ProbeProgress&) { probed = true; });
    REQUIRE_FALSE(measured.ok());
    CHECK(measured.error().kind == ErrorKind::usage);
    CHECK(measured.error().message.rfind("6 connects planned", 0) == 0);
    CHECK(measured.error().message.find("--max-probes 5") != std::string::npos);
    CHECK_FALSE(probed);
    request.max_probes = 6; // exactly at the bound: probed
    CHECK(measure({address_target(make_ipv4(127, 0, 0, 1, 9)), address_target(ipv6_loopback(9))},
                  request, {})
              .ok());
}
