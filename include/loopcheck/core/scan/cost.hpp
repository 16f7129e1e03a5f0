// `loopcheck scan`'s conclusions: the (host, port) pairs to probe, who
// serves each one (a listener seen, a bind in the tree, or the port's usual
// server), what each hit costs here and on Windows, the ranking, the exit
// code and the one-line summary. Pure.
#pragma once

#include "loopcheck/core/listeners/listener.hpp"
#include "loopcheck/core/listeners/servers.hpp"
#include "loopcheck/core/scan/scan.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

/// The distinct (host, port) pairs of client and config hits that name a
/// port, in first-seen order (host.docker.internal and 0.0.0.0 left out:
/// neither is probed from here).
std::vector<ScanEndpoint> scan_endpoints(std::span<const ScanHit> hits);

/// Joins one endpoint with the listeners on its port (loopback and wildcard
/// binds): the families served and who serves them.
void join_listeners(ScanEndpoint& endpoint, std::span<const Listener> listeners);

/// Endpoints with no listener seen take the server bound to that port in
/// the scanned tree, or else the port's usual server; marked inferred. A
/// listener the server table did not recognise takes the fix of a bind of
/// its port in the tree.
void infer_servers(std::span<ScanEndpoint> endpoints, std::span<const ScanHit> hits);

/// Costs every hit against its endpoint, ranks the hits (risky clients,
/// risky config, servers, the rest, harmless last) and sets the exit code:
/// 130 interrupted, 1 a risky client (or config with strict), else 0.
void conclude_scan(ScanResult& result);

/// "3 risky of 214 hits in 1,902 files; 4 client and 1 config not risky, 2
/// server binds; 204 harmless: 120 cors, ...": every hit counted once.
std::string scan_summary(const ScanResult& result);

} // namespace loopcheck
