// POSIX: this process's arguments, environment and console. The bytes are
// passed on as they are (UTF-8 wherever a current system's locale is), and
// a terminal outlives the program, so nobody needs a pause before exit.
#include "loopcheck/platform/platform.hpp"

#include <cstdlib>

namespace loopcheck::platform {

std::vector<std::string> utf8_arguments(int argc, char** argv) {
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(argc > 0 ? argc : 0));
    for (int i = 0; i < argc && argv[i] != nullptr; ++i)
        out.emplace_back(argv[i]);
    return out;
}

std::optional<std::string> environment_variable(const char* name) {
    // The rest of loopcheck calls this, never std::getenv, which the
    // Windows UCRT deprecates (tests/windows/check_crt_calls.py).
    const char* value = std::getenv(name);
    if (value == nullptr)
        return std::nullopt;
    return std::string(value);
}

std::optional<unsigned> processes_on_console() noexcept {
    return std::nullopt;
}

} // namespace loopcheck::platform
