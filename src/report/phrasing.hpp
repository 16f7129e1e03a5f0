// The words of a diagnosis: each finding's, each fix's and the verdict's
// facts (core/diagnose/facts.hpp) as the sentences every format shows (text,
// Markdown, JSON `message`, `verdict` and `fix`). The one place they are
// worded: core decides and carries facts, the reports word them at the edge.
#pragma once

#include "loopcheck/core/diagnose/diagnose.hpp"

#include <string>

namespace loopcheck::phrasing {

/// A finding's message: "[::1]:11434 was refused only after 2.05 s; ...".
std::string finding(const Finding& f);

/// A fix as one sentence.
std::string fix(const facts::Fix& f);

/// The verdict line, starting with its word: "SLOW: clients that try ...".
std::string verdict(const facts::Verdict& v);

/// The machine in words, for a ticket: "Debian GNU/Linux 12 (bookworm),
/// x86_64, in WSL 2"; "" when none of it is known.
std::string machine_line(const SystemFacts& s);

} // namespace loopcheck::phrasing
