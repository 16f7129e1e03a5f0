// The one resolver and the listener attach (src/run/targets.cpp), against
// this machine's resolver and a listener the test opens itself.
#include "loopcheck/core/listeners/local_targets.hpp"
#include "loopcheck/platform/platform.hpp"
#include "run/targets.hpp"
#include "support/catch.hpp"

#include <algorithm>

using namespace loopcheck;

TEST_CASE("the resolver: a literal is its own address, a name gets the port", "[run][targets]") {
    const platform::NetworkScope network;
    REQUIRE_FALSE(network.error());
    Resolver resolver(FamilyFilter::any);
    const auto literal = resolver.addresses(*parse_target("127.0.0.1:9"));
    REQUIRE(literal.ok());
    CHECK(*literal == std::vector<Address>{make_ipv4(127, 0, 0, 1, 9)});

    const auto first = resolver.addresses(*parse_target("localhost:8000"));
    REQUIRE(first.ok());
    REQUIRE_FALSE(first->empty());
    CHECK(std::all_of(first->begin(), first->end(),
                      [](const Address& a) { return a.port == 8000 && is_loopback(a); }));
    // The same name on another port: the same order, the other port.
    const auto second = resolver.addresses(*parse_target("localhost:9000"));
    REQUIRE(second.ok());
    REQUIRE(second->size() == first->size());
    for (std::size_t i = 0; i < first->size(); ++i) {
        Address a = (*first)[i];
        a.port = 9000;
        CHECK((*second)[i] == a);
    }
}

TEST_CASE("resolve_targets: a literal of the wrong family is an error, not a probe",
          "[run][targets]") {
    const platform::NetworkScope network;
    Report report;
    report.system = platform::system_facts();
    report.targets.emplace_back().target = *parse_target("[::1]:80");
    report.targets.emplace_back().target = *parse_target("127.0.0.1:80");
    resolve_targets(report, FamilyFilter::ipv4);
    REQUIRE(report.targets[0].resolve_error);
    CHECK(report.targets[0].resolve_error->message == "::1 is not an IPv4 address");
    CHECK(report.targets[0].addresses.empty());
    CHECK_FALSE(report.targets[1].resolve_error);
    REQUIRE(report.targets[1].addresses.size() == 1);
    CHECK_FALSE(report.targets[1].resolution); // literals need no hosts file
}

TEST_CASE("attach_listeners: a local target gets the listener on its port", "[run][targets]") {
    const platform::NetworkScope network;
    auto listener = platform::open_listener({make_ipv4(127, 0, 0, 1), true, 4});
    REQUIRE(listener.ok());
    const auto bound = platform::local_address(*listener);
    REQUIRE(bound.ok());
    Report report;
    report.targets.emplace_back().target = address_target(*bound);
    report.targets[0].addresses.emplace_back().address = *bound;
    report.targets.emplace_back().target = *parse_target("192.0.2.1:80");
    report.targets[1].addresses.emplace_back().address = make_ipv4(192, 0, 2, 1, 80);
    attach_listeners(report);
    CHECK(report.listener_table.queried);
    CHECK_FALSE(report.targets[1].listeners); // not on this machine
    if (report.listener_table.error)
        LC_SKIP("no listener table on this OS: " << *report.listener_table.error);
    REQUIRE(report.targets[0].listeners);
    const auto& seen = *report.targets[0].listeners;
    CHECK(std::any_of(seen.begin(), seen.end(),
                      [&](const Listener& l) { return l.bound == *bound; }));
}
