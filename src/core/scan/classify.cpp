// `loopcheck scan`'s classifier: one file's lines in order, the context the
// rules need from earlier lines, and each loopback reference run through the
// rules table (scan_rules.cpp) until one matches.
#include "core/scan/classify.hpp"

#include "core/scan/context.hpp"
#include "loopcheck/core/text/text.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

namespace loopcheck {

namespace {

constexpr std::size_t stored_line_cap = 300;
constexpr std::size_t hit_text_cap = 200;
constexpr std::uint32_t statement_lines = 6;

/// At most `cap` bytes, cut back to the start of a UTF-8 sequence.
std::string_view capped(std::string_view s, std::size_t cap) noexcept {
    if (s.size() <= cap)
        return s;
    std::size_t cut = cap;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
        --cut;
    return s.substr(0, cut);
}

bool hash_comments(Lang l) noexcept {
    return l == Lang::python || l == Lang::shell || l == Lang::ruby || l == Lang::yaml ||
           l == Lang::toml || l == Lang::dotenv || l == Lang::ini || l == Lang::properties ||
           l == Lang::dockerfile || l == Lang::compose || l == Lang::powershell || l == Lang::php;
}
bool slash_comments(Lang l) noexcept {
    return l == Lang::javascript || l == Lang::go || l == Lang::java || l == Lang::csharp ||
           l == Lang::rust || l == Lang::php;
}

/// Where a comment starts in `s` (outside quotes), or npos.
std::size_t comment_start(std::string_view s, Lang lang) noexcept {
    const std::string_view t = trim_blanks(s);
    if (lang == Lang::powershell && (t.starts_with("REM ") || t.starts_with("rem ") ||
                                     t.starts_with("::") || t.starts_with("@REM ")))
        return 0; // a batch file's comment
    if ((lang == Lang::ini && t.starts_with(';')) ||
        (lang == Lang::properties && t.starts_with('!')))
        return 0;
    if (slash_comments(lang) && (t.starts_with("/*") || t.starts_with("* ") || t == "*"))
        return 0;
    if (lang == Lang::markdown)
        return s.find("<!--");
    char quote = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (quote) {
            if (c == '\\')
                ++i;
            else if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '"' || c == '\'' || c == '`') {
            quote = c;
        } else if (c == '#' && hash_comments(lang) &&
                   (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) {
            return i;
        } else if (c == '/' && slash_comments(lang) && i + 1 < s.size() && s[i + 1] == '/' &&
                   (i == 0 || s[i - 1] != ':')) {
            return i;
        }
    }
    return std::string_view::npos;
}

bool contains_any(std::string_view text, std::span<const std::string_view> any,
                  std::string_view* which = nullptr) noexcept {
    for (std::string_view n : any)
        if (!n.empty() && text.find(n) != std::string_view::npos) {
            if (which)
                *which = n;
            return true;
        }
    return false;
}

constexpr LangMask code_example_langs = langs({Lang::python, Lang::javascript, Lang::go, Lang::java,
                                               Lang::csharp, Lang::ruby, Lang::php, Lang::rust});

/// C# and Rust `///` doc comments hold usage examples (`<code>`, doctests):
/// a line that constructs or assigns is code the reader copies.
bool doc_comment_example(std::string_view text, Lang lang) noexcept {
    if (lang != Lang::csharp && lang != Lang::rust)
        return false;
    const std::string_view t = trim_blanks(text);
    if (!t.starts_with("///"))
        return false;
    const std::string_view body = t.substr(3);
    return body.find("new ") != std::string_view::npos ||
           body.find(" = ") != std::string_view::npos;
}

/// OLLAMA_HOST binds a server (`OLLAMA_HOST=0.0.0.0 ollama serve`) or names
/// one for a client (`os.getenv("OLLAMA_HOST", "http://localhost:11434")`):
/// a bind when its host is a wildcard or the line starts `ollama serve`.
bool ollama_host_is_bind(const LoopbackRef& ref, std::string_view stmt) noexcept {
    return ref.host == "0.0.0.0" || stmt.find("serve") != std::string_view::npos;
}

} // namespace

bool FileScanner::in_docs() const noexcept {
    return lang_ == Lang::markdown || (lang_ == Lang::notebook && !cell_code_);
}

FileScanner::FileScanner(std::string_view path, Lang lang, std::size_t root_length)
    : path_(path), lang_(lang) {
    workflow_ = path.find(".github/workflows/") != std::string_view::npos;
    dev_server_config_ = is_dev_server_config(path);
    test_file_ = is_test_file(path.substr(std::min(root_length, path.size())));
}

void FileScanner::start_cell(std::uint32_t index, bool code) {
    cell_ = index;
    cell_code_ = code;
    line_no_ = 0;
    open_.clear();
    in_fence_ = false;
    in_block_comment_ = false;
    in_docstring_ = false;
}

Lang FileScanner::effective_lang() const noexcept {
    if (lang_ == Lang::notebook)
        return cell_code_ ? Lang::python : (in_fence_ ? fence_lang_ : Lang::markdown);
    if (lang_ == Lang::markdown && in_fence_)
        return fence_lang_;
    return lang_;
}

void FileScanner::track_imports(std::string_view text) {
    if (!import_client_.empty())
        return;
    const std::string_view t = trim_blanks(text);
    if (!(t.starts_with("import") || t.starts_with("from ") || t.starts_with("using ") ||
          t.starts_with("use ") || t.starts_with("require") || t.starts_with('"') ||
          t.find("require(") != std::string_view::npos))
        return;
    const LangMask bit = lang_bit(effective_lang());
    for (const ImportRule& r : import_rules())
        if ((r.langs & bit) && t.find(r.text) != std::string_view::npos) {
            import_client_ = r.client;
            import_label_ = r.label;
            import_package_ = r.text;
            return;
        }
}

void FileScanner::track_context(std::string_view text) {
    if (workflow_ && text.find("runs-on:") != std::string_view::npos)
        ubuntu_runner_ = text.find("ubuntu") != std::string_view::npos;
    const Lang lang = effective_lang();
    if (lang == Lang::python) {
        std::size_t quotes = 0;
        for (std::string_view q : {"\"\"\"", "'''"})
            for (std::size_t i = text.find(q); i != std::string_view::npos; i = text.find(q, i + 3))
                ++quotes;
        if (quotes % 2 == 1)
            in_docstring_ = !in_docstring_;
    }
    if (slash_comments(lang))
        track_block_comments(text);
}

void FileScanner::track_block_comments(std::string_view text) {
    // Quote-aware, so "*/*" or "/api/*" in a string opens nothing.
    char quote = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        if (in_block_comment_) {
            if (c == '*' && next == '/') {
                in_block_comment_ = false;
                ++i;
            }
        } else if (quote) {
            if (c == '\\')
                ++i;
            else if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'' || c == '`') {
            quote = c;
        } else if (c == '/' && next == '/') {
            return; // the rest is a line comment
        } else if (c == '/' && next == '*') {
            in_block_comment_ = true;
            ++i;
        }
    }
}

