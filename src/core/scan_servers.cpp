// `loopcheck scan`'s knowledge of servers: the usual server of a port and
// its default bind (../shared/docs/stack.md, table A), and each server's own
// setting that makes it take both families (the server table's, servers.cpp).
#include "loopcheck/core/scan_servers.hpp"

#include "loopcheck/core/servers.hpp"

#include <array>
#include <fmt/format.h>
#include <string>

namespace loopcheck {

namespace {

// clang-format off
// Only ports one server owns: 8000, 8080 and 5000 are every framework's
// default (uvicorn, vLLM, llama-server, Django, Flask, Chroma, a Docker
// container on both families), so a guess there cried wolf on clients of
// servers that take both families (bench/scan_eval.py); a server of such a
// port is known only from a bind in the tree or a listener seen.
constexpr std::array<UsualServer, 5> usual{{
    {11434, "Ollama", "ollama", true, false, "127.0.0.1"},
    {1234, "LM Studio", "lmstudio", true, false, "127.0.0.1"},
    // Vite binds 'localhost' to one address: ::1 on Windows (Node >= 17).
    {5173, "Vite", "vite", false, true, "localhost (one address: ::1 on Windows)"},
    {3000, "Node.js / Next.js", "node", true, true, ":: (both families)"},
    {8888, "Jupyter", "jupyter", true, true, "localhost (every address)"},
}};
// clang-format on

} // namespace

std::span<const UsualServer> usual_servers() noexcept {
    return usual;
}

const UsualServer* usual_server(std::uint16_t port) noexcept {
    for (const auto& u : usual)
        if (u.port == port)
            return &u;
    return nullptr;
}

std::string server_fix(std::string_view server, std::uint16_t port, bool one_socket, FixForm form) {
    // The server table's own sentence (src/core/servers.cpp): the fix
    // `loopcheck check` prints for the same server, word for word.
    std::string own = server_own_fix(ServerMatch{std::string(server), one_socket}, port, form);
    if (!own.empty())
        return own;
    return fix_sentence("make the server listen on both ::1 and 127.0.0.1, or on [::] with "
                        "IPV6_V6ONLY off, so every address of the name accepts.",
                        form);
}

bool one_socket(std::string_view server, std::string_view line) noexcept {
    return server == "uvicorn" && (line.find("reload") != std::string_view::npos ||
                                   line.find("workers") != std::string_view::npos);
}

} // namespace loopcheck
