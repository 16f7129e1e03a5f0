// The server table: which server a process is, from its name and argv, and
// each server's own setting that makes every address of `localhost` accept,
// with its trap. Every fact here has its source in docs/servers.md; a new
// row or sentence needs one there too.
#include "loopcheck/core/listeners/servers.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <fmt/format.h>
#include <vector>

namespace loopcheck {

namespace {

// clang-format off
constexpr std::array<ServerFacts, 18> table{{
    {"ollama", "Ollama", "127.0.0.1:11434"},
    {"llama-server", "llama-server (llama.cpp)", "127.0.0.1:8080"},
    {"vllm", "vLLM", "every IPv4 interface, 0.0.0.0:8000"},
    {"lmstudio", "LM Studio", "127.0.0.1:1234"},
    {"uvicorn", "uvicorn", "127.0.0.1:8000"},
    {"gunicorn", "gunicorn", "127.0.0.1:8000"},
    {"flask", "Flask (werkzeug)", "127.0.0.1:5000"},
    {"django", "Django runserver", "127.0.0.1:8000"},
    {"fastapi-cli", "FastAPI CLI", "127.0.0.1:8000 (fastapi dev), 0.0.0.0:8000 (fastapi run)"},
    {"jupyter", "Jupyter", "every address of localhost, port 8888"},
    {"vite", "Vite", "one address of localhost, port 5173"},
    {"next", "Next.js", "[::]:3000, IPV6_V6ONLY off"},
    {"webpack-dev-server", "webpack-dev-server", "[::]:8080, IPV6_V6ONLY off"},
    {"node", "Node.js", "what the script passes to listen()"},
    {"python-http-server", "Python http.server", "0.0.0.0:8000 with glibc (the first passive address)"},
    {"postgresql", "PostgreSQL", "every address of localhost, port 5432"},
    {"redis", "Redis", "127.0.0.1 and ::1 (Debian's redis.conf), port 6379"},
    {"docker-proxy", "docker-proxy (Docker's published port)", "the -p address, every interface by default"},
}};
// clang-format on

/// A program's name as the table compares it: the last path component
/// (either slash), lower case, without ".exe" or a script's ".js", ".mjs",
/// ".cjs" or ".py".
std::string program_name(std::string_view path) {
    const auto slash = path.find_last_of("/\\");
    if (slash != std::string_view::npos)
        path.remove_prefix(slash + 1);
    std::string name(path);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
        return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    });
    for (std::string_view suffix : {".exe", ".js", ".mjs", ".cjs", ".py"})
        if (name.size() > suffix.size() && name.ends_with(suffix)) {
            name.resize(name.size() - suffix.size());
            break;
        }
    return name;
}

bool interpreter(std::string_view name) {
    return name.starts_with("python") || name == "node" || name == "nodejs" || name == "bun" ||
           name == "deno" || name == "npx" || name == "uv" || name == "pipx";
}

/// What a command line runs: the process's name, argv[0], the module after
/// an interpreter's -m, and the script an interpreter runs (its first
/// argument that is not an option).
struct Command {
    std::vector<std::string> programs;
    std::span<const std::string> argv;

    bool runs(std::string_view name) const {
        return std::find(programs.begin(), programs.end(), name) != programs.end();
    }
    bool runs_prefix(std::string_view prefix) const {
        return std::any_of(programs.begin(), programs.end(),
                           [&](const std::string& p) { return p.starts_with(prefix); });
    }
    bool has(std::string_view arg) const {
        return std::any_of(argv.begin(), argv.end(), [&](const std::string& a) {
            return a == arg ||
                   (a.size() > arg.size() && a.starts_with(arg) && a[arg.size()] == '=');
        });
    }
    /// --workers N or --workers=N with N above 1.
    bool several_workers() const {
        for (std::size_t i = 0; i < argv.size(); ++i) {
            std::string_view value;
            if (argv[i] == "--workers" && i + 1 < argv.size())
                value = argv[i + 1];
            else if (argv[i].starts_with("--workers="))
                value = std::string_view(argv[i]).substr(10);
            if (!value.empty() && value != "1" && value != "0")
                return true;
        }
        return false;
    }
};

Command command_of(std::string_view process, std::span<const std::string> argv) {
    Command c{{}, argv};
    if (!process.empty())
        c.programs.push_back(program_name(process));
    if (argv.empty())
        return c;
    c.programs.push_back(program_name(argv[0]));
    if (!interpreter(c.programs.back()))
        return c;
    for (std::size_t i = 1; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a == "-m" && i + 1 < argv.size()) {
            c.programs.push_back(program_name(argv[i + 1]));
            break;
        }
        if (a.starts_with("-m") && a.size() > 2) {
            c.programs.push_back(program_name(a.substr(2)));
            break;
        }
        if (!a.empty() && a[0] != '-') {
            c.programs.push_back(program_name(a));
            break;
        }
    }
    return c;
}