void FileScanner::track_brackets(std::string_view text) {
    const Lang lang = effective_lang();
    if (is_config_lang(lang) || lang == Lang::markdown || text.size() > scan_line_cap)
        return;
    const std::size_t end = std::min(text.size(), comment_start(text, lang));
    char quote = 0;
    for (std::size_t i = 0; i < end; ++i) {
        const char c = text[i];
        if (quote) {
            if (c == '\\')
                ++i;
            else if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'' || c == '`') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            open_.push_back({c, line_no_});
        } else if ((c == ')' || c == ']' || c == '}') && !open_.empty()) {
            open_.pop_back();
        }
    }
    if (open_.size() > 64)
        open_.clear(); // lost track (an unbalanced file): start afresh
}

std::string FileScanner::statement(std::string_view text) const {
    auto it = std::find_if(open_.rbegin(), open_.rend(),
                           [](const Open& o) { return o.bracket == '(' || o.bracket == '['; });
    std::string out;
    if (it != open_.rend() && it->line < line_no_ && line_no_ - it->line <= statement_lines) {
        for (std::uint32_t n = it->line; n < line_no_; ++n) {
            out += recent_[n % recent_.size()];
            out += '\n';
        }
    }
    out += text;
    return out;
}

void FileScanner::line(std::string_view text, std::vector<ScanHit>& out) {
    if (!text.empty() && text.back() == '\r')
        text.remove_suffix(1);
    ++line_no_;
    const Lang lang = lang_ == Lang::notebook && cell_code_ ? Lang::python : lang_;
    if ((lang == Lang::markdown || (lang_ == Lang::notebook && !cell_code_)) &&
        (trim_blanks(text).starts_with("```") || trim_blanks(text).starts_with("~~~"))) {
        in_fence_ = !in_fence_;
        fence_lang_ = in_fence_ ? fence_language(trim_blanks(text).substr(3)) : Lang::other;
        open_.clear();
        return;
    }
    block_at_start_ = in_block_comment_;
    docstring_at_start_ = in_docstring_;
    track_context(text);
    if (may_mention_loopback(text)) {
        const bool long_line = text.size() > scan_line_cap;
        long_lines_ += long_line ? 1 : 0;
        const std::string stmt = long_line ? std::string() : statement(text);
        for (LoopbackRef& ref : find_loopback_refs(text)) {
            std::string_view view = text, s = stmt;
            const std::size_t from = ref.col > 200 && long_line ? ref.col - 200 : 0;
            if (long_line) {
                view = text.substr(from, 400 + ref.length);
                s = view;
            }
            ScanHit hit;
            hit.path = std::string(path_);
            hit.line = line_no_;
            hit.col = static_cast<std::uint32_t>(ref.col + 1);
            hit.cell = cell_;
            hit.lang = effective_lang();
            hit.text = std::string(capped(trim_blanks(view), hit_text_cap));
            ref.col -= from;
            hit.ref = ref;
            classify(hit, view, s);
            hit.ref.col += from;
            out.push_back(std::move(hit));
        }
    }
    track_binds(text, out);
    track_imports(text);
    track_brackets(text);
    track_env_reads(text);
    recent_[line_no_ % recent_.size()] = std::string(capped(text, stored_line_cap));
}

