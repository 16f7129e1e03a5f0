// Which server holds a listening socket, from its process name and command
// line (src/core/listeners/servers.cpp), and that server's own setting that makes every
// address of `localhost` accept, with the trap the setting must avoid
// (docs/servers.md, each fact with its source).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace loopcheck {

/// A recognised server: its id in the server table, and what of its command
/// line changes the fix.
struct ServerMatch {
    std::string id; ///< "uvicorn", "ollama", ... (servers(), docs/servers.md)
    /// uvicorn and the FastAPI CLI with --reload or --workers N > 1: the
    /// parent binds one socket of one family before it starts the workers.
    bool one_socket = false;

    friend bool operator==(const ServerMatch&, const ServerMatch&) = default;
};

/// How a fix sentence stands: after another fix, as an alternative ("Or
/// start uvicorn ..."), or alone ("Start uvicorn ...": scan's bind, whose
/// only fix it is).
enum class FixForm : std::uint8_t { alternative, alone };

/// One row of the server table.
struct ServerFacts {
    std::string_view id;
    std::string_view name;         ///< "uvicorn", "Flask (werkzeug)"
    std::string_view default_bind; ///< in words: "127.0.0.1:8000"
};

/// Every server the table knows, in docs/servers.md's order.
std::span<const ServerFacts> servers() noexcept;

/// The row of `id`; nullptr for an id the table does not know.
const ServerFacts* server_facts(std::string_view id) noexcept;

/// The server behind a process, from its name (Linux's comm, the image's
/// file name elsewhere; ".exe" and any directory ignored) and its argv
/// (empty where the OS does not give it). Both are untrusted bytes: they are
/// only compared here, never copied into the result. nullopt for a server
/// the table does not know (then the generic fix stays).
std::optional<ServerMatch> recognise_server(std::string_view process,
                                            std::span<const std::string> argv);

/// The server's own setting that makes every address of localhost accept
/// on `port`, as one sentence naming the trap to avoid ("uvicorn: start it
/// with --host localhost ...; not --host ::, which is IPv6 only"). A setting
/// that also listens on the network says so.
std::string server_own_fix(const ServerMatch& server, std::uint16_t port,
                           FixForm form = FixForm::alternative);

/// Whether the table has a setting of the server's own (server_own_fix is
/// not empty).
bool has_own_fix(const ServerMatch& server);

/// A fix the table words from its verb ("start it with ..."), as an
/// alternative ("Or start ...") or a sentence of its own ("Start ...").
std::string fix_sentence(std::string advice, FixForm form);

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
