// POSIX: this process's arguments, environment and console, and the
// command `wait -- COMMAND` becomes. The bytes are
// passed on as they are (UTF-8 wherever a current system's locale is), and
// a terminal outlives the program, so nobody needs a pause before exit.
#include "loopcheck/platform/platform.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

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

CommandEnd run_in_place(const std::vector<std::string>& argv) {
    if (argv.empty())
        return {127, "no command"};
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str())); // execvp's type; it writes none
    args.push_back(nullptr);
    // Caught signals go back to their defaults in the new program; every
    // socket loopcheck opened is close-on-exec.
    ::execvp(args[0], args.data());
    const int err = errno;
    // The shell's numbers: 127 "not found", 126 "found but cannot run".
    return {err == ENOENT || err == ENOTDIR ? 127 : 126, std::strerror(err)};
}

} // namespace loopcheck::platform
