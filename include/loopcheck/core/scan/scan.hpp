// `loopcheck scan`'s values: the languages it reads, the loopback references
// it finds in a line, each hit's class and the scan's whole result. Pure.
#pragma once

#include "loopcheck/core/text/untrusted.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

/// The kinds of file scan reads; `other` is not read at all.
enum class Lang : std::uint8_t {
    python,
    javascript,
    go,
    java,
    csharp,
    ruby,
    php,
    rust,
    shell,
    powershell,
    dotenv,
    ini,
    toml,
    yaml,
    json,
    properties,
    dockerfile,
    compose,
    markdown,
    notebook,
    other,
};

/// The language of a file from its name (extension, or the whole name for
/// Dockerfile, .env and compose files).
Lang language_of(std::string_view path) noexcept;

/// A short lower-case name ("python", "compose") for reports and tests.
std::string_view lang_name(Lang lang) noexcept;

/// A mention of a loopback host in a line: a URL, a host:port pair or a
/// quoted host literal.
struct LoopbackRef {
    std::size_t col = 0;    ///< 0-based byte offset where the host (or URL) starts
    std::size_t length = 0; ///< bytes the reference takes
    std::string host; ///< normalised: localhost, 127.x.y.z, ::1, 0.0.0.0, host.docker.internal
    std::uint16_t port = 0;        ///< 0 when the text names none
    bool port_from_scheme = false; ///< http:// -> 80, https:// -> 443
    bool url = false;              ///< written as scheme://host
    bool email = false;            ///< user@localhost with no scheme: an e-mail address
    bool quoted_alone = false; ///< "localhost" or '127.0.0.1' alone in quotes (a bind or a setting)
};

/// Every loopback reference in `line`, left to right. Cheap when there is
/// none: one search per needle.
std::vector<LoopbackRef> find_loopback_refs(std::string_view line);

/// True when `text` holds a needle find_loopback_refs looks for, so a file
/// without one can be skipped unread line by line.
bool may_mention_loopback(std::string_view text) noexcept;

enum class HitKind : std::uint8_t { client, config, server, harmless };
std::string_view hit_kind_name(HitKind kind) noexcept;

/// Why a hit does not fail the gate (scan_gate.hpp); `open`: it may.
enum class HitGate : std::uint8_t {
    open,
    suppressed,    ///< a `loopcheck: ignore` comment on its line or the line above
    rule_off,      ///< its rule is off in the repository's config file
    baselined,     ///< its fingerprint is in --baseline
    outside_since, ///< not on a line changed since --since
};

/// One finding: where, what the classifier decided and (after the probe
/// join, scan_cost.hpp) what it costs.
struct ScanHit {
    Untrusted path;                    ///< as listed (file names are anyone's text)
    std::uint32_t line = 0;            ///< 1-based; in a notebook, the line in its cell
    std::uint32_t col = 0;             ///< 1-based byte column
    std::optional<std::uint32_t> cell; ///< notebooks: the 0-based cell index
    Lang lang = Lang::other;
    Untrusted text; ///< the line, trimmed, at most 200 bytes
    LoopbackRef ref;
    HitKind kind = HitKind::harmless;
    std::string_view rule;    ///< the rule's id (scan_rules.cpp)
    std::string reason;       ///< in loopcheck's words
    std::string client;       ///< client-table row id for client hits ("python"); may be empty
    std::string client_label; ///< the library as people know it ("requests")
    std::string server;       ///< server hits: which server binds ("uvicorn")
    std::string config_key;   ///< config hits: the key (OLLAMA_BASE_URL)
    std::string consumer;     ///< config hits: the code in the tree that reads the key
    std::string package;      ///< client hits: the library, when known ("requests")
    std::string pinned;       ///< client hits: "aiohttp 3.8.4 (requirements.txt)"
    /// The pinned version that picks the client row ("3.8.4" for aiohttp);
    /// empty: the row of the newest version.
    std::string client_version;

