// Spdlog on stderr at the chosen verbosity, its logger made on the first line written; the only
// file that includes spdlog's logging headers.
#include "cli/logging.hpp"

#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/platform/common/log.hpp"

#include <memory>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace loopcheck {

namespace {

/// The message of a log line with its controls escaped (escape_controls):
/// log lines quote OS messages and names, and stderr is often a terminal.
class SafeMessage final : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg& msg, const std::tm& /*time*/,
                spdlog::memory_buf_t& dest) override {
        const auto safe = escape_controls({msg.payload.data(), msg.payload.size()});
        dest.append(safe.data(), safe.data() + safe.size());
    }
    [[nodiscard]] std::unique_ptr<custom_flag_formatter> clone() const override {
        return std::make_unique<SafeMessage>();
    }
};

/// The spdlog logger, made on the first line written: a run that logs
/// nothing (the usual one) skips its registry, sink and pattern.
std::shared_ptr<spdlog::logger> make_logger() {
    auto logger = spdlog::stderr_logger_mt("loopcheck");
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    // %* is SafeMessage: the payload, escaped; %v would print it raw.
    formatter->add_flag<SafeMessage>('*').set_pattern("%H:%M:%S.%f %^%l%$ %*");
    logger->set_formatter(std::move(formatter));
    // The level check is log::enabled()'s.
    logger->set_level(spdlog::level::trace);
    return logger;
}

void spdlog_writer(log::Level level, std::string_view message) {
    static const auto logger = make_logger();
    const auto spdlog_level = level == log::Level::trace   ? spdlog::level::trace
                              : level == log::Level::debug ? spdlog::level::debug
                                                           : spdlog::level::warn;
    logger->log(spdlog_level, spdlog::string_view_t(message.data(), message.size()));
}

} // namespace

void setup_logging(int verbosity) {
    const std::optional<log::Level> lowest = verbosity < 0    ? std::nullopt
                                             : verbosity == 0 ? std::optional(log::Level::warn)
                                             : verbosity == 1 ? std::optional(log::Level::debug)
                                                              : std::optional(log::Level::trace);
    log::configure(lowest, &spdlog_writer);
}

} // namespace loopcheck
