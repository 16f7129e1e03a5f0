// `loopcheck scan`'s classifier's small readers of context: the server a
// bind names, a port near a bind, a config line's key, test and dev-server
// files by name, a Markdown fence's language.
#include "core/scan/context.hpp"

#include "loopcheck/core/text/text.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>

namespace loopcheck {

namespace {

constexpr std::string_view env_needles[] = {
    "getenv(", "environ.get(", "environ[", "process.env.", "process.env[", "Getenv(",
    "GetEnvironmentVariable(", "env::var(", "ENV[", "ENV.fetch(",
    // settings helpers: gear.GetEnvString("KEY"), getEnv("KEY")
    "GetEnvString(", "GetEnv(", "getEnv("};

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

std::string env_assignment_key(std::string_view text, std::size_t ref_col) {
    std::string_view left = text.substr(0, std::min(ref_col, text.size()));
    // The assignment closest to the value: `A=1 B=http://...` gives B.
    const std::size_t eq = left.find_last_of('=');
    if (eq == std::string_view::npos)
        return {};
    std::string_view before = left.substr(0, eq);
    while (!before.empty() && before.back() == ' ')
        before.remove_suffix(1);
    std::size_t start = before.size();
    while (start > 0 && key_char(before[start - 1]))
        --start;
    const std::string_view key = before.substr(start);
    const std::string_view rest = trim_blanks(left.substr(eq + 1));
    // Only quotes may stand between '=' and the value.
    for (char c : rest)
        if (c != '"' && c != '\'' && c != ' ')
            return {};
    const std::string_view lead = trim_blanks(before.substr(0, start));
    // A shell assignment has no blank around '=' (`KEY = value` is a
    // listing); PowerShell's `$env:KEY = "value"` has them.
    const bool blank =
        eq > 0 && (text[eq - 1] == ' ' || (eq + 1 < text.size() && text[eq + 1] == ' '));
    if (blank && !lead.ends_with("$env:"))
        return {};
    const std::size_t space = lead.find_last_of(' ');
    const std::string_view last = space == std::string_view::npos ? lead : lead.substr(space + 1);
    const bool env_form = lead.empty() || last == "export" || last == "set" || last == "setx" ||
                          last == "ENV" || lead.ends_with("$env:") ||
                          last.find('=') != std::string_view::npos; // A=1 B=http://...
    if (!env_form || key.size() < 2 || !(key[0] >= 'A' && key[0] <= 'Z'))
        return {};
    for (char c : key)
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return {};
    return std::string(key);
}

namespace {

/// Digits at the start of `s` as a port; 0 when none or out of range.
std::uint16_t leading_port(std::string_view s) noexcept {
    unsigned v = 0;
    std::size_t n = 0;
    while (n < s.size() && n < 6 && s[n] >= '0' && s[n] <= '9')
        v = v * 10 + static_cast<unsigned>(s[n++] - '0');
    return n >= 2 && n <= 5 && v <= 65535 ? static_cast<std::uint16_t>(v) : 0;
}

/// The first argument-like token of `s`: digits or a name ("PORT", "port").
std::string token_at(std::string_view s) {
    s = trim_blanks(s);
    std::size_t n = 0;
    while (n < s.size() && (key_char(s[n]) || s[n] == '.'))
        ++n;
    return std::string(s.substr(0, n));
}

/// `key=` in `s` (a keyword argument), its value's token; empty when absent.
std::string keyword_value(std::string_view s, std::string_view key) {
    const std::size_t k = s.find(key);
    return k == std::string_view::npos ? std::string() : token_at(s.substr(k + key.size()));
}

} // namespace

bool may_bind_server(std::string_view text, Lang lang) noexcept {
    // Only the calls implicit_bind reads in that language.
    switch (lang) {
    case Lang::python:
        return text.find("Server((") != std::string_view::npos ||
               text.find(".run(") != std::string_view::npos;
    case Lang::javascript:
        return text.find(".listen(") != std::string_view::npos;
    case Lang::go:
        return text.find("ListenAndServe(") != std::string_view::npos;
    default:
        return false;
    }
}

std::optional<ImplicitBind> implicit_bind(std::string_view text, Lang lang) {
    ImplicitBind b;
    if (lang == Lang::python) {
        if (const std::size_t i = text.find("Server(("); i != std::string_view::npos) {
            const std::string_view args = trim_blanks(text.substr(i + 8));
            if (!(args.starts_with("\"\"") || args.starts_with("''")))
                return std::nullopt;
            const std::size_t comma = args.find(',');
            if (comma == std::string_view::npos)
                return std::nullopt;
            b.server = "socketserver";
            b.host = "0.0.0.0"; // "" is INADDR_ANY: IPv4 only (AF_INET)
            b.port_text = token_at(args.substr(comma + 1));
            b.col = i;
            return b;
        }
        for (auto [call, server, port] :
             {std::tuple{std::string_view("uvicorn.run("), std::string_view("uvicorn"), "8000"},
              std::tuple{std::string_view("app.run("), std::string_view("flask"), "5000"}}) {
            const std::size_t i = text.find(call);
            if (i == std::string_view::npos || text.find("host", i) != std::string_view::npos)
                continue;
            b.server = server;
            b.host = "127.0.0.1";
            b.port_text = keyword_value(text.substr(i), "port=");
            if (b.port_text.empty())
                b.port_text = port;
            b.col = i;
            return b;
        }
        return std::nullopt;
    }
    if (lang == Lang::javascript) {
        const std::size_t i = text.find(".listen(");
        if (i == std::string_view::npos)
            return std::nullopt;
        const std::string_view args = text.substr(i + 8);
        b.port_text = token_at(args);
        if (b.port_text.empty())
            return std::nullopt;
        // A host argument after the port ("localhost", '127.0.0.1', a name) binds that.
        const std::string_view after =
            trim_blanks(args.substr(args.find(b.port_text) + b.port_text.size()));
        if (after.starts_with(',')) {
            const std::string_view next = trim_blanks(after.substr(1));
            if (next.starts_with('"') || next.starts_with('\'') || next.starts_with('`') ||
                (!next.empty() && key_char(next[0]) && !next.starts_with("function") &&
                 !next.starts_with("async") && next.find("=>") == std::string_view::npos))
                return std::nullopt;
        }
        b.server = "node";
        b.host = "::"; // Node listens on :: (both families) when no host is given
        b.col = i;
        return b;
    }
    if (lang == Lang::go) {
        const std::size_t i = text.find("ListenAndServe(\":");
        if (i == std::string_view::npos)
            return std::nullopt;
        b.server = "go";
        b.host = "::"; // ":8080": every address, both families
        b.port_text = token_at(text.substr(i + 17));
        b.col = i;
        return b;
    }
    return std::nullopt;
}

std::pair<std::string, std::uint16_t> port_assignment(std::string_view text) {
    for (std::size_t eq = text.find('='); eq != std::string_view::npos;
         eq = text.find('=', eq + 1)) {
        const char before = eq > 0 ? text[eq - 1] : ' ';
        const char after = eq + 1 < text.size() ? text[eq + 1] : ' ';
        if (after == '=' || before == '=' || before == '!' || before == '<' || before == '>')
            continue;
        std::size_t end = eq;
        while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == ':'))
            --end; // `port: int = 8000` is rare; `PORT := 8080` in Go
        std::size_t start = end;
        while (start > 0 && key_char(text[start - 1]))
            --start;
        if (start == end)
            continue;
        // The value: digits, or the default of an env read on the same line.
        std::string_view rhs = text.substr(eq + 1, 100);
        const std::size_t stop = rhs.find_first_of(";\n");
        rhs = rhs.substr(0, stop);
        for (std::size_t p = 0; p < rhs.size(); ++p) {
            if (rhs[p] < '0' || rhs[p] > '9' ||
                (p > 0 && (key_char(rhs[p - 1]) || rhs[p - 1] == '.')))
                continue;
            if (const std::uint16_t port = leading_port(rhs.substr(p)))
                return {std::string(text.substr(start, end - start)), port};
            break;
        }
    }
    return {};
}

bool is_browser_key(std::string_view key) noexcept {
    for (std::string_view p :
         {"NEXT_PUBLIC_", "VITE_", "REACT_APP_", "NUXT_PUBLIC_", "EXPO_PUBLIC_"})
        if (key.starts_with(p))
            return true;
    return false;
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
    // Integration and functional tests talk to the servers installed on
    // the developer's machine (a real Ollama), not ones they start: their
    // connects are the developer's cost on Windows.
    std::string lower = p;
    for (char& c : lower)
        c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (lower.find("integration") != std::string::npos ||
        lower.find("functional") != std::string::npos)
        return false;
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
        {"golang", Lang::go},
        // Output, logs and plain text: prose for the rules.
        {"text", Lang::markdown},
        {"txt", Lang::markdown},
        {"console", Lang::markdown},
        {"output", Lang::markdown},
        {"log", Lang::markdown},
        {"plaintext", Lang::markdown},
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
