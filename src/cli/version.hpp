// --version's line: loopcheck's version and what it was built with.
#pragma once

#include <string>

namespace loopcheck {

/// "loopcheck 0.1.0 (Linux x86_64; CLI11 2.1.2, fmt 9.1.0, spdlog 1.10.0)".
std::string version_string();

} // namespace loopcheck
