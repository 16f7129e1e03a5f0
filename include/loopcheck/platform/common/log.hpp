// Log lines on stderr from the platform and cli layers: the level check and
// the formatting here, inline; the writing through the writer that
// cli/logging.cpp installs, the one file that includes spdlog: its headers
// cost seconds of compile in every file that includes them, and making its
// logger costs start-up time a run that logs nothing should not pay.
#pragma once

#include <fmt/format.h>
#include <optional>
#include <string_view>
#include <utility>

namespace loopcheck::log {

enum class Level { trace, debug, warn };

/// Writes one line that passed the level check.
using Writer = void (*)(Level level, std::string_view message);

/// Lines at `lowest` and above go to `writer`; none if `lowest` is empty
/// (-q). Until this is called, warnings go to stderr as "warning: ...".
void configure(std::optional<Level> lowest, Writer writer) noexcept;

/// Whether a line at `level` is written (-v: debug, -vv: trace).
[[nodiscard]] bool enabled(Level level) noexcept;
/// Writes one line through the configured writer.
void write(Level level, std::string_view message);

/// Every socket call and its result (-vv).
template <class... Args>
void trace(fmt::format_string<Args...> format, Args&&... args) {
    if (enabled(Level::trace))
        write(Level::trace, fmt::format(format, std::forward<Args>(args)...));
}

/// Each step (-v).
template <class... Args>
void debug(fmt::format_string<Args...> format, Args&&... args) {
    if (enabled(Level::debug))
        write(Level::debug, fmt::format(format, std::forward<Args>(args)...));
}

/// Something the user should know even without -v.
template <class... Args>
void warn(fmt::format_string<Args...> format, Args&&... args) {
    if (enabled(Level::warn))
        write(Level::warn, fmt::format(format, std::forward<Args>(args)...));
}

} // namespace loopcheck::log
