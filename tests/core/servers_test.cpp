#include "loopcheck/core/diagnose/diagnose.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/listeners/servers.hpp"
#include "support/catch.hpp"
#include "support/scenario.hpp"
#include "support/text.hpp"

#include <string>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

namespace {

std::optional<std::string> id_of(std::string_view process, std::vector<std::string> argv) {
    auto m = recognise_server(process, argv);
    return m ? std::optional<std::string>(m->id) : std::nullopt;
}

/// One listener, owned by `process` (pid 4242), that the server table
/// recognised as `server`.
Listener recognised(Address bound, std::string process, std::string server) {
    Listener l;
    l.bound = bound;
    l.pid = 4242;
    l.process = std::move(process);
    l.server = ServerMatch{std::move(server)};
    return l;
}

/// diagnose() on Linux with a 100 ms threshold and a 5 s timeout.
Diagnosis diagnose_on_linux(const Target& target, const std::vector<Observation>& obs,
                            const std::vector<Listener>& listeners) {
    DiagnosisInput in;
    in.target = &target;
    in.addresses = obs;
    in.threshold = 100ms;
    in.timeout = 5s;
    in.os = Os::linux_;
    in.listeners = std::span<const Listener>(listeners);
    return diagnose(in);
}

} // namespace

TEST_CASE("servers: recognised from the name and command line people start them with",
          "[servers]") {
    // What /proc/PID/comm and /proc/PID/cmdline hold for each (Debian 12).
    CHECK(id_of("ollama", {"/usr/local/bin/ollama", "serve"}) == "ollama");
    CHECK(id_of("ollama.exe", {}) == "ollama"); // Windows: the image name only
    CHECK(id_of("llama-server", {"./llama-server", "-m", "model.gguf"}) == "llama-server");
    CHECK(id_of("python3", {"/usr/bin/python3", "-m", "vllm.entrypoints.openai.api_server"}) ==
          "vllm");
    CHECK(id_of("vllm", {"/home/u/.venv/bin/python3", "/home/u/.venv/bin/vllm", "serve", "m"}) ==
          "vllm");
    CHECK(id_of("lms", {}) == "lmstudio");
    CHECK(id_of("uvicorn", {"/usr/bin/python3", "/usr/bin/uvicorn", "app:app"}) == "uvicorn");
    CHECK(id_of("python3", {"python3", "-m", "uvicorn", "main:app"}) == "uvicorn");
    CHECK(id_of("gunicorn", {"/usr/bin/python3", "/usr/bin/gunicorn", "wsgi:app"}) == "gunicorn");
    CHECK(id_of("flask", {"/usr/bin/python3", "/usr/bin/flask", "--app", "hello", "run"}) ==
          "flask");
    CHECK(id_of("python3", {"python3", "manage.py", "runserver"}) == "django");
    CHECK(id_of("python3", {"python3", "manage.py", "migrate"}) == std::nullopt);
    CHECK(id_of("fastapi", {"/usr/bin/python3", "/usr/bin/fastapi", "dev", "main.py"}) ==
          "fastapi-cli");
    CHECK(id_of("jupyter-lab", {"/usr/bin/python3", "/usr/bin/jupyter-lab"}) == "jupyter");
    CHECK(id_of("python3", {"python3", "-m", "http.server", "--bind", "127.0.0.1"}) ==
          "python-http-server");
    // `npx vite` (Vite 6.4.6, measured): comm node, cmdline node PROJECT/node_modules/.bin/vite.
    CHECK(id_of("node", {"node", "/app/node_modules/.bin/vite"}) == "vite");
    CHECK(id_of("node", {"node", "/app/node_modules/vite/bin/vite.js", "--port", "5173"}) ==
          "vite");
    CHECK(id_of("next-server (v1", {"next-server (v14.2.3)"}) == "next");
    CHECK(id_of("node", {"node", "node_modules/.bin/webpack", "serve"}) == "webpack-dev-server");
    CHECK(id_of("node", {"node", "server.js"}) == "node");
    CHECK(id_of("node.exe", {}) == "node");
    CHECK(id_of("postgres", {"/usr/lib/postgresql/15/bin/postgres", "-D", "/var/lib/pg"}) ==
          "postgresql");
    CHECK(id_of("redis-server", {"/usr/bin/redis-server 127.0.0.1:6379"}) == "redis");
    CHECK(id_of("docker-proxy", {"/usr/bin/docker-proxy", "-proto", "tcp"}) == "docker-proxy");
    // Unknown: today's generic fix stays.
    CHECK(id_of("python3", {"python3", "app.py"}) == std::nullopt);
    CHECK(id_of("", {}) == std::nullopt);
    CHECK(id_of("myserver", {"./myserver", "--listen", "uvicorn"}) == std::nullopt);
}

TEST_CASE("servers: argv is compared, never trusted as text", "[servers]") {
    // Any local user picks these bytes: a name made of escapes and NULs is
    // only compared, and nothing of it reaches the match.
    std::vector<std::string> argv{std::string("\x1b]0;evil\x07uvicorn\0x", 17), "--reload"};
    CHECK(!recognise_server("\x1b[31m", argv));
    const std::string huge(100000, 'a');
    CHECK(!recognise_server(huge, std::vector<std::string>{huge, huge}));
}

