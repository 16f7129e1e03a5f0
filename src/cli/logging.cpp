#include "loopcheck/cli/logging.hpp"

#include "loopcheck/core/untrusted.hpp"

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

} // namespace

void setup_logging(int verbosity) {
    auto logger = spdlog::get("loopcheck");
    if (!logger)
        logger = spdlog::stderr_logger_mt("loopcheck");
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    // %* is SafeMessage: the payload, escaped; %v would print it raw.
    formatter->add_flag<SafeMessage>('*').set_pattern("%H:%M:%S.%f %^%l%$ %*");
    logger->set_formatter(std::move(formatter));
    logger->set_level(verbosity < 0    ? spdlog::level::err
                      : verbosity == 0 ? spdlog::level::warn
                      : verbosity == 1 ? spdlog::level::debug
                                       : spdlog::level::trace);
    spdlog::set_default_logger(logger);
}

} // namespace loopcheck
