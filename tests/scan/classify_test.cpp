// loopcheck scan's classifier on short hand-written snippets, per language
// and per rule; every rule's own example must classify to that rule.
#include "core/scan/classify.hpp"
#include "support/catch.hpp"

#include <cstdint>
#include <string>

using namespace loopcheck;

namespace {

/// The one hit of `text` read as a file at `path`.
ScanHit only_hit(std::string_view path, std::string_view text) {
    auto hits = classify_text(path, language_of(path), text);
    INFO(text);
    REQUIRE(hits.size() == 1);
    return hits[0];
}

} // namespace

TEST_CASE("every rule's example classifies to that rule", "[scan]") {
    for (const ScanRule& rule : scan_rules()) {
        std::string text(rule.example_context);
        if (!text.empty())
            text += "\n";
        text += rule.example;
        auto hits = classify_text(rule.example_path, rule.example_lang, text);
        INFO(rule.id << ": " << text);
        REQUIRE_FALSE(hits.empty());
        CHECK(hits.back().rule == rule.id);
        CHECK(hits.back().kind == rule.kind);
    }
}

TEST_CASE("scan: Python clients", "[scan]") {
    auto h = only_hit("a.py", "import requests\nr = requests.get('http://localhost:8000/x')\n");
    CHECK(h.kind == HitKind::client);
    CHECK(h.client == "python");
    CHECK(h.client_label == "requests");
    CHECK(h.line == 2);
    CHECK(h.col == 19);
    CHECK(h.ref.port == 8000);

    h = only_hit("a.py", "client = AsyncOpenAI(base_url='http://localhost:11434/v1')");
    CHECK(h.client == "python-httpx-async");
}

TEST_CASE("scan: a URL from an env var with a localhost default", "[scan]") {
    const char* with_client =
        "import os\nimport httpx\n"
        "BASE = os.environ.get('OLLAMA_BASE_URL', 'http://localhost:11434')\n";
    auto h = only_hit("a.py", with_client);
    CHECK(h.kind == HitKind::client);
    CHECK(h.rule == "import-context");
    CHECK(h.client == "python");
    CHECK(h.client_label == "httpx (sync)");

    h = only_hit("a.py", "import os\nBASE = os.getenv('API', 'http://localhost:9000')\n");
    CHECK(h.kind == HitKind::config);
    CHECK(h.rule == "code-url");
    CHECK(h.config_key == "BASE");
}

TEST_CASE("scan: f-strings and template literals", "[scan]") {
    auto h = only_hit("a.py", "import requests\nrequests.post(f\"http://localhost:{PORT}/api\")");
    CHECK(h.kind == HitKind::client);
    CHECK(h.ref.port == 0); // the port is a variable: not costed
    h = only_hit("a.ts", "const r = await fetch(`http://localhost:11434/api/${path}`);");
    CHECK(h.kind == HitKind::client);
    CHECK(h.client == "node");
    CHECK(h.ref.port == 11434);
}

TEST_CASE("scan: a multi-line constructor call", "[scan]") {
    const char* text = "from openai import OpenAI\n"
                       "client = OpenAI(\n"
                       "    api_key='ollama',\n"
                       "    base_url='http://localhost:11434/v1',\n"
                       ")\n";
    auto h = only_hit("a.py", text);
    CHECK(h.rule == "py-openai");
    CHECK(h.line == 4);

    const char* cors = "app.add_middleware(\n    CORSMiddleware,\n    allow_origins=[\n"
                       "        'http://localhost:3000',\n    ],\n)\n";
    CHECK(only_hit("a.py", cors).rule == "cors");
}

TEST_CASE("scan: comments", "[scan]") {
    CHECK(only_hit("a.py", "x = 1  # was http://localhost:8000").rule == "comment");
    CHECK(only_hit("a.go", "// see http://localhost:8080/debug").rule == "comment");
    CHECK(only_hit("a.js", "/* proxy\n http://localhost:1 */").rule == "comment");
    CHECK(only_hit("a.js", "x = 'http://localhost:8080/#/x'").rule != "comment");
    CHECK(only_hit(
              "a.go",
              "r.Handle(\"/api/*\", h) // routes\nresp, _ := http.Get(\"http://localhost:8080/\")")
              .rule == "go-client"); // "/api/*" in a string opens no block comment
    CHECK(only_hit(".env", "# OLLAMA_BASE_URL=http://localhost:11434").rule == "comment");
    const char* doc =
        "import requests\ndef f():\n    \"\"\"Fetch.\n\n    >>> f('http://localhost:8000')\n"
        "    \"\"\"\n    return requests.get('http://localhost:8000')\n";
    auto hits = classify_text("a.py", Lang::python, doc);
    REQUIRE(hits.size() == 2);
    CHECK(hits[0].rule == "comment");
    CHECK(hits[1].kind == HitKind::client);
}

TEST_CASE("scan: CRLF files", "[scan]") {
    auto hits = classify_text("a.py", Lang::python,
                              "import requests\r\nrequests.get('http://localhost:5000')\r\n");
    REQUIRE(hits.size() == 1);
    CHECK(hits[0].line == 2);
    CHECK(hits[0].kind == HitKind::client);
    CHECK(hits[0].text == Untrusted("requests.get('http://localhost:5000')"));
}

