// loopcheck's version, as every report states it (src/run/version.cpp).
#pragma once

#include <string_view>

namespace loopcheck {

/// The semantic version from CMake's project() ("0.1.0").
std::string_view version() noexcept;

} // namespace loopcheck
