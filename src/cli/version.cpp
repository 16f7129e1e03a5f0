// --version: loopcheck's version and what it was built with.
#include "cli/version.hpp"

#include "loopcheck/run/version.hpp"

#include <CLI/Version.hpp>
#include <fmt/format.h>
#include <spdlog/version.h>

#ifndef LOOPCHECK_PLATFORM
#define LOOPCHECK_PLATFORM "unknown"
#endif

namespace loopcheck {

std::string version_string() {
    return fmt::format("loopcheck {} ({}; CLI11 {}, fmt {}.{}.{}, spdlog {}.{}.{})", version(),
                       LOOPCHECK_PLATFORM, CLI11_VERSION, FMT_VERSION / 10000,
                       FMT_VERSION / 100 % 100, FMT_VERSION % 100, SPDLOG_VER_MAJOR,
                       SPDLOG_VER_MINOR, SPDLOG_VER_PATCH);
}

} // namespace loopcheck
