#include "loopcheck/cli/logging.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace loopcheck {

void setup_logging(int verbosity) {
    auto logger = spdlog::get("loopcheck");
    if (!logger)
        logger = spdlog::stderr_logger_mt("loopcheck");
    logger->set_pattern("%H:%M:%S.%f %^%l%$ %v");
    logger->set_level(verbosity < 0    ? spdlog::level::err
                      : verbosity == 0 ? spdlog::level::warn
                      : verbosity == 1 ? spdlog::level::debug
                                       : spdlog::level::trace);
    spdlog::set_default_logger(logger);
}

} // namespace loopcheck
