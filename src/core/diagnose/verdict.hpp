// The verdict rules (docs/diagnosis.md, "The verdict"): the one place that
// turns a target's findings into the verdict's form, its severity word and
// the exit code (report/phrasing.cpp words the line). Private to core;
// diagnose() calls it, the tests check it.
#pragma once

#include "loopcheck/core/diagnose/diagnose.hpp"

#include <span>
#include <string>
#include <string_view>

namespace loopcheck {

/// The words a verdict line starts with, strongest first.
namespace verdict_word {
inline constexpr std::string_view unexpected = "UNEXPECTED";
inline constexpr std::string_view partial = "PARTIAL";
inline constexpr std::string_view slow = "SLOW";
inline constexpr std::string_view down = "DOWN";
inline constexpr std::string_view ok = "OK";
inline constexpr std::string_view unresolved = "UNRESOLVED";
inline constexpr std::string_view incomplete = "INCOMPLETE";
} // namespace verdict_word

using facts::Verdict;
using facts::VerdictFacts;
using facts::VerdictForm;

/// The verdict from the findings: UNEXPECTED (7) when --expect refused met an
/// accept; PARTIAL (6) when some clients fail while others connect; SLOW (1)
/// when a finding says a client waits longer than the threshold; DOWN (3)
/// when nothing accepts; OK (0) otherwise, and for --expect refused when
/// every address refused fast.
Verdict decide_verdict(std::span<const Finding> findings, const VerdictFacts& facts);

} // namespace loopcheck