    // Filled by the cost join (scan_cost.hpp).
    bool risky = false;
    bool inferred = false;     ///< the server side is the port's usual server, not a listener seen
    bool alternatives = false; ///< the same line names the port through both families
    std::string listens;       ///< who listens, in words
    std::string cost_here;     ///< on this machine
    std::string cost_windows;
    std::string fix;
    /// The cost on Windows as a number (scan_cost.cpp): milliseconds per new
    /// connection for the priced row, none where nothing was priced.
    std::optional<double> windows_ms;
    bool fails = false; ///< the priced client never connects on Windows

    // Filled by the gate (scan_gate.hpp).
    std::string repo_path;   ///< from the repository root (or config folder), '/'-separated
    std::string fingerprint; ///< survives line moves: path, rule, line text, occurrence
    HitGate gate = HitGate::open;
};

/// Code that reads an environment variable (os.getenv("KEY"),
/// process.env.KEY, ...): a config value's consumer.
struct EnvRead {
    std::string key;
    Untrusted path;
    std::uint32_t line = 0;
    Lang lang = Lang::other;
    std::string client;       ///< the reading file's client row (its imports), or empty
    std::string client_label; ///< ... as people name it
};

/// A client library's version as a requirements or lock file names it.
struct ScanPin {
    std::string package; ///< as the rules name it: "aiohttp", "openai", "axios"
    std::string version; ///< "3.8.4"; the lowest allowed for a range
    Untrusted path;      ///< the file that pins it
    bool npm = false;    ///< from package-lock.json (else a Python file)
};

/// Files the scan did not read, or read with a caveat.
struct ScanSkips {
    std::uint64_t binary = 0, too_large = 0, unreadable = 0, not_regular = 0, symlink_loop = 0;
    std::uint64_t other_type = 0;   ///< a kind of file scan does not read
    std::uint64_t invalid_utf8 = 0; ///< read anyway; lines shown escaped
    std::uint64_t long_lines = 0;   ///< lines over the classifier's cap, read around each hit
    std::vector<Untrusted> named;   ///< -v: the skipped and caveated files, with the reason
};

/// One (host, port) the client and config hits name, and what serves it.
struct ScanEndpoint {
    std::string host;
    std::uint16_t port = 0;
    bool probed = false;
    bool accepted_here = false;  ///< some address accepted a connect here
    bool v4 = false, v6 = false; ///< families the server listens on (seen or inferred)
    bool inferred = false;       ///< from the usual server of the port or a bind in the tree
    std::string server;          ///< who: "ollama (pid 812)" or "Ollama (usual on 11434)"
    std::string server_fix;      ///< the server's own setting that binds both families
    /// The same setting as a sentence of its own (FixForm::alone).
    std::string server_fix_alone;
};

struct ScanResult {
    std::string loopcheck_version;
    std::string os;                 ///< "Linux 6.1.0": the OS and its version, for a ticket
    std::vector<std::string> roots; ///< as given (shown escaped)
    std::uint64_t files_listed = 0, files_read = 0, bytes_read = 0;
    ScanSkips skips;
    std::vector<ScanHit> hits;
    std::vector<ScanEndpoint> endpoints;
    std::vector<EnvRead> env_reads; ///< the first read of each key (capped), for config hits
    std::vector<ScanPin> pins;      ///< client libraries' versions from requirements and lock files
    bool probed = false;
    bool strict = false;
    bool interrupted = false;
    bool exit_zero = false;           ///< --exit-zero: report, never fail
    std::string config_path;          ///< the config file read (docs/scan.md#adoption), or empty
    std::uint64_t files_excluded = 0; ///< by the config file's `exclude` globs
    std::string since;                ///< --since REF, or empty
    std::string probe_note;           ///< why nothing was probed, when it was not
    int exit_code = 0;
};

} // namespace loopcheck