TEST_CASE("servers: uvicorn with --reload or --workers binds one socket", "[servers]") {
    auto plain = recognise_server("uvicorn", std::vector<std::string>{"uvicorn", "app:app"});
    REQUIRE(plain);
    CHECK(!plain->one_socket);
    CHECK(contains(server_own_fix(*plain, 8000), "--host localhost: in one process"));
    CHECK(contains(server_own_fix(*plain, 8000), "Not --host ::, which is IPv6 only"));
    for (const std::vector<std::string>& argv :
         {std::vector<std::string>{"uvicorn", "--reload", "app:app"},
          std::vector<std::string>{"uvicorn", "--workers", "4", "app:app"},
          std::vector<std::string>{"uvicorn", "--workers=2", "app:app"}}) {
        auto m = recognise_server("uvicorn", argv);
        REQUIRE(m);
        CHECK(m->one_socket);
        CHECK(contains(server_own_fix(*m, 8000), "Or drop --reload and --workers"));
        CHECK(contains(server_own_fix(*m, 8000), "this also listens on the network"));
    }
    auto one = recognise_server("uvicorn", std::vector<std::string>{"uvicorn", "--workers", "1"});
    REQUIRE(one);
    CHECK(!one->one_socket);
    auto dev = recognise_server("fastapi", std::vector<std::string>{"fastapi", "dev", "main.py"});
    REQUIRE(dev);
    CHECK(dev->one_socket);
}

TEST_CASE("servers: every row has a fix, and a network bind says so", "[servers]") {
    for (const auto& s : servers()) {
        INFO(s.id);
        CHECK(server_facts(s.id) == &s);
        const std::string fix = server_own_fix(ServerMatch{std::string(s.id)}, 8000);
        CHECK(fix.starts_with("Or "));
        // Never a wildcard without the warning (what follows "Not" is the
        // trap, not the advice).
        const std::string advice = fix.substr(0, fix.find(" Not "));
        const bool wildcard = contains(advice, "[::]") || contains(advice, "0.0.0.0") ||
                              contains(advice, "--host ::") || contains(advice, "binds ::") ||
                              contains(advice, "no host") || contains(advice, "without --bind") ||
                              contains(advice, "-p 8000:PORT");
        if (wildcard)
            CHECK(contains(fix, "this also listens on the network"));
    }
    CHECK(server_own_fix(ServerMatch{"gunicorn"}, 8000) ==
          "Or start gunicorn with two binds, -b 127.0.0.1:8000 -b [::1]:8000: one -b "
          "localhost:8000 binds 127.0.0.1 only.");
    CHECK(server_own_fix(ServerMatch{"unknown"}, 8000).empty());
    CHECK(server_facts("unknown") == nullptr);
}

TEST_CASE("servers: the fallback fix names the server's own setting", "[servers][diagnose]") {
    const Target target = *parse_target("localhost:8000");
    const std::vector<Observation> obs{
        observe(ipv6_loopback(8000), Outcome::refused, 1030ms, 700us),
        observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 200us, 200us)};
    const Listener l = recognised(make_ipv4(127, 0, 0, 1, 8000), "uvicorn", "uvicorn");
    const Diagnosis d = diagnose_on_linux(target, obs, {l});
    REQUIRE(d.fixes.size() >= 2);
    REQUIRE(std::holds_alternative<facts::ServerOwn>(d.fixes[1]));
    CHECK(std::get<facts::ServerOwn>(d.fixes[1]).server == ServerMatch{"uvicorn"});
    CHECK(std::get<facts::ServerOwn>(d.fixes[1]).port == 8000);
    // Unknown: the generic words stay.
    std::vector<Listener> unknown{l};
    unknown[0].server.reset();
    const Diagnosis generic = diagnose_on_linux(target, obs, unknown);
    REQUIRE(generic.fixes.size() >= 2);
    REQUIRE(std::holds_alternative<facts::BothFamilies>(generic.fixes[1]));
    const auto& both = std::get<facts::BothFamilies>(generic.fixes[1]);
    REQUIRE(both.server);
    CHECK(both.server->process.escaped() == "uvicorn");
}

TEST_CASE("servers: a server on ::1 alone gets its own setting beside the failing clients",
          "[servers][diagnose]") {
    // `npx vite` (Vite 6.4.6) where localhost is ::1 first: it binds [::1]:5173 alone, the
    // clients that try only 127.0.0.1 fail (tests/servers, docs/servers.md).
    const Target target = *parse_target("localhost:5173");
    const std::vector<Observation> obs{
        observe(ipv6_loopback(5173), Outcome::accepted, 200us, 200us),
        observe(make_ipv4(127, 0, 0, 1, 5173), Outcome::refused, 1030ms, 700us)};
    const Listener l = recognised(ipv6_loopback(5173), "node", "vite");
    const Diagnosis d = diagnose_on_linux(target, obs, {l});
    CHECK(d.exit_code == exit_code::partial);
    REQUIRE(d.server_fix);
    REQUIRE(*d.server_fix < d.fixes.size());
    REQUIRE(std::holds_alternative<facts::ServerOwn>(d.fixes[*d.server_fix]));
    CHECK(std::get<facts::ServerOwn>(d.fixes[*d.server_fix]).server.id == "vite");
    CHECK(std::get<facts::ServerOwn>(d.fixes[*d.server_fix]).port == 5173);
    CHECK(contains(server_own_fix(ServerMatch{"vite"}, 5173), "--host ::"));
    // Unknown: no server setting, the clients' fixes stay.
    std::vector<Listener> unknown{l};
    unknown[0].server.reset();
    const Diagnosis generic = diagnose_on_linux(target, obs, unknown);
    CHECK_FALSE(generic.server_fix);
    REQUIRE(std::holds_alternative<facts::ConnectFailingClients>(generic.fixes[0]));
    const auto& never = std::get<facts::ConnectFailingClients>(generic.fixes[0]);
    REQUIRE(never.server);
    CHECK(never.server->process.escaped() == "node");
}
