// loopcheck scan's fixes for the errors bench/scan_eval.py found on public
// repositories (#34): each case is one cause of a false alarm or a miss.
#include "core/scan/classify.hpp"
#include "core/scan/context.hpp"
#include "loopcheck/core/scan/cost.hpp"
#include "support/catch.hpp"

#include <cstdint>
#include <string>

using namespace loopcheck;

namespace {

/// Every hit of the files, costed as `scan --no-probe` costs them.
ScanResult tree_of(std::initializer_list<std::pair<std::string_view, std::string_view>> files) {
    ScanResult r;
    for (auto [path, text] : files) {
        auto hits = classify_text(path, language_of(path), text);
        r.hits.insert(r.hits.end(), hits.begin(), hits.end());
    }
    r.endpoints = scan_endpoints(r.hits);
    infer_servers(r.endpoints, r.hits);
    conclude_scan(r);
    return r;
}

const ScanHit& hit_on(const ScanResult& r, std::string_view path, std::uint32_t line) {
    for (const ScanHit& h : r.hits)
        if (h.path.escaped() == path && h.line == line && h.kind != HitKind::server)
            return h;
    FAIL("no hit on " << path << ":" << line);
    return r.hits.front();
}

} // namespace

TEST_CASE("scan docs: output, logs and listings in a code block are harmless", "[scan]") {
    auto r = tree_of({{"README.md", "```\nSending request to http://localhost:11434/api/tags\n"
                                    "PARSER_ENDPOINT     = http://localhost:11434\n```\n"
                                    "```text\nListening on http://localhost:11434\n```\n"}});
    for (const ScanHit& h : r.hits) {
        INFO(h.text.escaped());
        CHECK(h.kind == HitKind::harmless);
        CHECK_FALSE(h.risky);
    }
}

TEST_CASE("scan docs: telling the reader to set a client's URL is reported", "[scan]") {
    const char* code = "import os, requests\nBASE = os.getenv('OLLAMA_BASE_URL')\n";
    auto r =
        tree_of({{"app.py", code},
                 {"docs/setup.md", "```bash\nexport OLLAMA_BASE_URL=http://localhost:11434\n"
                                   "OLLAMA_BASE_URL=http://localhost:11434 python app.py\n```\n"
                                   "```powershell\n"
                                   "$env:OLLAMA_BASE_URL = \"http://localhost:11434\"\n```\n"}});
    for (std::uint32_t line : {2u, 3u, 6u}) {
        const ScanHit& h = hit_on(r, "docs/setup.md", line);
        INFO(h.text.escaped());
        CHECK(h.rule == "docs-env");
        CHECK(h.config_key == "OLLAMA_BASE_URL");
        CHECK(h.risky);
    }
}

TEST_CASE("scan docs: a code example is read as code", "[scan]") {
    auto r = tree_of({{"docs/start.md", "```csharp\nvar ollama = new OllamaApiClient("
                                        "\"http://localhost:11434\");\n```\n"},
                      {"README.md", "```python\nfrom ollama import Client\nclient = Client(\n"
                                    "  host='http://localhost:11434',\n)\n```\n"}});
    CHECK(hit_on(r, "docs/start.md", 2).risky);
    CHECK(hit_on(r, "README.md", 4).risky);
}

TEST_CASE("scan: a C# doc comment's usage example is code", "[scan]") {
    auto hits = classify_text("Chat.cs", Lang::csharp,
                              "/// var ollama = new OllamaApiClient(\"http://localhost:11434\");\n"
                              "/// Connects to http://localhost:11434 by default.\n");
    REQUIRE(hits.size() == 2);
    CHECK(hits[0].kind != HitKind::harmless);
    CHECK(hits[1].rule == "comment");
}

TEST_CASE("scan: an unknown server is not risky, 8000 and 8080 have no usual server", "[scan]") {
    auto r = tree_of({{"a.py", "import requests\nrequests.get('http://localhost:8000/x')\n"
                               "requests.get('http://localhost:8080/x')\n"}});
    CHECK_FALSE(hit_on(r, "a.py", 2).risky);
    CHECK_FALSE(hit_on(r, "a.py", 3).risky);
    CHECK(usual_server(8000) == nullptr);
    CHECK(usual_server(11434) != nullptr);
}

