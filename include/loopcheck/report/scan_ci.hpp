// `loopcheck scan`'s facts in the formats CI and editors read
// (docs/scan.md#formats): SARIF 2.1.0 for code scanning, GitHub Actions
// workflow commands for annotations, and one line per hit for editors. Each
// is a view of the scan's result value; none reads the hits' text to decide.
#pragma once

#include "loopcheck/core/scan/scan.hpp"

#include <string>
#include <string_view>

namespace loopcheck {

/// SARIF 2.1.0: one run; tool.driver with loopcheck's name, version and one
/// rule per classifier rule the results use (id, description, help with a
/// URI into docs/scan.md); one result per risky hit with its location
/// (uri from the repository root, startLine, startColumn), level (error for
/// a gate-failing kind, warning for a config value without --strict),
/// fingerprint, Windows cost, and its suppression (a comment: inSource; the
/// config or the baseline: external) where the gate holds it back.
std::string render_sarif(const ScanResult& result);

/// GitHub Actions: one `::warning file=...,line=...,col=...,title=...::...`
/// per risky hit the gate leaves open (%, CR and LF escaped; `,` and `:` too
/// in the properties), then the summary as a plain line.
std::string render_github(const ScanResult& result);

/// For editors: `path:line:col: RULE message` per risky hit the gate leaves
/// open, one line each (a notebook hit: the line in its cell, and the cell).
std::string render_short(const ScanResult& result);

/// The text of a workflow command's property value (escape_property) and
/// message (escape_data), as GitHub's toolkit escapes them.
std::string github_escape_data(std::string_view text);
std::string github_escape_property(std::string_view text);

} // namespace loopcheck