void FileScanner::track_binds(std::string_view text, std::vector<ScanHit>& out) {
    constexpr std::size_t max_names = 256;
    const Lang lang = effective_lang();
    if (!watch_binds_ || in_docs() || text.size() > scan_line_cap ||
        (lang != Lang::python && lang != Lang::javascript && lang != Lang::go))
        return;
    if (text.find('=') != std::string_view::npos && port_names_.size() < max_names) {
        if (auto [name, port] = port_assignment(text); !name.empty())
            port_names_.emplace_back(std::move(name), port);
    }
    if (test_file_ || !may_bind_server(text, lang) ||
        (lang == Lang::python && docstring_at_start_) || block_at_start_)
        return;
    const auto bind = implicit_bind(text, lang);
    if (!bind || bind->col >= comment_start(text, lang))
        return;
    std::uint16_t port = 0;
    if (!bind->port_text.empty() && bind->port_text[0] >= '0' && bind->port_text[0] <= '9') {
        unsigned v = 0;
        for (char c : bind->port_text)
            v = c >= '0' && c <= '9' && v < 65536 ? v * 10 + static_cast<unsigned>(c - '0') : 65536;
        port = v > 0 && v < 65536 ? static_cast<std::uint16_t>(v) : 0;
    } else {
        // The last assignment of that name before this line.
        for (auto it = port_names_.rbegin(); it != port_names_.rend(); ++it)
            if (it->first == bind->port_text) {
                port = it->second;
                break;
            }
    }
    if (port == 0)
        return; // a port we cannot read joins nothing
    ScanHit hit;
    hit.path = std::string(path_);
    hit.line = line_no_;
    hit.col = static_cast<std::uint32_t>(bind->col + 1);
    hit.cell = cell_;
    hit.lang = lang;
    hit.text = std::string(capped(trim_blanks(text), hit_text_cap));
    hit.ref.host = std::string(bind->host);
    hit.ref.port = port;
    hit.ref.col = bind->col;
    hit.kind = HitKind::server;
    hit.rule = "server-call";
    hit.reason = "a server's bind with no address written (the framework's default address)";
    hit.server = std::string(bind->server);
    out.push_back(std::move(hit));
}

void FileScanner::track_env_reads(std::string_view text) {
    constexpr std::size_t max_keys = 10'000; // a bound on memory, whatever the tree
    const Lang lang = effective_lang();
    if (!env_reads_ || is_config_lang(lang) || lang == Lang::markdown || lang == Lang::dockerfile ||
        lang == Lang::compose || text.size() > scan_line_cap || !may_read_env(text))
        return;
    for (std::string& key : env_keys_read(text)) {
        if (env_reads_->size() >= max_keys)
            return;
        const bool seen = std::any_of(env_reads_->begin(), env_reads_->end(),
                                      [&](const EnvRead& r) { return r.key == key; });
        if (seen)
            continue;
        EnvRead read;
        read.key = std::move(key);
        read.path = std::string(path_);
        read.line = line_no_;
        read.lang = lang;
        read.client = std::string(import_client_);
        read.client_label = std::string(import_label_);
        env_reads_->push_back(std::move(read));
    }
}

