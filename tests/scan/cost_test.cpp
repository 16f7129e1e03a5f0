// loopcheck scan's conclusions: endpoints, the listener join, inferred
// servers, each hit's cost, the ranking, the exit code and the summary.
#include "core/scan/classify.hpp"
#include "loopcheck/core/scan/cost.hpp"
#include "support/catch.hpp"

using namespace loopcheck;

namespace {

ScanResult result_of(std::string_view path, std::string_view text) {
    ScanResult r;
    r.hits = classify_text(path, language_of(path), text);
    r.files_read = 1;
    r.endpoints = scan_endpoints(r.hits);
    return r;
}

Listener listener_on(Address a, std::optional<bool> v6only = std::nullopt) {
    Listener l;
    l.bound = a;
    l.v6only = v6only;
    l.pid = 812;
    l.process = "ollama";
    return l;
}

constexpr const char* client_code = "import requests\n"
                                    "requests.get('http://localhost:11434/api/tags')\n"
                                    "requests.get('http://127.0.0.1:11434/api/tags')\n"
                                    "ALLOWED_HOSTS = ['http://localhost:3000']\n";

} // namespace

TEST_CASE("scan endpoints: each client and config (host, port) once", "[scan]") {
    auto r =
        result_of("a.py", std::string(client_code) + "requests.get('http://localhost:11434/x')\n");
    REQUIRE(r.endpoints.size() == 2);
    CHECK(r.endpoints[0].host == "localhost");
    CHECK(r.endpoints[1].host == "127.0.0.1");
}

TEST_CASE("scan: an IPv4-only listener makes a sequential localhost client risky", "[scan]") {
    auto r = result_of("a.py", client_code);
    const std::vector<Listener> table{listener_on(make_ipv4(127, 0, 0, 1, 11434))};
    for (auto& ep : r.endpoints) {
        ep.probed = true;
        ep.accepted_here = true;
        join_listeners(ep, table);
    }
    CHECK(r.endpoints[0].v4);
    CHECK_FALSE(r.endpoints[0].v6);
    CHECK(r.endpoints[0].server == "ollama (pid 812) on 127.0.0.1:11434");
    r.probed = true;
    conclude_scan(r);
    CHECK(r.exit_code == 1);
    REQUIRE(r.hits.size() == 3);
    CHECK(r.hits[0].risky);
    CHECK(r.hits[0].ref.host == "localhost");
    CHECK(r.hits[0].cost_here == "connects");
    CHECK(r.hits[0].fix.find("127.0.0.1:11434") != std::string::npos);
    CHECK(r.hits[0].fix.find("OLLAMA_HOST=[::]:11434") != std::string::npos);
    CHECK_FALSE(r.hits[1].risky); // the literal reaches the server
    CHECK(r.hits[2].kind == HitKind::harmless);
    CHECK(scan_summary(r) == "1 risky of 3 hits in 1 file; 1 client not risky; 1 harmless: 1 cors");
}

TEST_CASE("scan: a dual-stack listener costs nothing", "[scan]") {
    auto r = result_of("a.py", client_code);
    const std::vector<Listener> table{listener_on(Address{Family::ipv6, {}, 11434}, false)};
    for (auto& ep : r.endpoints)
        join_listeners(ep, table);
    CHECK(r.endpoints[0].v4);
    CHECK(r.endpoints[0].v6);
    conclude_scan(r);
    CHECK(r.exit_code == 0);
}

TEST_CASE("scan: nothing listening, the port's usual server decides (inferred)", "[scan]") {
    auto r = result_of("a.py", client_code);
    infer_servers(r.endpoints, r.hits);
    CHECK(r.endpoints[0].inferred);
    CHECK(r.endpoints[0].server.find("Ollama") != std::string::npos);
    conclude_scan(r);
    CHECK(r.exit_code == 1);
    CHECK(r.hits[0].inferred);

    auto unknown = result_of("a.py", "import requests\nrequests.get('http://localhost:4567/')\n");
    infer_servers(unknown.endpoints, unknown.hits);
    conclude_scan(unknown);
    CHECK(unknown.exit_code == 0);
    CHECK(unknown.hits[0].cost_windows.starts_with("unknown"));
}

TEST_CASE("scan: a bind in the tree is the inferred server", "[scan]") {
    auto r = result_of("a.py", "import requests\nrequests.get('http://localhost:4567/')\n"
                               "app.run(host='127.0.0.1', port=4567)\n");
    infer_servers(r.endpoints, r.hits);
    CHECK(r.endpoints[0].server.find("flask bound to 127.0.0.1 at a.py:3") == 0);
    conclude_scan(r);
    CHECK(r.exit_code == 1);
    CHECK(r.hits[1].kind == HitKind::server);
    CHECK(r.hits[1].fix.find("Flask") != std::string::npos);
}

