// `loopcheck scan`'s classifier's small readers of context: the server a
// bind names, a port near a bind, a config line's key, test and dev-server
// files by name, a Markdown fence's language.
#include "core/scan_context.hpp"
#include "loopcheck/core/text.hpp"

#include <string>

namespace loopcheck {

namespace {

constexpr std::string_view env_needles[] = {"getenv(",
                                            "environ.get(",
                                            "environ[",
                                            "process.env.",
                                            "process.env[",
                                            "Getenv(",
                                            "GetEnvironmentVariable(",
                                            "env::var(",
                                            "ENV[",
                                            "ENV.fetch("};

bool key_char(char c) noexcept {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

} // namespace

std::string_view package_for(std::string_view rule, std::string_view needle) noexcept {
    if (rule == "py-requests")
        return "requests";
    if (rule == "py-httpx" || needle == "AsyncClient(")
        return "httpx";
    if (rule == "py-openai" || needle == "AsyncOpenAI(" || needle == "new OpenAI(")
        return "openai";
    if (needle == "aiohttp." || needle == "ClientSession(")
        return "aiohttp";
    if (needle == "ChatOllama(" || needle == "OllamaLLM(" || needle == "OllamaEmbeddings(")
        return "langchain-ollama";
    if (needle == "axios")
        return "axios";
    if (needle == "new Ollama(" || needle == "AsyncOllama" || needle == "Client(host=")
        return "ollama";
    if (needle == "completion(" || needle == "acompletion(" || needle == "embedding(")
        return "litellm";
    return {};
}

bool may_read_env(std::string_view text) noexcept {
    return text.find("env") != std::string_view::npos ||
           text.find("ENV") != std::string_view::npos || text.find("Env") != std::string_view::npos;
}

std::vector<std::string> env_keys_read(std::string_view line) {
    std::vector<std::string> keys;
    for (std::string_view needle : env_needles) {
        for (std::size_t i = line.find(needle); i != std::string_view::npos;
             i = line.find(needle, i + 1)) {
            std::size_t p = i + needle.size();
            while (p < line.size() &&
                   (line[p] == ' ' || line[p] == '"' || line[p] == '\'' || line[p] == '`'))
                ++p;
            const std::size_t start = p;
            while (p < line.size() && key_char(line[p]))
                ++p;
            if (p - start >= 2)
                keys.emplace_back(line.substr(start, p - start));
        }
    }
    return keys;
}

std::string_view server_named_by(std::string_view needle) noexcept {
    if (needle == "uvicorn")
        return "uvicorn";
    if (needle == "app.run(" || needle == "flask run")
        return "flask";
    if (needle == "gunicorn")
        return "gunicorn";
    if (needle == "runserver")
        return "django";
    if (needle == "OLLAMA_HOST")
        return "ollama";
    if (needle == "llama-server")
        return "llama-server";
    if (needle == ".listen(")
        return "node";
    if (needle == "ListenAddr" || needle == "LISTEN_ADDR")
        return "listener";
    return "go";
}

/// A port written near a bind: port=8000, --port 8000, "port": 8000, PORT=8000.
std::uint16_t port_near(std::string_view stmt) noexcept {
    for (std::string_view key : {"port", "PORT"}) {
        for (std::size_t i = stmt.find(key); i != std::string_view::npos;
             i = stmt.find(key, i + 1)) {
            std::size_t p = i + key.size();
            while (p < stmt.size() && (stmt[p] == ' ' || stmt[p] == '=' || stmt[p] == ':' ||
                                       stmt[p] == '"' || stmt[p] == '\''))
                ++p;
            unsigned v = 0;
            std::size_t digits = 0;
            while (p < stmt.size() && stmt[p] >= '0' && stmt[p] <= '9' && digits < 6) {
                v = v * 10 + static_cast<unsigned>(stmt[p] - '0');
                ++p;
                ++digits;
            }
            if (digits > 0 && v > 0 && v <= 65535)
                return static_cast<std::uint16_t>(v);
        }
    }
    return 0;
}

/// The key of a `key = value` / `key: value` / `"key": value` line, when it
/// is a plain name; empty otherwise.
std::string config_key_of(std::string_view text, std::size_t ref_col) {
    std::string_view left = text.substr(0, ref_col);
    const std::size_t sep = left.find_first_of("=:");
    if (sep == std::string_view::npos)
        return {};
    std::string_view key = trim_blanks(left.substr(0, sep));
    if (key.starts_with("export "))
        key = trim_blanks(key.substr(7));
    while (!key.empty() &&
           (key.front() == '"' || key.front() == '\'' || key.front() == '-' || key.front() == ' '))
        key.remove_prefix(1);
    while (!key.empty() && (key.back() == '"' || key.back() == '\''))
        key.remove_suffix(1);
    if (key.empty() || key.size() > 64)
        return {};
    for (char c : key)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-'))
            return {};
    return std::string(key);
}

bool is_dev_server_config(std::string_view path) noexcept {
    const std::size_t slash = path.find_last_of('/');
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    for (std::string_view n : {"vite.config.", "webpack.config.", "setupProxy.", "next.config.",
                               "vue.config.", "proxy.conf.", "nuxt.config.", "svelte.config."})
        if (name.starts_with(n))
            return true;
    return false;
}

bool is_test_file(std::string_view path) noexcept {
    std::string p(1, '/');
    p += path;
    for (std::string_view dir :
         {"/test/", "/tests/", "/testdata/", "/__tests__/", "/spec/", "/testing/"})
        if (p.find(dir) != std::string::npos)
            return true;
    const std::string_view name = std::string_view(p).substr(p.find_last_of('/') + 1);
    if (name.starts_with("test_") || name == "conftest.py")
        return true;
    for (std::string_view end : {"_test.go", "_test.py", ".test.ts", ".test.js", ".spec.ts",
                                 ".spec.js", "Test.java", "Tests.cs", "_spec.rb"})
        if (name.ends_with(end))
            return true;
    return false;
}

Lang fence_language(std::string_view info) noexcept {
    info = trim_blanks(info);
    const std::size_t space = info.find_first_of(" {,");
    info = info.substr(0, space);
    struct Name {
        std::string_view name;
        Lang lang;
    };
    static constexpr Name names[] = {
        {"python", Lang::python},
        {"py", Lang::python},
        {"python3", Lang::python},
        {"js", Lang::javascript},
        {"javascript", Lang::javascript},
        {"mjs", Lang::javascript},
        {"cjs", Lang::javascript},
        {"ts", Lang::javascript},
        {"typescript", Lang::javascript},
        {"jsx", Lang::javascript},
        {"tsx", Lang::javascript},
        {"go", Lang::go},
        {"java", Lang::java},
        {"kotlin", Lang::java},
        {"csharp", Lang::csharp},
        {"cs", Lang::csharp},
        {"c#", Lang::csharp},
        {"ruby", Lang::ruby},
        {"php", Lang::php},
        {"rust", Lang::rust},
        {"powershell", Lang::powershell},
        {"ps1", Lang::powershell},
        {"pwsh", Lang::powershell},
        {"yaml", Lang::yaml},
        {"yml", Lang::yaml},
        {"toml", Lang::toml},
        {"json", Lang::json},
        {"ini", Lang::ini},
        {"env", Lang::dotenv},
        {"dotenv", Lang::dotenv},
        {"dockerfile", Lang::dockerfile},
        {"docker", Lang::dockerfile},
    };
    for (const auto& n : names)
        if (info == n.name)
            return n.lang;
    // sh, bash, shell, console, text and a bare fence: most such blocks in
    // a README are commands to paste into a shell.
    return Lang::shell;
}

} // namespace loopcheck
