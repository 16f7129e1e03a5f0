// loopcheck's exit codes. Documented in README.md, --help and the man page;
// a CI script may rely on them, so they never change meaning.
#pragma once

namespace loopcheck::exit_code {

inline constexpr int healthy = 0;     ///< every target connects, nothing slow
inline constexpr int slow = 1;        ///< a connect or fallback slower than --threshold
inline constexpr int usage = 2;       ///< bad argument or target; nothing was probed
inline constexpr int server_down = 3; ///< a target where no address accepted
inline constexpr int unresolved = 4;  ///< a name did not resolve
inline constexpr int internal = 5;    ///< loopcheck itself failed
/// An address accepts, but some clients fail: they never try it.
inline constexpr int partial = 6;
/// --expect refused, and an address accepted.
inline constexpr int not_refused = 7;
inline constexpr int interrupted = 130; ///< Ctrl-C: 128 + SIGINT, as a shell says it
/// SIGTERM (`wait` only, so far): 128 + SIGTERM, what an orchestrator's
/// stop shows for a process that ends on the signal.
inline constexpr int terminated = 143;

/// Several targets give one exit code: the one that comes first in
/// interrupted, internal, usage, unresolved, not_refused, partial, slow,
/// server_down, healthy. A client that fails outright outranks one that
/// waits; "slow" outranks "server down" because a slow refusal is the
/// finding loopcheck exists for, even where nothing accepts.
int combine(int a, int b) noexcept;

} // namespace loopcheck::exit_code