TEST_CASE("scan: config hits count only with --strict, and 0.0.0.0 is never a destination",
          "[scan]") {
    auto r = result_of(".env", "OLLAMA_BASE_URL=http://localhost:11434\n");
    infer_servers(r.endpoints, r.hits);
    conclude_scan(r);
    CHECK(r.hits[0].risky);
    CHECK(r.exit_code == 0);
    auto strict = result_of(".env", "OLLAMA_BASE_URL=http://localhost:11434\n");
    strict.strict = true;
    infer_servers(strict.endpoints, strict.hits);
    conclude_scan(strict);
    CHECK(strict.exit_code == 1);

    auto zero = result_of("a.py", "import requests\nrequests.get('http://0.0.0.0:8000/')\n");
    CHECK(zero.endpoints.empty());
    conclude_scan(zero);
    CHECK(zero.hits[0].risky);
    CHECK(zero.exit_code == 1);
}

TEST_CASE("scan: a config value takes the client of the code that reads it", "[scan]") {
    ScanResult r;
    r.hits = classify_text(".env", Lang::dotenv, "OLLAMA_BASE_URL=http://localhost:11434\n");
    for (const char* path : {"a.py", "b.ts"}) {
        const std::string code = std::string(path) == "a.py"
                                     ? "import requests\nurl = os.getenv('OLLAMA_BASE_URL')\n"
                                     : "const u = process.env.OLLAMA_BASE_URL;\n";
        FileScanner scanner(path, language_of(path));
        scanner.record_env_reads(&r.env_reads);
        std::vector<ScanHit> none;
        for (std::size_t at = 0, nl; (nl = code.find('\n', at)) != std::string::npos; at = nl + 1)
            scanner.line(std::string_view(code).substr(at, nl - at), none);
        CHECK(none.empty());
    }
    REQUIRE(r.env_reads.size() == 1); // the first read of a key only
    CHECK(r.env_reads[0].client == "python");
    r.endpoints = scan_endpoints(r.hits);
    infer_servers(r.endpoints, r.hits);
    conclude_scan(r);
    CHECK(r.hits[0].consumer == "a.py:2 (requests)");
    CHECK(r.hits[0].client == "python");
    CHECK(r.hits[0].risky);

    ScanResult node;
    node.hits = classify_text(".env", Lang::dotenv, "API=http://localhost:11434\n");
    node.env_reads.push_back({"API", "b.ts", 1, Lang::javascript, "", ""});
    node.endpoints = scan_endpoints(node.hits);
    infer_servers(node.endpoints, node.hits);
    conclude_scan(node);
    CHECK(node.hits[0].client == "node");
    // Read by Node.js code, whose 17 to 19 never reach 127.0.0.1.
    CHECK(node.hits[0].risky);
    CHECK(node.hits[0].cost_windows.starts_with("fails on Node.js 17 to 19"));
}

TEST_CASE("scan: clients that do not pay", "[scan]") {
    auto r = result_of("m.go", "resp, _ := http.Get(\"http://localhost:11434/\")\n");
    infer_servers(r.endpoints, r.hits);
    conclude_scan(r);
    CHECK_FALSE(r.hits[0].risky);
    CHECK(r.hits[0].cost_windows.find("no SYN retries") != std::string::npos);
    // Against a 127.0.0.1-only server Windows refuses ::1 at once without
    // SYN retries: check's assumed 1 ms (windows_fast_refusal), then the
    // accept, not a figure of scan's own (it said ~0.200 ms).
    CHECK(r.hits[0].cost_windows.starts_with("~1.10 ms per new connection"));
    CHECK(usual_server(5173) != nullptr);
    CHECK(usual_server(9) == nullptr);
}

TEST_CASE("scan: a line that lists both families of one port tries each", "[scan]") {
    auto r =
        result_of("a.go", "import \"net/http\"\n"
                          "for _, a := range []string{\"127.0.0.1:5173\", \"localhost:5173\"} {\n");
    REQUIRE(r.hits.size() == 2);
    infer_servers(r.endpoints, r.hits);
    conclude_scan(r);
    CHECK(r.exit_code == 0);
    CHECK_FALSE(r.hits[0].risky);
    CHECK(r.hits[0].cost_windows.find("tries each") != std::string::npos);
}

TEST_CASE("scan: interrupted is 130", "[scan]") {
    ScanResult r;
    r.interrupted = true;
    conclude_scan(r);
    CHECK(r.exit_code == 130);
}

