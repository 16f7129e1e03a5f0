// `loopcheck scan`'s rules table: how each loopback hit is classified
// (client, config, server, harmless), in the order the rules are tried.
// docs/scan.md lists every rule with its example; tests/scan/
// classifies every example and expects its own rule.
#include "core/scan/rules.hpp"

namespace loopcheck {

namespace {

using enum Lang;
using enum HitKind;
using enum RuleTest;

constexpr LangMask py = lang_bit(python);
constexpr LangMask js = lang_bit(javascript);
constexpr LangMask code =
    langs({python, javascript, go, java, csharp, ruby, php, rust, shell, powershell});
constexpr LangMask config_langs = langs({dotenv, ini, toml, yaml, json, properties});

// clang-format off
constexpr ScanRule rules[] = {
    // Harmless first: nothing below may turn a comment or an e-mail into a client.
    {"comment", harmless, comment, 0, {}, "", "", "in a comment or a Python docstring",
     python, R"(# OLLAMA = "http://localhost:11434"  (old default))"},
    {"email", harmless, email, 0, {}, "", "", "an e-mail address",
     python, R"(ADMINS = ["admin@localhost"])"},
    {"markdown-prose", harmless, markdown_prose, 0, {}, "", "",
     "a URL for a person to open (Markdown prose)",
     markdown, "Then open http://localhost:9099 in your browser."},
    {"cors", harmless, contains, 0,
     {"allow_origins", "CORS", "cors", "ALLOWED_HOSTS", "allowedHosts", "allowed_hosts",
      "llowedOrigins", "WithOrigins(", "Access-Control-Allow-Origin", "TRUSTED_ORIGINS", "origin"},
     "", "", "a CORS or allowed-host list (compared, never connected to)",
     python, R"(app.add_middleware(CORSMiddleware, allow_origins=["http://localhost:3000"]))"},
    {"host-header", harmless, contains, 0,
     {"headers.host", "headers[\"host\"]", "request.host", ".Host ==", "HTTP_HOST", "req.hostname",
      "getHeader(\"Host\")", " == ", " != ", " === ", "EqualFold(", "equals("},
     "", "", "a Host-header check or another comparison (compared, never connected to)",
     javascript, R"(if (req.headers.host !== "localhost:8080") return res.status(403).end();)"},
    {"linux-only", harmless, linux_only, 0, {}, "", "",
     "a Linux-only context (container or ubuntu CI job): no SYN retries there",
     dockerfile, "HEALTHCHECK CMD curl -f http://localhost:8000/health || exit 1"},
    {"dev-proxy", harmless, dev_proxy, langs({javascript, json}), {}, "", "",
     "a Node dev-server proxy (Node turns SYN retries off on loopback)",
     javascript, R"(proxy: { "/api": "http://localhost:5000" },)"},
    {"test-file", harmless, test_file, 0, {}, "", "",
     "in a test: the servers it reaches are the test's own (or a CI runner's)",
     python, R"(r = requests.get("http://localhost:8000/health"))", "", "tests/test_api.py"},

    // Browser code: its fetch is the browser's (each browser races the
    // addresses itself), not Node's; the server it reaches is for the
    // person at the browser. Values built into a front-end bundle.
    {"browser", client, contains, 0,
     {"NEXT_PUBLIC_", "VITE_", "REACT_APP_", "import.meta.env", "NUXT_PUBLIC_", "EXPO_PUBLIC_"},
     "browser", "a browser (front-end code)",
     "front-end code: the browser connects (its own address racing), not Node.js",
     javascript, R"(const API = process.env.NEXT_PUBLIC_API_URL || "http://localhost:8000";)"},

    // Clients called on the spot.
    // Async clients, each on the row of the code it runs: httpx's
    // AsyncClient (anyio), aiohttp (its version picks the row), asyncio
    // with or without happy_eyeballs_delay.
    {"py-httpx-async", client, contains, py,
     {"AsyncOpenAI(", "AsyncClient(", "AsyncOllama", "acompletion(", "aembedding("},
     "python-httpx-async", "httpx.AsyncClient (AsyncOpenAI, ollama.AsyncClient)",
     "an httpx AsyncClient (anyio: IPv6 first, then Happy Eyeballs 250 ms)",
     python, R"(client = AsyncOpenAI(base_url="http://localhost:11434/v1", api_key="x"))"},
    {"py-aiohttp", client, contains, py, {"ClientSession(", "aiohttp."},
     "python-aiohttp", "aiohttp",
     "an aiohttp call (Happy Eyeballs 250 ms from 3.10; one address at a time before)",
     python, R"(async with aiohttp.ClientSession() as s: await s.get("http://localhost:8000/"))"},
    {"py-asyncio-he", client, contains, py, {"happy_eyeballs_delay"},
     "python-asyncio", "asyncio with happy_eyeballs_delay",
     "an asyncio connect with happy_eyeballs_delay (Happy Eyeballs)",
     python, R"(await asyncio.open_connection("localhost", 8000, happy_eyeballs_delay=0.25))"},
    {"py-asyncio", client, contains, py, {"open_connection(", "loop.create_connection("},
     "python-asyncio-default", "asyncio.open_connection",
     "an asyncio connect without happy_eyeballs_delay (one address at a time)",
     python, R"(reader, writer = await asyncio.open_connection("localhost", 8000))"},
    {"py-model-sdk", client, contains, py,
     {"ChatOllama(", "OllamaLLM(", "Ollama(", "OllamaEmbeddings(", "OllamaEmbedding(",
      "ChatOpenAI(", "OpenAILike(", "completion(", "embedding(", "Client(host="},
     "python", "model SDK (langchain, llama-index, litellm, ollama-python; sync)",
     "a model-server SDK client (sync requests/httpx: one address at a time)",
     python, R"(llm = ChatOllama(model="llama3", base_url="http://localhost:11434"))"},
    {"py-openai", client, contains, py, {"OpenAI(", "openai.base_url", "openai.api_base"},
     "python", "openai-python (httpx, sync)", "an OpenAI SDK client (sync httpx: one address at a time)",
     python, R"(client = OpenAI(base_url="http://localhost:11434/v1", api_key="ollama"))"},
    {"py-requests", client, contains, py,
     {"requests.", "session.get(", "session.post(", "Session()."},
     "python", "requests", "a requests call (urllib3: one address at a time)",
     python, R"(r = requests.post("http://localhost:11434/api/generate", json=body))"},
    {"py-httpx", client, contains, py, {"httpx."}, "python", "httpx (sync)",
     "an httpx call (sync: one address at a time)",
     python, R"(r = httpx.get("http://127.0.0.1:8000/health"))"},
    {"py-urllib", client, contains, py,
     {"urlopen(", "urllib.request", "HTTPConnection(", "create_connection("},
     "python", "urllib / http.client", "a urllib or http.client call (one address at a time)",
     python, R"(urlopen("http://localhost:8000/v1/models"))"},
    {"js-no-autoselect", client, contains, js,
     {"autoSelectFamily: false", "autoSelectFamily:false", "no-network-family-autoselection"},
     "node-no-autoselect", "Node.js net.connect, autoSelectFamily: false",
     "a Node.js connect with autoSelectFamily off (the first address only)",
     javascript, R"(net.connect({ host: "localhost", port: 8000, autoSelectFamily: false });)"},
    {"js-client", client, contains, js,
     {"fetch(", "axios", "new OpenAI(", "new Ollama(", "baseURL", "http.get(", "http.request("},
     "node", "Node.js fetch/axios/openai/ollama-js", "a Node.js client (libuv: no SYN retries on loopback)",
     javascript, R"(const res = await fetch("http://localhost:11434/api/tags");)"},
    {"go-client", client, contains, lang_bit(go),
     {"http.Get(", "http.Post(", "NewRequest", "net.Dial", "DialContext(", "BaseURL"},
     "go", "Go net/http", "a Go client (no SYN retries on loopback, dual-stack race)",
     go, R"(resp, err := http.Get("http://localhost:11434/api/tags"))"},
    {"java-client", client, contains, lang_bit(java),
     {"HttpClient", "URI.create(", "HttpRequest", "new URL(", "RestTemplate", "WebClient", "baseUrl"},
     "java-httpclient", "Java HttpClient", "a Java client (prefers IPv4 by default)",
     java, R"(var req = HttpRequest.newBuilder(URI.create("http://localhost:8080/")).build();)"},
    {"dotnet-client", client, contains, lang_bit(csharp),
     {"HttpClient", "BaseAddress", "new Uri(", "GetAsync(", "PostAsync(", "GetStringAsync("},
     "dotnet", ".NET HttpClient", "a .NET client (one address at a time)",
     csharp, R"(var http = new HttpClient { BaseAddress = new Uri("http://localhost:11434") };)"},
    {"ps-client", client, contains, lang_bit(powershell),
     {"Invoke-WebRequest", "Invoke-RestMethod", "iwr ", "irm ", "WebClient"},
     "dotnet", "Invoke-WebRequest (.NET)", "a PowerShell web cmdlet (.NET: one address at a time)",
     powershell, R"(Invoke-RestMethod -Uri "http://localhost:11434/api/tags")"},
    {"shell-curl", client, contains, langs({shell, powershell}), {"curl "}, "curl", "curl",
     "a curl command (Happy Eyeballs; no SYN retries on loopback from 8.22)",
     shell, R"(curl -s http://localhost:11434/api/tags)"},
    {"shell-wget", client, contains, lang_bit(shell), {"wget "}, "wget", "wget",
     "a wget command (one address at a time)", shell, R"(wget -qO- http://localhost:8080/health)"},
    {"ruby-client", client, contains, lang_bit(ruby), {"Net::HTTP", "Faraday", "HTTParty", "URI("},
     "ruby", "Ruby Net::HTTP",
     "a Ruby client (Happy Eyeballs from 3.4, but not on Windows: one address at a time there)",
     ruby, R"(res = Net::HTTP.get(URI("http://localhost:11434/api/tags")))"},
    // PHP's curl extension and Guzzle (its curl handler where ext-curl is
    // loaded, the default) connect with libcurl; its streams on their own.
    {"php-curl", client, contains, lang_bit(php), {"curl_init(", "Guzzle", "new Client("},
     "curl", "PHP curl (libcurl), Guzzle", "a PHP curl call (libcurl: Happy Eyeballs)",
     php, R"($ch = curl_init("http://localhost:8080/api");)"},
    {"php-client", client, contains, lang_bit(php),
     {"file_get_contents(", "fopen(", "stream_socket_client(", "fsockopen("},
     "php", "PHP streams", "a PHP stream (one address at a time)",
     php, R"($body = file_get_contents("http://localhost:8080/api");)"},

    // Servers: a bind or a server's own host setting.
    {"server-bind", server, contains, code | config_langs,
     {"uvicorn", "app.run(", "flask run", "gunicorn", "runserver", "OLLAMA_HOST", "llama-server",
      ".listen(", "ListenAndServe", "net.Listen(", "ListenAddr", "LISTEN_ADDR"},
     "", "", "a server's bind address",
     python, R"(uvicorn.run(app, host="127.0.0.1", port=8000))"},
    {"server-host", server, bind_value, 0, {}, "", "",
     "a host with no port, assigned or passed to a bind option (a server's own address)",
     python, R"(host = "127.0.0.1")"},

    // URLs for a person, once no client call claimed the line.
    {"for-a-person", harmless, contains, 0,
     {"print(", "Print", "console.", "log(", "logger.", "logging.", "echo ", "Write-Host", "puts ",
      "webbrowser.open(", "open http", "unning on"},
     "", "", "a URL for a person to read or open (printed or logged)",
     python, R"(print("Open http://localhost:7860 in your browser"))"},

    // Documentation: a line that sets an environment variable tells the
    // reader to point a client at the URL (the code that reads the key
    // decides the cost); any other line of a code block is output, a log
    // or a listing, not a connection.
    {"docs-env", config, docs_env, 0, {}, "", "",
     "documentation telling the reader to set a client's URL",
     markdown, "export OPENAI_BASE_URL=http://localhost:11434/v1", "```bash"},
    {"docs-output", harmless, docs_other, 0, {}, "", "",
     "documentation: output, a log line or a listing (no connection made)",
     markdown, "Sending request to http://localhost:11434/api/tags", "```"},

    // Values a client will read.
    {"config-key", config, config_key, config_langs, {}, "", "",
     "a value a client will read",
     dotenv, "OLLAMA_BASE_URL=http://localhost:11434"},
    {"import-context", client, import_context, code, {}, "", "",
     "in a file that uses a client library",
     python, R"(OLLAMA_BASE_URL = os.getenv("OLLAMA_BASE_URL", "http://localhost:11434"))",
     "import requests"},
    {"code-url", config, code_fallback, code | lang_bit(markdown), {}, "", "",
     "a URL in code with no client call found in the file",
     python, R"(DEFAULT_URL = "http://localhost:8080")"},
};

constexpr ImportRule imports[] = {
    {py, "aiohttp", "python-aiohttp", "aiohttp"},
    {py, "requests", "python", "requests"},
    {py, "httpx", "python", "httpx (sync)"},
    {py, "openai", "python", "openai-python (httpx, sync)"},
    {py, "ollama", "python", "ollama-python (httpx, sync)"},
    {py, "litellm", "python", "litellm (sync httpx)"},
    {py, "langchain", "python", "langchain (requests/httpx, sync)"},
    {py, "llama_index", "python", "llama-index (httpx, sync)"},
    {py, "urllib", "python", "urllib"},
    {js, "axios", "node", "axios"},
    {js, "openai", "node", "openai-node (fetch)"},
    {js, "ollama", "node", "ollama-js (fetch)"},
    {js, "node-fetch", "node", "node-fetch"},
    {lang_bit(go), "net/http", "go", "Go net/http"},
    {lang_bit(java), "java.net", "java-httpclient", "Java HttpClient"},
    {lang_bit(java), "okhttp", "java-socket", "OkHttp"},
    {lang_bit(csharp), "System.Net.Http", "dotnet", ".NET HttpClient"},
    {lang_bit(ruby), "net/http", "ruby", "Ruby Net::HTTP"},
    {lang_bit(rust), "reqwest", "rust", "reqwest (hyper)"},
};
// clang-format on

} // namespace

std::span<const ScanRule> scan_rules() noexcept {
    return rules;
}
std::span<const ImportRule> import_rules() noexcept {
    return imports;
}

bool is_config_lang(Lang lang) noexcept {
    return (config_langs & lang_bit(lang)) != 0;
}

} // namespace loopcheck