TEST_CASE("scan: the tree's own servers from framework calls", "[scan]") {
    const char* server = "import socketserver\nPORT = 8000\n"
                         "with socketserver.TCPServer((\"\", PORT), Handler) as httpd:\n"
                         "    httpd.serve_forever()\n";
    const char* api = "def start_server(port=8001):\n"
                      "    with ReusableTCPServer(('', port), Handler) as httpd:\n";
    const char* client = "import requests\nrequests.get('http://localhost:8000/health')\n"
                         "requests.get('http://localhost:8001/chat')\n"
                         "requests.get('http://localhost:5000/')\n"
                         "requests.get('http://localhost:3000/')\n"
                         "requests.get('http://localhost:8080/')\n";
    auto r = tree_of({{"server.py", server},
                      {"api.py", api},
                      {"flask_app.py", "app.run()\n"},
                      {"web.js", "app.listen(3000, () => console.log('up'))\n"},
                      {"main.go", "log.Fatal(http.ListenAndServe(\":8080\", nil))\n"},
                      {"client.py", client}});
    CHECK(hit_on(r, "client.py", 2).risky);       // 0.0.0.0 only
    CHECK(hit_on(r, "client.py", 3).risky);       // a default parameter's port
    CHECK(hit_on(r, "client.py", 4).risky);       // Flask: 127.0.0.1:5000
    CHECK_FALSE(hit_on(r, "client.py", 5).risky); // Node: :: (both)
    CHECK_FALSE(hit_on(r, "client.py", 6).risky); // Go: both
    int binds = 0;
    for (const ScanHit& h : r.hits)
        binds += h.rule == "server-call" ? 1 : 0;
    CHECK(binds == 5);
    // A host written is a bind hit of its own, not an implicit one.
    CHECK_FALSE(implicit_bind("uvicorn.run(app, host='0.0.0.0')", Lang::python));
    CHECK_FALSE(implicit_bind("server.listen(3000, 'localhost')", Lang::javascript));
    CHECK(implicit_bind("uvicorn.run(app)", Lang::python)->port_text == "8000");
}

TEST_CASE("scan: OLLAMA_HOST as a client's URL is not a bind", "[scan]") {
    auto r = tree_of({{"app.py", "import requests\n"
                                 "HOST = os.getenv('OLLAMA_HOST', 'http://localhost:11434')\n"},
                      {".env", "OLLAMA_HOST=http://localhost:11434\n"},
                      {"run.sh", "OLLAMA_HOST=0.0.0.0:11434 ollama serve\n"}});
    const ScanHit& code = hit_on(r, "app.py", 2);
    CHECK(code.kind == HitKind::client);
    CHECK(code.risky);
    const ScanHit& env = hit_on(r, ".env", 1);
    CHECK(env.kind == HitKind::config);
    CHECK(env.risky); // read by app.py's requests
    for (const ScanHit& h : r.hits)
        if (h.path.escaped() == "run.sh")
            CHECK(h.kind == HitKind::server);
}

TEST_CASE("scan: front-end values are the browser's, not Node's", "[scan]") {
    auto r =
        tree_of({{"src/lib/api.ts",
                  "const API = process.env.NEXT_PUBLIC_API_URL || 'http://localhost:11434';\n"},
                 {".env.example", "NEXT_PUBLIC_API_URL=http://localhost:11434\n"
                                  "VITE_API=http://localhost:11434\n"}});
    for (const ScanHit& h : r.hits) {
        INFO(h.path.escaped() << ":" << h.line);
        CHECK(h.client == "browser");
        CHECK_FALSE(h.risky);
    }
}

