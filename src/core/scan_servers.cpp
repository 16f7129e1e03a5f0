// `loopcheck scan`'s knowledge of servers: the usual server of a port and
// its default bind (../shared/docs/stack.md, table A), and each server's own
// setting that makes it take both families.
#include "loopcheck/core/scan_servers.hpp"

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
    {5173, "Vite", "node", false, true, "localhost (one address: ::1 on Windows)"},
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

std::string server_fix(std::string_view server, std::uint16_t port_number) {
    const std::string port = port_number ? std::to_string(port_number) : std::string("PORT");
    if (server == "ollama")
        return fmt::format("OLLAMA_HOST=[::]:{} (both families; also the LAN)", port);
    if (server == "llama-server")
        return "llama-server --host :: (dual-stack)";
    if (server == "uvicorn")
        return "uvicorn --host localhost (one process, no --reload/--workers: binds both)";
    if (server == "flask")
        return "no Flask setting binds both loopbacks: change the client";
    if (server == "gunicorn")
        return fmt::format("gunicorn -b 127.0.0.1:{0} -b [::1]:{0}", port);
    if (server == "django")
        return "runserver -6 [::]:PORT (dual-stack on Linux only): change the client";
    if (server == "node")
        return "listen on '::' or with no host (libuv takes both families)";
    if (server == "go")
        return fmt::format("net.Listen(\"tcp\", \":{}\") (dual-stack)", port);
    if (server == "lmstudio")
        return "no LM Studio setting binds both loopbacks: change the client";
    return "have the server listen on both ::1 and 127.0.0.1 (or a dual-stack ::)";
}

} // namespace loopcheck