TEST_CASE("scan: a Node.js client whose older versions fail is risky", "[scan]") {
    // IPv4-only server (Ollama's usual bind): Node.js 17 to 19 try ::1 only
    // (docs/clients.md: Node 18.20 with axios, openai-node and ollama-js
    // failed against 127.0.0.1-only; Node 20.19 connected).
    auto r = result_of("c.js", "axios.post('http://localhost:11434/api/chat', {})\n");
    infer_servers(r.endpoints, r.hits);
    conclude_scan(r);
    REQUIRE(r.hits.size() == 1);
    CHECK(r.hits[0].client == "node");
    CHECK(r.hits[0].risky);
    CHECK(r.exit_code == 1);
    CHECK(r.hits[0].cost_windows.starts_with(
        "fails on Node.js 17 to 19: it never reaches 127.0.0.1 (first address only"));
    CHECK(r.hits[0].cost_windows.find("Node.js >= 25.2: ~1.10 ms") != std::string::npos);
    CHECK(r.hits[0].fix.starts_with("Point the client at 127.0.0.1:11434"));

    // IPv6-only server (Vite's usual bind on 5173): Node.js up to 16 sort
    // IPv4 first and try it alone; the four rows are named as one run, as
    // check's folded list names it.
    auto v6 = result_of("d.ts", "await fetch('http://localhost:5173/')\n");
    infer_servers(v6.endpoints, v6.hits);
    conclude_scan(v6);
    REQUIRE(v6.hits.size() == 1);
    CHECK(v6.hits[0].risky);
    CHECK(v6.hits[0].cost_windows.starts_with("fails on Node.js < 17.0.0: it never reaches ::1"));
    CHECK(v6.hits[0].fix.starts_with("connect to [::1]:5173 (where the server listens)"));

    // A server on both families: nothing fails, nothing risky.
    auto both = result_of("c.js", "axios.post('http://localhost:3000/api', {})\n");
    infer_servers(both.endpoints, both.hits);
    conclude_scan(both);
    CHECK_FALSE(both.hits[0].risky);
    CHECK(both.exit_code == 0);
}

TEST_CASE("scan: the summary counts every hit once", "[scan]") {
    // risky (requests, Node), a Go client that does not pay, a config value
    // nobody reads on a port with no usual server (unknown), a server bind,
    // and a harmless comment: 2 + 1 + 1 + 1 + 1 = 6.
    ScanResult r;
    r.hits = classify_text("a.py", Lang::python,
                           "import requests\nrequests.get('http://localhost:11434/')\n"
                           "uvicorn.run(app, host='127.0.0.1', port=8000)\n"
                           "# see http://localhost:11434/\n");
    for (auto h : classify_text("c.js", Lang::javascript, "axios.get('http://localhost:11434/')\n"))
        r.hits.push_back(h);
    for (auto h : classify_text("m.go", Lang::go, "http.Get(\"http://localhost:11434/\")\n"))
        r.hits.push_back(h);
    for (auto h : classify_text(".env", Lang::dotenv, "X=http://localhost:4567\n"))
        r.hits.push_back(h);
    r.files_read = 4;
    r.endpoints = scan_endpoints(r.hits);
    infer_servers(r.endpoints, r.hits);
    conclude_scan(r);
    REQUIRE(r.hits.size() == 6);
    CHECK(scan_summary(r) == "2 risky of 6 hits in 4 files; 1 client and 1 config not risky, 1 "
                             "server bind; 1 harmless: 1 comment");
    // Risky hits of one URL are ranked together: they share one fix.
    CHECK(r.hits[0].risky);
    CHECK(r.hits[1].risky);
    CHECK(r.hits[0].fix == r.hits[1].fix);
}

TEST_CASE("scan: a server seen that the name never reaches here fails here", "[scan]") {
    // The server on ::1 only, localhost answered 127.0.0.1 alone here (no
    // ::1 line in the hosts file): the probe found nothing accepting. Every
    // client fails on this machine, Node.js >= 17 (fine on Windows) too.
    auto r = result_of("d.ts", "await fetch('http://localhost:5173/')\n");
    const std::vector<Listener> table{listener_on(ipv6_loopback(5173), true)};
    REQUIRE(r.endpoints.size() == 1);
    r.endpoints[0].probed = true;
    r.endpoints[0].accepted_here = false;
    join_listeners(r.endpoints[0], table);
    REQUIRE(r.endpoints[0].v6);
    r.probed = true;
    conclude_scan(r);
    CHECK(r.hits[0].risky);
    CHECK(r.hits[0].cost_here == "fails: no address it names accepts");
    CHECK(r.hits[0].fix.starts_with("connect to [::1]:5173 (where the server listens)"));
    CHECK(r.exit_code == 1);

    // requests would reach ::1 first on Windows: risky for failing here alone.
    auto py = result_of("a.py", "import requests\nrequests.get('http://localhost:5173/')\n");
    REQUIRE(py.endpoints.size() == 1);
    py.endpoints[0].probed = true;
    join_listeners(py.endpoints[0], table);
    py.probed = true;
    conclude_scan(py);
    REQUIRE(py.hits.size() == 1);
    CHECK(py.hits[0].cost_windows.starts_with("~"));
    CHECK(py.hits[0].risky);
    CHECK(py.hits[0].cost_here == "fails: no address it names accepts");
    CHECK(py.exit_code == 1);
    // The same server reached here: not risky.
    py.hits[0].risky = false;
    py.hits[0].fix.clear();
    py.endpoints[0].accepted_here = true;
    conclude_scan(py);
    CHECK_FALSE(py.hits[0].risky);
    CHECK(py.exit_code == 0);
}
