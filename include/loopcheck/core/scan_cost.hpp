// `loopcheck scan`'s conclusions: the (host, port) pairs to probe, who
// serves each one (a listener seen, a bind in the tree, or the port's usual
// server), what each hit costs here and on Windows, the ranking, the exit
// code and the one-line summary. Pure.
#pragma once

#include "loopcheck/core/listener.hpp"
#include "loopcheck/core/scan.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

/// A port's usual local server and its default bind (docs/scan.md,
/// "Inferred servers"; the facts are ../shared/docs/stack.md's table A).
struct UsualServer {
    std::uint16_t port;
    std::string_view name;
    std::string_view server; ///< the key of server_fix()
    bool v4, v6;             ///< the families its default bind takes (on Windows)
    std::string_view bind;   ///< in words: "127.0.0.1"
};
std::span<const UsualServer> usual_servers() noexcept;
const UsualServer* usual_server(std::uint16_t port) noexcept;

/// The server's own setting that makes it take both families, by key
/// ("ollama", "uvicorn", ...; anything else gets the general advice).
std::string server_fix(std::string_view server, std::uint16_t port);

/// The distinct (host, port) pairs of client and config hits that name a
/// port, in first-seen order (host.docker.internal and 0.0.0.0 left out:
/// neither is probed from here).
std::vector<ScanEndpoint> scan_endpoints(std::span<const ScanHit> hits);

/// Joins one endpoint with the listeners on its port (loopback and wildcard
/// binds): the families served and who serves them.
void join_listeners(ScanEndpoint& endpoint, std::span<const Listener> listeners);

/// Endpoints with no listener seen take the server bound to that port in
/// the scanned tree, or else the port's usual server; marked inferred.
void infer_servers(std::span<ScanEndpoint> endpoints, std::span<const ScanHit> hits);

/// Costs every hit against its endpoint, ranks the hits (risky clients,
/// risky config, servers, the rest, harmless last) and sets the exit code:
/// 130 interrupted, 1 a risky client (or config with strict), else 0.
void conclude_scan(ScanResult& result);

/// "3 risky of 214 hits in 1,902 files; 211 harmless: 120 CORS/allowed hosts, ..."
std::string scan_summary(const ScanResult& result);

} // namespace loopcheck
