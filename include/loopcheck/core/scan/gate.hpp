// `loopcheck scan` as a CI gate (docs/scan.md#adoption): which hits may fail
// it. Inline `loopcheck: ignore` comments, the repository's config file
// (.loopcheck.json: path excludes, rules off, strict), a baseline of
// accepted hits by fingerprint, and the lines changed since a git ref. Pure:
// the run layer reads the files and runs git; this decides.
#pragma once

#include "loopcheck/core/result.hpp"
#include "loopcheck/core/scan/scan.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loopcheck {

/// "suppressed", "rule-off", "baselined", "outside-since"; "" for open.
std::string_view hit_gate_name(HitGate gate) noexcept;

/// A `loopcheck: ignore` comment found in a line.
struct Suppression {
    bool found = false;
    std::vector<std::string> rules; ///< `ignore[a, b]`; empty: every rule
};

/// The suppression comment in `line`, if any: `loopcheck: ignore` (or
/// `loopcheck:ignore`), optionally followed by `[rule, rule]`, right after
/// one of `lang`'s comment openers (`#`, `//`, `/*`, `--`, `<!--`, `;`,
/// `REM`, `::`, ...; every one of them for Markdown and for a language
/// without its own list). Text inside a string is not a comment:
/// `"loopcheck: ignore"` in quotes suppresses nothing.
Suppression find_suppression(std::string_view line, Lang lang);

/// One file's hits after classification: each hit whose line, or the line
/// above, holds a suppression for its rule is marked suppressed (a notebook
/// hit reads its own line only), and every hit gets its `repo_path` and
/// fingerprint. `content` is the file as read; `repo_path` the file's path
/// from the repository root.
void gate_file_hits(std::string_view content, Lang lang, std::string_view repo_path,
                    std::span<ScanHit> file_hits);

/// The fingerprint of a hit: 16 hex digits of FNV-1a 64 over the path from
/// the repository root, the rule, the line's text with whitespace runs
/// folded to one space, and the occurrence index (the n-th hit of the same
/// path, rule and text in the file). Moving the line keeps it; editing the
/// line's text, renaming the file or a rule that changes invalidates it.
std::string hit_fingerprint(std::string_view repo_path, std::string_view rule,
                            std::string_view line_text, std::size_t occurrence);

/// The repository's config file, `.loopcheck.json` (docs/scan.md#adoption).
struct ScanConfig {
    std::vector<std::string> exclude; ///< globs from the config file's folder
    std::set<std::string> rules_off;  ///< rule ids whose hits never fail the gate
    std::optional<bool> strict;       ///< as --strict
};

/// Parses the config file's text: a JSON object with `exclude` (an array of
/// globs), `rules` (an object of rule id -> true/false) and `strict` (a
/// boolean); anything else, or a rule scan does not have, is an error that
/// names it.
Result<ScanConfig> parse_scan_config(std::string_view text);

/// Glob match on '/'-separated paths: `*` and `?` within one segment, `**`
/// any number of segments; a glob without '/' matches a name at any depth,
/// a glob ending in '/' everything under that folder, a leading '/'
/// anchors at the config's folder.
bool glob_match(std::string_view glob, std::string_view path);

/// True when one of the config's excludes matches `repo_path`.
bool excluded_by(const ScanConfig& config, std::string_view repo_path);

/// A baseline file's fingerprints (`--baseline FILE`), or the error naming
/// what is wrong with it.
Result<std::set<std::string>> parse_baseline(std::string_view text);

/// The baseline of `result`: every risky hit that is not suppressed or off,
/// as `{"schema": "loopcheck-baseline/1", "fingerprints": [...]}`, each
/// with its path, line and rule for a reader.
std::string render_baseline(const ScanResult& result);

/// Lines changed since a git ref, from `git diff -U0` (the new side of each
/// hunk) and the untracked files (wholly new).
struct ChangedLines {
    std::map<std::string, std::vector<std::pair<std::uint32_t, std::uint32_t>>, std::less<>>
        ranges;                               ///< path -> [first, last] line ranges
    std::set<std::string, std::less<>> whole; ///< new files: every line counts
    bool changed(std::string_view repo_path, std::uint32_t line, bool notebook) const;
};

/// Adds the new-side line ranges of a `git diff -U0 --no-prefix`-style or
/// `a/ b/`-prefixed unified diff to `out` (paths as `+++` names them,
/// relative to where git ran). Tolerates any other line.
void parse_diff_ranges(std::string_view diff, ChangedLines& out);

/// What the gate applies after the scan has concluded.
struct GateInputs {
    const ScanConfig* config = nullptr; ///< rules off
    const std::set<std::string>* baseline = nullptr;
    const ChangedLines* since = nullptr;
    bool exit_zero = false;
};

/// Marks the hits the config turns off, the baselined ones and those outside
/// --since, then sets the exit code from the hits left open: 1 when an open
/// hit is a risky client (or, strict, a risky config value), 0 otherwise or
/// with exit_zero; 130 stays for an interrupted scan.
void apply_gate(ScanResult& result, const GateInputs& inputs);

/// How many hits each gate holds back, for the summary ("2 suppressed, 1
/// baselined"); empty when none.
std::string gate_summary(const ScanResult& result);

} // namespace loopcheck
