// loopcheck's entry point: the command line only. Everything else lives in
// the library so that tests can reach it.
#include "cli/cli.hpp"
#include "cli/options.hpp"
#include "loopcheck/core/exit_codes.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/core/untrusted.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
    // First, before any file or socket exists: a closed stdin, stdout or
    // stderr is opened on the null device, or a probe socket would take
    // its number and receive log lines (docs/robustness.md).
    if (!loopcheck::platform::open_closed_standard_streams())
        return loopcheck::exit_code::internal;
    // Windows: the console shows the UTF-8 loopcheck writes (names, messages).
    const loopcheck::platform::Utf8Console console;
    try {
        return loopcheck::finish_output(loopcheck::run_cli(argc, argv));
    } catch (const std::exception& e) {
        // Nothing should throw this far; if it does, one line, not a trace.
        std::fprintf(stderr, "loopcheck: internal error: %s\n",
                     loopcheck::escape_controls(e.what()).c_str());
    } catch (...) {
        std::fprintf(stderr, "loopcheck: internal error\n");
    }
    return loopcheck::exit_code::internal;
}
