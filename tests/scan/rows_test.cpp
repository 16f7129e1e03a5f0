// loopcheck scan's client hits on the client table's rows (issues 25, 23):
// each rule's sample line maps to the row of the code it matched, and its
// "on Windows" cost is that row's prediction in check's own model.
#include "core/scan/classify.hpp"
#include "core/scan/client.hpp"
#include "loopcheck/core/clients/impact.hpp"
#include "loopcheck/core/listeners/servers.hpp"
#include "loopcheck/core/scan/cost.hpp"
#include "support/catch.hpp"

#include <string>

using namespace loopcheck;
using namespace std::chrono_literals;

namespace {

/// The one hit of `text`, costed against a server on 127.0.0.1 only (the
/// usual server of port 11434 is Ollama's default bind), nothing probed.
ScanHit costed(std::string_view path, std::string_view text) {
    ScanResult r;
    r.hits = classify_text(path, language_of(path), text);
    r.files_read = 1;
    r.endpoints = scan_endpoints(r.hits);
    infer_servers(r.endpoints, r.hits);
    conclude_scan(r);
    REQUIRE(r.hits.size() == 1);
    return r.hits.front();
}

bool has(const std::string& s, std::string_view part) {
    return s.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("scan rules map each library to its client-table row", "[scan][scan-rows]") {
    struct Sample {
        const char* path;
        const char* line;
        const char* row;  // the client id
        bool risky;       // against an IPv4-only server, on Windows
        const char* cost; // a part of cost_windows
    };
    const Sample samples[] = {
        {"a.py", "requests.get('http://localhost:11434/api/tags')", "python", true, "~2.00 s"},
        {"a.py", "c = OpenAI(base_url='http://localhost:11434/v1')", "python", true, "~2.00 s"},
        {"a.py", "c = AsyncOpenAI(base_url='http://localhost:11434/v1')", "python-httpx-async",
         false, "~250 ms"},
        {"a.py", "c = ollama.AsyncClient(host='http://localhost:11434')", "python-httpx-async",
         false, "Python httpx.AsyncClient (anyio)"},
        {"a.py", "c = httpx.AsyncClient(base_url='http://localhost:11434')", "python-httpx-async",
         false, "~250 ms"},
        // aiohttp with no pin: the newest row (aiohappyeyeballs), the older one noted.
        {"a.py", "await aiohttp.ClientSession().get('http://localhost:11434/')", "python-aiohttp",
         false, "Python aiohttp < 3.10: ~2.00 s"},
        {"a.py", "r, w = await asyncio.open_connection(*split('http://localhost:11434'))",
         "python-asyncio-default", true, "~2.00 s"},
        {"a.py",
         "await asyncio.open_connection(*split('http://localhost:11434'), "
         "happy_eyeballs_delay=0.25)",
         "python-asyncio", false, "~250 ms"},
        // Node.js: the newest row turns SYN retries off on loopback, but 17
        // to 19 try ::1 alone and fail: any of them may run the code.
        {"a.ts", "await fetch('http://localhost:11434/api/tags')", "node", true,
         "fails on Node.js 17 to 19: it never reaches 127.0.0.1"},
        {"a.js", "net.connect({ ...parse('http://localhost:11434'), autoSelectFamily: false })",
         "node-no-autoselect", true, "fails: it never reaches 127.0.0.1"},
        {"m.go", "resp, _ := http.Get(\"http://localhost:11434/\")", "go", false, "Go net.Dial"},
        {"A.java", "URI.create(\"http://localhost:11434/x\")", "java-httpclient", false,
         "Java HttpClient"},
        {"A.cs", "new Uri(\"http://localhost:11434\")", "dotnet", true, "~2.00 s"},
        {"run.sh", "curl -sf http://localhost:11434/api/tags", "curl", false, "curl >= 8.22"},
        {"run.sh", "wget -qO- http://localhost:11434/api/tags", "wget", true, "~2.00 s"},
        // Ruby >= 3.4's Happy Eyeballs is compiled out on Windows: ~2 s there too.
        {"a.rb", "Net::HTTP.get(URI('http://localhost:11434/api/tags'))", "ruby", true,
         "Ruby Net::HTTP >= 3.4"},
        {"a.php", "file_get_contents('http://localhost:11434/api/tags');", "php", true, "~2.00 s"},
        {"a.php", "$ch = curl_init('http://localhost:11434/api/tags');", "curl", false,
         "curl >= 8.22"},
    };
    for (const auto& s : samples) {
        INFO(s.path << ": " << s.line);
        const ScanHit h = costed(s.path, s.line);
        CHECK(h.kind == HitKind::client);
        CHECK(h.client == s.row);
        CHECK(h.risky == s.risky);
        INFO("cost: " << h.cost_windows);
        CHECK(has(h.cost_windows, s.cost));
        // The row scan names is one the client table has, and its cost is
        // that row's Windows prediction (check's "on Windows" column).
        const ClientModel* row = scan_client_row(h.client);
        REQUIRE(row != nullptr);
        CHECK(has(h.cost_windows, row->name));
        // Risky: that row fails or waits 1 s or more, or (no version
        // pinned) another version of the same client fails outright.
        bool any_fails = false;
        for (const ClientModel& m : client_models())
            if (m.id == row->id && !windows_localhost_cost(m, true, false).connected)
                any_fails = true;
        const auto p = windows_localhost_cost(*row, true, false);
        CHECK(h.risky == (any_fails || p.time >= 1s));
    }
}

TEST_CASE("scan's Windows cost is check's own projection for localhost", "[scan][scan-rows]") {
    // The same rows through predict_clients, the function check's report
    // calls, over ::1 refused and 127.0.0.1 accepting on Linux. Scan keeps
    // no per-address times: a refusal takes check's own assumed figure
    // (windows_fast_refusal), not a number of scan's.
    std::vector<Observation> here(2);
    here[0].address = *parse_ip_literal("::1");
    here[0].summary.outcome = Outcome::refused;
    const Micros r = windows_fast_refusal;
    here[0].summary.latency = {1, r, r, r, r, 0us};
    here[1].address = *parse_ip_literal("127.0.0.1");
    here[1].summary.outcome = Outcome::accepted;
    here[1].summary.latency = {1, 100us, 100us, 100us, 100us, 0us};
    const auto check_rows = predict_clients(here, {"localhost", Os::linux_});
    std::size_t i = 0;
    for (const ClientModel& m : client_models()) {
        INFO(m.name);
        REQUIRE(check_rows[i].windows);
        const auto scan = windows_localhost_cost(m, true, false);
        CHECK(scan.connected == check_rows[i].windows->connected);
        CHECK(scan.time == check_rows[i].windows->time);
        ++i;
    }
}

TEST_CASE("scan picks a row by its pinned version, else the newest", "[scan][scan-rows]") {
    CHECK(scan_client_row("python-aiohttp", "3.8.4")->versions.below == "3.10.0");
    CHECK(scan_client_row("python-aiohttp", "3.11.16")->versions.min == "3.10.0");
    CHECK(scan_client_row("python-aiohttp")->versions.min == "3.10.0");
    CHECK(scan_client_row("ruby", "3.3.8")->versions.below == "3.4.0");
    CHECK(scan_client_row("ruby")->versions.min == "3.4.0");
    CHECK(scan_client_row("node")->versions.min == "25.2.0");
    CHECK(scan_client_row("rust") == nullptr);
}

TEST_CASE("scan's server fixes are the server table's own sentences", "[scan][scan-rows]") {
    // A bind in the tree: uvicorn on 127.0.0.1 gets check's uvicorn fix.
    ScanResult r;
    r.hits =
        classify_text("main.py", Lang::python, "uvicorn.run(app, host=\"127.0.0.1\", port=8000)\n");
    conclude_scan(r);
    REQUIRE(r.hits.size() == 1);
    CHECK(r.hits[0].kind == HitKind::server);
    std::string own = server_own_fix(ServerMatch{"uvicorn"}, 8000);
    REQUIRE(own.starts_with("Or start"));
    CHECK(r.hits[0].fix.substr(0, 6) == "Start ");
    CHECK(r.hits[0].fix.substr(1) == own.substr(4));
    // With --reload the parent binds one socket: the other sentence.
    ScanResult reload;
    reload.hits = classify_text("main.py", Lang::python,
                                "uvicorn.run(\"app:app\", host=\"localhost\", port=8000, "
                                "reload=True)\n");
    conclude_scan(reload);
    REQUIRE(reload.hits.size() == 1);
    CHECK(has(reload.hits[0].fix, "Drop --reload and --workers"));

    // A client hit whose server is the port's usual one: the server's own
    // sentence; Ollama's already says to point the client at 127.0.0.1:11434,
    // so it stands alone and the address is said once.
    const ScanHit ollama = costed("a.py", "requests.get('http://localhost:11434/api/tags')");
    CHECK(ollama.fix == server_own_fix(ServerMatch{"ollama"}, 11434, FixForm::alone));
    CHECK(ollama.fix.starts_with("Point the client at 127.0.0.1:11434"));
    CHECK(ollama.fix.find("127.0.0.1:11434") == ollama.fix.rfind("127.0.0.1:11434 ("));
    CHECK(ollama.listens.find("inferred") == std::string::npos); // the report tags it once
    CHECK(ollama.inferred);
    // A server whose own setting takes both families: the address first.
    // (8000 has no usual server: uvicorn is known from its bind in the tree.)
    ScanResult tree;
    tree.hits = classify_text("a.py", Lang::python,
                              "import requests\nrequests.get('http://localhost:8000/api/tags')\n"
                              "uvicorn.run(app, port=8000)\n");
    tree.endpoints = scan_endpoints(tree.hits);
    infer_servers(tree.endpoints, tree.hits);
    conclude_scan(tree);
    REQUIRE(tree.hits.size() == 2);
    const ScanHit& uvicorn = tree.hits.front();
    REQUIRE(uvicorn.kind == HitKind::client);
    const std::string lead = "connect to 127.0.0.1:8000 (where the server listens). ";
    CHECK(uvicorn.fix.substr(0, lead.size()) == lead);
    CHECK(uvicorn.fix.substr(lead.size()) == server_own_fix(ServerMatch{"uvicorn"}, 8000));
    // A server the table does not know: the general advice, as check's.
    CHECK(server_fix("unknown", 4567)
              .starts_with("Or make the server listen on both ::1 and "
                           "127.0.0.1"));
}

TEST_CASE("scan takes the listener's server from the table, else a bind in the tree",
          "[scan][scan-rows]") {
    ScanResult r;
    r.hits = classify_text("a.py", Lang::python,
                           "import requests\nrequests.get('http://localhost:8000/')\n"
                           "uvicorn.run(app, host=\"127.0.0.1\", port=8000)\n");
    r.endpoints = scan_endpoints(r.hits);
    REQUIRE(r.endpoints.size() == 1);
    Listener l;
    l.bound = make_ipv4(127, 0, 0, 1, 8000);
    l.process = "python3"; // not recognised: the bind names the server
    const std::vector<Listener> plain{l};
    join_listeners(r.endpoints[0], plain);
    CHECK(r.endpoints[0].server_fix == server_fix("", 8000));
    infer_servers(r.endpoints, r.hits);
    CHECK(r.endpoints[0].server_fix == server_own_fix(ServerMatch{"uvicorn"}, 8000));

    l.process = "ollama";
    l.server = ServerMatch{"ollama"};
    const std::vector<Listener> ollama{l};
    ScanEndpoint ep;
    ep.host = "localhost";
    ep.port = 8000;
    join_listeners(ep, ollama);
    CHECK(ep.server_fix == server_own_fix(ServerMatch{"ollama"}, 8000));
}
