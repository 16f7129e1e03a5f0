// The diagnosis's facts when the listener table is known: who listens where
// on the target's port, and what that means for the target. Pure helpers
// of diagnose() (src/core/diagnose/diagnose.cpp); docs/diagnosis.md, "Listeners".
#pragma once

#include "loopcheck/core/diagnose/diagnose.hpp"
#include "loopcheck/core/listeners/queries.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace loopcheck::listener_words {

/// The listener-elsewhere finding: something listens on the port, but on
/// no address the target tried. nullopt when a tried address reaches a
/// listener, or may (an unknown V6ONLY flag, unless that address refused).
std::optional<Finding> elsewhere(std::span<const Listener> port_listeners, const Target& target,
                                 std::span<const Observation> obs, bool expect_refused);

/// Its fixes: connect where the server listens (the rewritten target is
/// returned in `rewritten`), or make the server listen on what was tried.
std::vector<facts::Fix> elsewhere_fixes(std::span<const Listener> port_listeners,
                                        const Target& target, std::span<const Observation> obs,
                                        std::string& rewritten);

} // namespace loopcheck::listener_words