bool FileScanner::matches(const ScanRule& rule, const LoopbackRef& ref, std::string_view text,
                          std::string_view stmt, ScanHit& hit) const {
    const Lang lang = hit.lang;
    switch (rule.test) {
    case RuleTest::comment:
        if (lang == Lang::python && docstring_at_start_)
            return true; // a docstring: documentation and doctests
        if (doc_comment_example(text, lang))
            return false; // a usage example the reader copies: read as code
        if (block_at_start_) {
            const std::size_t close = text.find("*/");
            if (close == std::string_view::npos || ref.col < close)
                return true;
        }
        return ref.col >= comment_start(text, lang);
    case RuleTest::email:
        return ref.email;
    case RuleTest::markdown_prose:
        return lang == Lang::markdown;
    case RuleTest::linux_only:
        return lang == Lang::dockerfile || lang == Lang::compose || (workflow_ && ubuntu_runner_);
    case RuleTest::dev_proxy:
        return dev_server_config_ || stmt.find("proxy") != std::string_view::npos ||
               stmt.find("Proxy") != std::string_view::npos;
    case RuleTest::test_file:
        return test_file_;
    case RuleTest::contains: {
        std::string_view which;
        if (!contains_any(stmt, rule.any, &which))
            return false;
        if (rule.kind == HitKind::server && which == "OLLAMA_HOST" &&
            !ollama_host_is_bind(ref, stmt)) {
            // OLLAMA_HOST is also the ollama libraries' URL: read the way
            // it is used, a bind only with a wildcard or `ollama serve`.
            const std::array<std::string_view, 12> others = [&] {
                auto a = rule.any;
                for (auto& n : a)
                    if (n == "OLLAMA_HOST")
                        n = {};
                return a;
            }();
            if (!contains_any(stmt, others, &which))
                return false;
        }
        if (rule.kind == HitKind::server)
            hit.server = server_named_by(which);
        else if (rule.kind == HitKind::client)
            hit.package = package_for(rule.id, which);
        return true;
    }
    case RuleTest::bind_value:
        // A parameter's default (`def connect(host: str = "localhost")`)
        // is where a client connects, not a bind.
        if (stmt.find("def ") != std::string_view::npos ||
            stmt.find("function ") != std::string_view::npos ||
            stmt.find("func ") != std::string_view::npos)
            return false;
        return !ref.url && ref.port == 0;
    case RuleTest::config_key:
        hit.config_key = config_key_of(text, ref.col);
        return !hit.config_key.empty();
    case RuleTest::import_context:
        if (import_client_.empty())
            return false;
        hit.client = import_client_;
        hit.client_label = import_label_;
        hit.package = import_package_;
        return true;
    case RuleTest::code_fallback:
        return true;
    case RuleTest::docs_env:
        // A shell or an env block; a constant in a code example is code.
        if (!in_docs() || (lang != Lang::shell && lang != Lang::powershell &&
                           lang != Lang::dotenv && lang != Lang::markdown))
            return false;
        hit.config_key = env_assignment_key(text, ref.col);
        return !hit.config_key.empty();
    case RuleTest::docs_other:
        // A code example (Python, C#, ...) is what the reader copies: the
        // code rules read it. Shell, config and text blocks are output,
        // logs and listings unless a rule above saw a client or a key.
        return in_docs() && !(code_example_langs & lang_bit(lang));
    }
    return false;
}

void FileScanner::classify(ScanHit& hit, std::string_view text, std::string_view stmt) const {
    const LangMask bit = lang_bit(hit.lang);
    for (const ScanRule& rule : scan_rules()) {
        if (rule.langs != 0 && (rule.langs & bit) == 0)
            continue;
        if (!matches(rule, hit.ref, text, stmt, hit))
            continue;
        hit.kind = rule.kind;
        hit.rule = rule.id;
        hit.reason = rule.reason;
        if (!rule.client.empty()) {
            hit.client = rule.client;
            hit.client_label = rule.label;
        }
        if (hit.kind == HitKind::server && hit.ref.port == 0)
            hit.ref.port = port_near(stmt);
        if (hit.kind == HitKind::config && hit.config_key.empty())
            hit.config_key = env_assignment_key(text, hit.ref.col);
        if (hit.kind == HitKind::config && hit.config_key.empty())
            hit.config_key = config_key_of(text, hit.ref.col);
        // A value built into a front-end bundle is read by a browser.
        if (hit.kind == HitKind::config && is_browser_key(hit.config_key)) {
            hit.kind = HitKind::client;
            hit.client = "browser";
            hit.client_label = "a browser (front-end code)";
            hit.reason = "a front-end build value: the browser connects, not Node.js";
        }
        return;
    }
    hit.kind = HitKind::harmless;
    hit.rule = "unclassified";
    hit.reason = "not code or configuration scan reads";
}

std::vector<ScanHit> classify_text(std::string_view path, Lang lang, std::string_view text) {
    FileScanner scanner(path, lang);
    std::vector<ScanHit> out;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        scanner.line(text.substr(0, nl), out);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    }
    return out;
}

} // namespace loopcheck
