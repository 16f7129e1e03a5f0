#include "loopcheck/platform/common/log.hpp"

#include <spdlog/spdlog.h>

namespace loopcheck::log {

namespace {

spdlog::level::level_enum spdlog_level(Level level) noexcept {
    switch (level) {
    case Level::trace:
        return spdlog::level::trace;
    case Level::debug:
        return spdlog::level::debug;
    case Level::warn:
        return spdlog::level::warn;
    }
    return spdlog::level::warn;
}

} // namespace

bool enabled(Level level) noexcept {
    return spdlog::default_logger_raw()->should_log(spdlog_level(level));
}

void write(Level level, std::string_view message) {
    spdlog::default_logger_raw()->log(spdlog_level(level),
                                      spdlog::string_view_t(message.data(), message.size()));
}

} // namespace loopcheck::log