std::string_view server_id(const Command& c) {
    if (c.runs("docker-proxy"))
        return "docker-proxy";
    if (c.runs("ollama") || c.runs("ollama app"))
        return "ollama";
    if (c.runs("llama-server"))
        return "llama-server";
    if (c.runs("vllm") || c.runs_prefix("vllm.entrypoints"))
        return "vllm";
    if (c.runs("lms") || c.runs("lm studio") || c.runs("lm-studio"))
        return "lmstudio";
    if (c.runs("postgres") || c.runs("postmaster"))
        return "postgresql";
    if (c.runs("redis-server"))
        return "redis";
    if (c.runs("fastapi"))
        return "fastapi-cli";
    if (c.runs("uvicorn"))
        return "uvicorn";
    if (c.runs("gunicorn") || c.runs_prefix("gunicorn:"))
        return "gunicorn";
    if ((c.runs("manage") || c.runs("django-admin") || c.runs("django")) && c.has("runserver"))
        return "django";
    if (c.runs("flask"))
        return "flask";
    if (c.runs_prefix("jupyter") || c.runs("jupyterlab") || c.runs("notebook"))
        return "jupyter";
    if (c.runs("http.server"))
        return "python-http-server";
    if (c.runs("vite"))
        return "vite";
    if (c.runs("next") || c.runs_prefix("next-server"))
        return "next";
    if (c.runs("webpack-dev-server") || (c.runs("webpack") && c.has("serve")))
        return "webpack-dev-server";
    if (c.runs("node") || c.runs("nodejs"))
        return "node";
    return {};
}

} // namespace

std::span<const ServerFacts> servers() noexcept {
    return table;
}

const ServerFacts* server_facts(std::string_view id) noexcept {
    for (const auto& s : table)
        if (s.id == id)
            return &s;
    return nullptr;
}

std::optional<ServerMatch> recognise_server(std::string_view process,
                                            std::span<const std::string> argv) {
    const Command c = command_of(process, argv);
    const std::string_view id = server_id(c);
    if (id.empty())
        return std::nullopt;
    ServerMatch m{std::string(id), false};
    if (id == "uvicorn")
        m.one_socket = c.has("--reload") || c.several_workers();
    else if (id == "fastapi-cli")
        // `fastapi dev` reloads unless told not to.
        m.one_socket =
            (c.has("dev") && !c.has("--no-reload")) || c.has("--reload") || c.several_workers();
    return m;
}