TEST_CASE("scan: other languages' clients", "[scan]") {
    CHECK(only_hit("m.go", "resp, _ := http.Get(\"http://localhost:8080/\")").client == "go");
    CHECK(only_hit("A.java", "URI.create(\"http://localhost:8080/x\")").client ==
          "java-httpclient");
    CHECK(only_hit("A.cs", "new Uri(\"http://localhost:5000\")").client == "dotnet");
    CHECK(only_hit("a.rb", "Net::HTTP.get(URI('http://localhost:3000/'))").client == "ruby");
    CHECK(only_hit("a.php", "curl_init('http://localhost:8080/');").client == "curl");
    CHECK(only_hit("a.php", "file_get_contents('http://localhost:8080/');").client == "php");
    CHECK(only_hit("run.sh", "curl -sf http://127.0.0.1:8080/health").client == "curl");
    CHECK(only_hit("run.ps1", "Invoke-WebRequest http://localhost:11434").client == "dotnet");
}

TEST_CASE("scan: servers", "[scan]") {
    auto h = only_hit("main.py", "uvicorn.run(app, host='127.0.0.1', port=8000)");
    CHECK(h.kind == HitKind::server);
    CHECK(h.server == "uvicorn");
    CHECK(h.ref.port == 8000);
    CHECK(only_hit("s.js", "server.listen(3000, 'localhost');").server == "node");
    CHECK(only_hit("start.sh", "uvicorn app:app --host 127.0.0.1 --port 8001").ref.port == 8001);
    CHECK(only_hit("s.py", "HOST = '127.0.0.1'").kind == HitKind::server);
}

TEST_CASE("scan: harmless hits and their reasons", "[scan]") {
    for (const auto& hit : classify_text("settings.py", Lang::python,
                                         "ALLOWED_HOSTS = ['localhost', '127.0.0.1:8000']"))
        CHECK(hit.rule == "cors");
    CHECK(only_hit("a.py", "DEFAULT_FROM = 'admin@localhost'").rule == "email");
    CHECK(only_hit("README.md", "Open http://localhost:9099 to see the UI.").rule ==
          "markdown-prose");
    CHECK(only_hit("a.py", "print(f'Open http://localhost:{port}')").rule == "for-a-person");
    CHECK(only_hit("vite.config.ts", "  '/api': 'http://localhost:8000',").rule == "dev-proxy");
    CHECK(only_hit("package.json", R"("proxy": "http://localhost:5000",)").rule == "dev-proxy");
    CHECK(only_hit("Dockerfile", "RUN curl http://localhost:8080/ready").rule == "linux-only");
    CHECK(only_hit("docker-compose.yml", "  OLLAMA_URL: http://localhost:11434").rule ==
          "linux-only");
    const char* job = "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
                      "      - run: curl http://localhost:8000/health\n";
    CHECK(only_hit(".github/workflows/ci.yml", job).rule == "linux-only");
    const char* win = "jobs:\n  test:\n    runs-on: windows-latest\n    steps:\n"
                      "      - run: curl http://localhost:8000/health\n";
    CHECK(only_hit(".github/workflows/ci.yml", win).kind == HitKind::config);
}

TEST_CASE("scan: config files", "[scan]") {
    auto h = only_hit(".env", "export OLLAMA_BASE_URL=\"http://localhost:11434\"");
    CHECK(h.kind == HitKind::config);
    CHECK(h.config_key == "OLLAMA_BASE_URL");
    CHECK(only_hit("c.yaml", "  api_base: http://localhost:8000/v1").config_key == "api_base");
    CHECK(only_hit("c.toml", "base_url = \"http://127.0.0.1:1234/v1\"").config_key == "base_url");
    CHECK(only_hit("c.json", R"(  "baseUrl": "http://localhost:3000")").config_key == "baseUrl");
    CHECK(only_hit("a.properties", "api.url=http://localhost:8080").config_key == "api.url");
}

TEST_CASE("scan: Markdown code fences take the fence's language", "[scan]") {
    const char* md = "Run it:\n\n```python\nfrom openai import OpenAI\n"
                     "c = OpenAI(base_url='http://localhost:11434/v1')\n```\n"
                     "then visit http://localhost:8080\n";
    auto hits = classify_text("README.md", Lang::markdown, md);
    REQUIRE(hits.size() == 2);
    CHECK(hits[0].kind == HitKind::client);
    CHECK(hits[0].lang == Lang::python);
    CHECK(hits[1].rule == "markdown-prose");
}

TEST_CASE("scan: notebook cells", "[scan]") {
    const char* nb = R"nb({"cells": [
      {"cell_type": "markdown", "metadata": {}, "source": ["Start Ollama, then open http://localhost:11434\n"]},
      {"cell_type": "code", "execution_count": null, "metadata": {"x": [1, 2, {"y": null}]},
       "outputs": [{"text": "http://localhost:1/ in an output"}],
       "source": ["import requests\n", "\n", "r = requests.get(\"http://localhost:11434/api/tags\")"]}
    ], "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5})nb";
    std::vector<ScanHit> hits;
    std::uint64_t long_lines = 0;
    REQUIRE(scan_notebook("n.ipynb", nb, hits, long_lines));
    REQUIRE(hits.size() == 2);
    CHECK(hits[0].cell == 0u);
    CHECK(hits[0].kind == HitKind::harmless);
    CHECK(hits[1].cell == 1u);
    CHECK(hits[1].line == 3);
    CHECK(hits[1].client == "python");
    CHECK_FALSE(scan_notebook("bad.ipynb", "{\"cells\": [", hits, long_lines));
}

TEST_CASE("scan: a very long line is read around each hit", "[scan]") {
    std::string line(100'000, 'x');
    line += " fetch('http://localhost:3000/') ";
    line += std::string(100'000, 'y');
    FileScanner scanner("min.js", Lang::javascript);
    std::vector<ScanHit> hits;
    scanner.line(line, hits);
    REQUIRE(hits.size() == 1);
    CHECK(hits[0].col == 100'009);
    CHECK(hits[0].client == "node");
    CHECK(scanner.long_lines() == 1);
}
