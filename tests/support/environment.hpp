// An environment variable for a test binary that links no platform layer
// (loopcheck_report_tests): the UCRT deprecates std::getenv (C4996, an
// error under /WX, tests/windows/check_crt_calls.py), so MSVC asks
// _dupenv_s, as CLI11 does, and everything else getenv (MinGW's msvcrt.dll
// has no _dupenv_s, and its getenv is not deprecated).
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace loopcheck::test {

/// The value of `name`, nullopt when it is not set.
inline std::optional<std::string> environment_variable(const char* name) {
#ifdef _MSC_VER
    char* value = nullptr;
    std::size_t size = 0;
    if (_dupenv_s(&value, &size, name) != 0 || value == nullptr)
        return std::nullopt;
    std::string out(value);
    std::free(value);
    return out;
#else
    const char* value = std::getenv(name);
    return value == nullptr ? std::nullopt : std::optional<std::string>(value);
#endif
}

} // namespace loopcheck::test