namespace {

constexpr std::string_view network = "this also listens on the network";

// uvicorn and the FastAPI CLI share one fix whose wording turns on one_socket: --reload and
// --workers make them bind one socket of one family, so --host localhost no longer helps.
std::string asgi_fix(const ServerMatch& server) {
    const std::string_view id = server.id;
    const std::string_view who = id == "uvicorn" ? "uvicorn" : "the FastAPI CLI";
    if (!server.one_socket)
        return fmt::format(
            "start {} with --host localhost: in one process it binds every address of "
            "localhost (::1 and 127.0.0.1). Not --host ::, which is IPv6 only (asyncio sets "
            "IPV6_V6ONLY).",
            who);
    return fmt::format(
        "drop --reload and --workers and start {} with --host localhost (then it binds "
        "::1 and 127.0.0.1): with them it binds one socket of one family, so --host "
        "localhost is 127.0.0.1 only, and --host :: takes both families on Linux and macOS "
        "but {}.",
        who, network);
}

// The fixes below are grouped by server family so each stays short; each returns an empty
// string for an id outside its family, and server_own_fix tries them in turn.

// Python web servers other than uvicorn: each leaves dual-stack to a different flag or to the OS.
std::string python_web_fix(std::string_view id, const std::string& p) {
    if (id == "gunicorn")
        return fmt::format("start gunicorn with two binds, -b 127.0.0.1:{0} -b [::1]:{0}: one "
                           "-b localhost:{0} binds 127.0.0.1 only.",
                           p);
    if (id == "flask")
        return fmt::format("start Flask with --host :: (werkzeug leaves IPV6_V6ONLY to the OS: "
                           "both families on Linux and macOS, IPv6 only on Windows); {}. No Flask "
                           "setting binds both loopback addresses: --host localhost is 127.0.0.1 "
                           "only.",
                           network);
    if (id == "django")
        return fmt::format("run runserver -6 [::]:{} (Django leaves IPV6_V6ONLY to the OS: both "
                           "families on Linux and macOS); {}. Not -6 alone, which binds ::1 and "
                           "drops IPv4.",
                           p, network);
    if (id == "python-http-server")
        return fmt::format("start python3 -m http.server --bind :: {}: it turns IPV6_V6ONLY "
                           "off, so both families, and {}. Without --bind it binds the first "
                           "passive address, 0.0.0.0 with glibc (IPv4 only); --bind 127.0.0.1 "
                           "or --bind localhost is one address.",
                           p, network);
    return {};
}

// Node.js and the dev servers built on it: Node binds :: with IPV6_V6ONLY off when given no host.
std::string node_fix(std::string_view id, const std::string& p) {
    if (id == "node")
        return fmt::format(
            "have the Node.js server call listen({0}) with no host: it binds :: with "
            "IPV6_V6ONLY off, both families, and {1}; listen({0}, 'localhost') binds one "
            "address. For loopback only, listen twice: on '127.0.0.1' and on '::1'.",
            p, network);
    if (id == "vite")
        return fmt::format("start Vite with --host :: (server.host '::'): Node.js binds :: "
                           "with IPV6_V6ONLY off, both families, and {}; the default 'localhost' "
                           "is one address.",
                           network);
    if (id == "next")
        return fmt::format("start Next.js without -H (--hostname): it binds :: with "
                           "IPV6_V6ONLY off, both families, and {}; -H localhost or -H 127.0.0.1 "
                           "binds one address.",
                           network);
    if (id == "webpack-dev-server")
        return fmt::format("start webpack-dev-server without --host (or --host ::): Node.js "
                           "binds :: with IPV6_V6ONLY off, both families, and {}; --host "
                           "localhost or 127.0.0.1 binds one address.",
                           network);
    return {};
}

// Notebooks, databases and containers: fixed in their own config file or publish flags.
std::string service_fix(std::string_view id, const std::string& p) {
    if (id == "jupyter")
        return "start Jupyter with its default --ip=localhost: it binds every address of "
               "localhost (::1 and 127.0.0.1); --ip=127.0.0.1 binds one.";
    if (id == "postgresql")
        return fmt::format("set listen_addresses = 'localhost' in postgresql.conf (the "
                           "default: every address of localhost, ::1 and 127.0.0.1) or "
                           "'127.0.0.1,::1'; '*' takes both too, but {}.",
                           network);
    if (id == "redis")
        return "set bind 127.0.0.1 -::1 in redis.conf (the '-' lets Redis start where ::1 "
               "is missing); bind 127.0.0.1 alone leaves ::1 refusing.";
    if (id == "docker-proxy")
        return fmt::format("publish the port on both loopback addresses: -p 127.0.0.1:{0}:PORT "
                           "-p [::1]:{0}:PORT (PORT: the container's); -p {0}:PORT takes both "
                           "families but {1}.",
                           p, network);
    return {};
}

// Local model servers: most have no setting that binds both loopback addresses, so the fix
// often points the client at 127.0.0.1 instead.
std::string model_server_fix(std::string_view id, const std::string& p) {
    if (id == "ollama")
        return fmt::format(
            "point the client at 127.0.0.1:{0} (ollama libraries: "
            "OLLAMA_HOST=http://127.0.0.1:{0}); no Ollama setting binds both loopback "
            "addresses: OLLAMA_HOST=[::]:{0} takes both but {1}, open to anyone who reaches "
            "this machine.",
            p, network);
    if (id == "llama-server")
        return fmt::format("start llama-server with --host :: (cpp-httplib turns IPV6_V6ONLY "
                           "off: both families); {}, so add --api-key. No llama-server setting "
                           "binds both loopback addresses.",
                           network);
    if (id == "vllm")
        return fmt::format(
            "start vLLM with --host :: (Python leaves IPV6_V6ONLY to the OS: both families "
            "on Linux); {}, as the default does for IPv4. --host localhost binds 127.0.0.1 only.",
            network);
    if (id == "lmstudio")
        return fmt::format("point the client at 127.0.0.1:{}: no LM Studio setting binds both "
                           "loopback addresses, and serving on the local network also listens on "
                           "the network.",
                           p);
    return {};
}

} // namespace

std::string server_own_fix(const ServerMatch& server, std::uint16_t port_number, FixForm form) {
    std::string advice;
    if (server.id == "uvicorn" || server.id == "fastapi-cli") {
        advice = asgi_fix(server);
    } else {
        const std::string p = std::to_string(port_number);
        for (const auto fix : {python_web_fix, node_fix, service_fix, model_server_fix})
            if (advice = fix(server.id, p); !advice.empty())
                break;
    }
    return fix_sentence(std::move(advice), form);
}

bool has_own_fix(const ServerMatch& server) {
    return !server_own_fix(server, 1).empty();
}

std::string fix_sentence(std::string advice, FixForm form) {
    // The table writes each setting as what to do, from its verb ("start
    // uvicorn with ..."): after another fix it is an alternative ("Or start
    // ..."), alone a sentence of its own ("Start ...", scan's bind).
    if (advice.empty())
        return advice;
    if (form == FixForm::alternative)
        return "Or " + advice;
    if (advice[0] >= 'a' && advice[0] <= 'z')
        advice[0] = static_cast<char>(advice[0] - 'a' + 'A');
    return advice;
}

// A port's usual server, and a server's fix whatever it is (check, scan and
// trace share these: the words a bind, a hit and a traced group get).
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
    // The server table's own sentence (src/core/listeners/servers.cpp): the fix
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
