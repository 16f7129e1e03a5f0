// `loopcheck scan`'s classification rules as one table (src/core/scan/rules.cpp):
// each rule's test, its class, its reason and an example line that docs/scan.md
// shows and a unit test classifies. The first rule that matches a hit wins.
#pragma once

#include "loopcheck/core/scan/scan.hpp"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

namespace loopcheck {

/// How a rule decides (scan_classify.cpp implements each test).
enum class RuleTest : std::uint8_t {
    comment,        ///< the reference sits in a comment
    email,          ///< user@localhost
    markdown_prose, ///< Markdown outside a code fence, a notebook's Markdown cell
    linux_only,     ///< a Dockerfile, a compose file, a CI job on an ubuntu runner
    dev_proxy,      ///< a Node dev-server's config, or a "proxy" setting in JS/JSON
    test_file,      ///< a test: under test/, tests/, testdata/, __tests__/, or named as one
    contains,       ///< the statement holds one of `any`
    bind_value,     ///< a host with no port, assigned or passed to a bind option
    config_key,     ///< a key = value line of a config file
    import_context, ///< code in a file that imports a client library
    code_fallback,  ///< code with no client call found
    docs_env,       ///< documentation: a line that sets an environment variable (KEY=URL)
    docs_other,     ///< documentation: any other line of a code block (output, logs, listings)
};

using LangMask = std::uint32_t;

constexpr LangMask lang_bit(Lang l) noexcept {
    return LangMask{1} << static_cast<unsigned>(l);
}
constexpr LangMask langs(std::initializer_list<Lang> list) noexcept {
    LangMask m = 0;
    for (Lang l : list)
        m |= lang_bit(l);
    return m;
}

struct ScanRule {
    std::string_view id;
    HitKind kind;
    RuleTest test;
    LangMask langs;                       ///< 0: every language
    std::array<std::string_view, 12> any; ///< RuleTest::contains: any of these in the statement
    std::string_view client;              ///< client-table row id (client rules)
    std::string_view label;               ///< the library or server as people name it
    std::string_view reason;
    Lang example_lang;
    std::string_view example; ///< a line this rule classifies (with example_context before it)
    std::string_view example_context = {};
    std::string_view example_path = "example"; ///< the file the example is read from
};

/// Every rule, in the order they are tried.
std::span<const ScanRule> scan_rules() noexcept;

/// A client library a file imports: the row its calls map to.
struct ImportRule {
    LangMask langs;
    std::string_view text; ///< found in an import line
    std::string_view client;
    std::string_view label;
};
std::span<const ImportRule> import_rules() noexcept;

/// True when `lang` is a config format (.env, INI, TOML, YAML, JSON, properties).
bool is_config_lang(Lang lang) noexcept;

} // namespace loopcheck
