// libFuzzer: scan's classifier and cost join on anyone's source text. The
// first byte picks the file's language, the rest is the file: every hit must
// sit inside its line, carry a rule, and survive the cost join, the ranking
// and the summary without a crash; the context readers (env keys, port
// assignments, implicit binds) must stay inside the line they read.
#include "core/scan/classify.hpp"
#include "core/scan/context.hpp"
#include "loopcheck/core/scan/cost.hpp"
#include "report/json/writer.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

constexpr const char* paths[] = {"a.py",       "a.ts",        "main.go",    "A.java",
                                 "A.cs",       "a.rb",        "a.php",      "a.rs",
                                 "a.sh",       "a.ps1",       ".env",       "a.ini",
                                 "a.toml",     "a.yaml",      "a.json",     "a.properties",
                                 "Dockerfile", "compose.yml", "README.md",  "tests/test_a.py",
                                 "Makefile",   "start.bat",   "docs/a.mdx", "vite.config.ts"};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    const std::string_view path = paths[data[0] % std::size(paths)];
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    loopcheck::ScanResult r;
    r.hits = loopcheck::classify_text(path, loopcheck::language_of(path), text);
    for (const auto& h : r.hits) {
        if (h.rule.empty() || h.line == 0 || h.col == 0)
            __builtin_trap(); // every hit has a rule and a place
        loopcheck::JsonWriter w;
        for (unsigned char c : w.value(h.text).str())
            if (c < 0x20 && c != '\n')
                __builtin_trap(); // a raw control byte in JSON text
    }
    // Line by line: the readers the rules use stay inside the line.
    for (std::string_view rest = text; !rest.empty();) {
        const std::size_t nl = rest.find('\n');
        const std::string_view line = rest.substr(0, nl);
        rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
        for (const auto& ref : loopcheck::find_loopback_refs(line)) {
            if (ref.col + ref.length > line.size())
                __builtin_trap();
            (void)loopcheck::env_assignment_key(line, ref.col);
            (void)loopcheck::config_key_of(line, ref.col);
        }
        (void)loopcheck::port_assignment(line);
        for (auto lang :
             {loopcheck::Lang::python, loopcheck::Lang::javascript, loopcheck::Lang::go})
            if (const auto b = loopcheck::implicit_bind(line, lang); b && b->col >= line.size())
                __builtin_trap();
    }
    // The cost join as `scan --no-probe` runs it.
    r.files_read = 1;
    r.endpoints = loopcheck::scan_endpoints(r.hits);
    loopcheck::infer_servers(r.endpoints, r.hits);
    loopcheck::conclude_scan(r);
    (void)loopcheck::scan_summary(r);
    return 0;
}
