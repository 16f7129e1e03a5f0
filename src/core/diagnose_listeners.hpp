// The diagnosis's words when the listener table is known: who listens where
// on the target's port, and what that means for the target. Pure helpers
// of diagnose() (src/core/diagnose.cpp); docs/diagnosis.md, "Listeners".
#pragma once

#include "loopcheck/core/diagnose.hpp"
#include "loopcheck/core/listener_queries.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace loopcheck::listener_words {

/// The single-stack finding's message: "ollama (pid 4242) listens on
/// 127.0.0.1:11434 only; localhost resolves to ::1 first." `served` is the
/// family that accepted.
std::string single_stack(std::span<const Listener> port_listeners, const Target& target,
                         std::span<const Observation> obs, Family served);

/// The listener-elsewhere finding: something listens on the port, but on
/// no address the target tried. nullopt when a tried address reaches a
/// listener, or may (an unknown V6ONLY flag, unless that address refused).
std::optional<Finding> elsewhere(std::span<const Listener> port_listeners, const Target& target,
                                 std::span<const Observation> obs, bool expect_refused);

/// Its fixes: connect where the server listens (the rewritten target is
/// returned in `rewritten`), or make the server listen on what was tried.
std::vector<std::string> elsewhere_fixes(std::span<const Listener> port_listeners,
                                         const Target& target, std::span<const Observation> obs,
                                         std::string& rewritten);

/// The no-answer finding's message for an address a listener is bound to.
std::string full_queue(const Observation& o, const Listener& l, Micros timeout);

} // namespace loopcheck::listener_words
