// Log lines on stderr for the platform, run and cli layers (log::debug, log::trace, log::warn):
// the level check, and the writer cli/logging.cpp installs.
#include "loopcheck/platform/common/log.hpp"

#include <atomic>
#include <cstdio>

namespace loopcheck::log {

namespace {

constexpr int off = 3;

/// Before configure(): what a unit test or an early error sees.
void stderr_writer(Level level, std::string_view message) {
    const char* name = level == Level::warn ? "warning" : level == Level::debug ? "debug" : "trace";
    std::fprintf(stderr, "%s: %.*s\n", name, static_cast<int>(message.size()), message.data());
}

std::atomic<int> lowest_level{static_cast<int>(Level::warn)};
std::atomic<Writer> current_writer{&stderr_writer};

} // namespace

void configure(std::optional<Level> lowest, Writer writer) noexcept {
    lowest_level.store(lowest ? static_cast<int>(*lowest) : off, std::memory_order_relaxed);
    current_writer.store(writer != nullptr ? writer : &stderr_writer, std::memory_order_relaxed);
}

bool enabled(Level level) noexcept {
    return static_cast<int>(level) >= lowest_level.load(std::memory_order_relaxed);
}

void write(Level level, std::string_view message) {
    current_writer.load(std::memory_order_relaxed)(level, message);
}

} // namespace loopcheck::log
