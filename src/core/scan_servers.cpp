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
constexpr std::array<UsualServer, 8> usual{{
    {11434, "Ollama", "ollama", true, false, "127.0.0.1"},
    {8080, "llama-server", "llama-server", true, false, "127.0.0.1"},
    {8000, "uvicorn / vLLM", "uvicorn", true, false, "127.0.0.1 (vLLM: 0.0.0.0)"},
    {1234, "LM Studio", "lmstudio", true, false, "127.0.0.1"},
    {5000, "Flask", "flask", true, false, "127.0.0.1"},
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