TEST_CASE("scan: Go dials 0.0.0.0 as the local system", "[scan]") {
    auto r = tree_of({{"main.go", "url := \"http://0.0.0.0:5001\"\n"},
                      {"a.py", "import requests\nrequests.get('http://0.0.0.0:5001')\n"}});
    CHECK_FALSE(hit_on(r, "main.go", 1).risky);
    CHECK(hit_on(r, "a.py", 2).risky);
}

TEST_CASE("scan: the file types people keep their settings in", "[scan]") {
    CHECK(language_of("docs/intro.mdx") == Lang::markdown);
    CHECK(language_of("Makefile") == Lang::shell);
    CHECK(language_of("env.example.watsonx") == Lang::dotenv);
    CHECK(language_of("config.yaml.example") == Lang::yaml);
    CHECK(language_of("Dockerfile.backend") == Lang::dockerfile);
    CHECK(language_of("start.bat") == Lang::powershell);
    CHECK(language_of("start.cmd") == Lang::powershell);
    CHECK(language_of("index.html") == Lang::markdown);
    auto hits = classify_text("start.bat", Lang::powershell,
                              "REM curl http://localhost:11434/api/tags\n"
                              "set OLLAMA_BASE_URL=http://localhost:11434\n");
    REQUIRE(hits.size() == 2);
    CHECK(hits[0].rule == "comment");
    CHECK(hits[1].config_key == "OLLAMA_BASE_URL");
}

TEST_CASE("scan: env assignment keys", "[scan]") {
    CHECK(env_assignment_key("export KEY_1=http://x", 13) == "KEY_1");
    CHECK(env_assignment_key("A=1 B_URL=http://x", 10) == "B_URL");
    CHECK(env_assignment_key("$env:B_URL = \"http://x", 14) == "B_URL");
    CHECK(env_assignment_key("KEY = http://x", 6).empty()); // a listing
    CHECK(env_assignment_key("url=http://x", 4).empty());   // not an env name
    CHECK(env_assignment_key("KEY=foo http://x", 8).empty());
    CHECK(port_assignment("PORT = int(os.getenv('PORT', '8000'))").second == 8000);
    CHECK(port_assignment("def start(port=8001):").first == "port");
    CHECK(port_assignment("if a == 8000:").first.empty());
}

TEST_CASE("scan: integration tests reach the developer's own servers", "[scan]") {
    auto r = tree_of({{"test/FunctionalTests/ChatTests.cs",
                       "private readonly Uri _baseUri = new(\"http://localhost:11434\");\n"},
                      {"tests/integration/test_chat.py",
                       "import requests\nrequests.get('http://localhost:11434/api/tags')\n"},
                      {"tests/test_unit.py",
                       "import requests\nrequests.get('http://localhost:11434/api/tags')\n"}});
    CHECK(hit_on(r, "test/FunctionalTests/ChatTests.cs", 1).risky);
    CHECK(hit_on(r, "tests/integration/test_chat.py", 2).risky);
    CHECK(hit_on(r, "tests/test_unit.py", 2).rule == "test-file");
}

TEST_CASE("scan: a parameter's default host is a client's, not a bind", "[scan]") {
    auto hits = classify_text("a.py", Lang::python,
                              "import socket\ndef up(port: int, host: str = \"localhost\"):\n"
                              "host = \"127.0.0.1\"\n");
    REQUIRE(hits.size() == 2);
    CHECK(hits[0].kind != HitKind::server);
    CHECK(hits[1].kind == HitKind::server);
}

TEST_CASE("scan: a Windows script's cost is certain, not a projection", "[scan]") {
    auto r =
        tree_of({{"start.ps1", "Invoke-RestMethod -Uri \"http://localhost:11434/api/tags\"\n"},
                 {"run.py", "import requests\nrequests.get('http://localhost:11434/api/tags')\n"}});
    const ScanHit& ps = hit_on(r, "start.ps1", 1);
    CHECK(ps.risky);
    CHECK(ps.cost_windows.starts_with("certain, a Windows script: "));
    CHECK_FALSE(hit_on(r, "run.py", 2).cost_windows.starts_with("certain"));
}
