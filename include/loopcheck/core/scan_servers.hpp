// `loopcheck scan`'s knowledge of servers (src/core/scan_servers.cpp): the
// usual server of a port with its default bind, and each server's own fix.
#pragma once

#include "loopcheck/core/servers.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

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

/// The server's own setting that makes it take both families, by its id in
/// the server table ("ollama", "uvicorn", ...): server_own_fix's sentence,
/// the one `loopcheck check` prints, starting "Or ..."; an id the table
/// does not know gets the general advice. `one_socket`: uvicorn with
/// --reload or --workers.
/// `form`: after the address to connect to ("Or start ..."), or alone
/// ("Start ...": a bind's only fix).
std::string server_fix(std::string_view server, std::uint16_t port, bool one_socket = false,
                       FixForm form = FixForm::alternative);

/// uvicorn started with --reload or --workers (`line` is the bind's line of
/// code): its parent binds one socket of one family (servers.cpp,
/// ServerMatch::one_socket).
bool one_socket(std::string_view server, std::string_view line) noexcept;

} // namespace loopcheck
