// loopcheck's entry point: the command line only. Everything else lives in
// the library so that tests can reach it.
#include "cli/cli.hpp"
#include "cli/console_pause.hpp"
#include "cli/options.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/platform/platform.hpp"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

/// The command line as UTF-8 (platform::utf8_arguments()) and run.
int run(int argc, char** argv) {
    std::vector<std::string> args = loopcheck::platform::utf8_arguments(argc, argv);
    std::vector<char*> pointers;
    pointers.reserve(args.size() + 1);
    for (std::string& a : args)
        pointers.push_back(a.data());
    pointers.push_back(nullptr);
    return loopcheck::run_cli(static_cast<int>(args.size()), pointers.data());
}

/// Double-clicked on Windows: the report stays on screen until Enter.
void pause_if_alone(std::optional<unsigned> processes_on_console) {
    using loopcheck::platform::is_terminal;
    using loopcheck::platform::Stream;
    const bool shown = is_terminal(Stream::out) || is_terminal(Stream::err);
    if (!loopcheck::pause_before_exit(processes_on_console, shown))
        return;
    std::fprintf(stderr, "\n%.*s\n", static_cast<int>(loopcheck::pause_prompt.size()),
                 loopcheck::pause_prompt.data());
    std::fflush(stderr);
    // Enter, the end of input or Ctrl-C (the console read fails) ends it.
    for (int c = std::getchar(); c != EOF && c != '\n'; c = std::getchar()) {
    }
}

} // namespace

int main(int argc, char** argv) {
    // First, before any file or socket exists: a closed stdin, stdout or
    // stderr is opened on the null device, or a probe socket would take
    // its number and receive log lines (docs/robustness.md).
    if (!loopcheck::platform::open_closed_standard_streams())
        return loopcheck::exit_code::internal;
    // Windows: the console shows the UTF-8 loopcheck writes (names, messages).
    const loopcheck::platform::Utf8Console console;
    // Counted at start, before the run could start anything that shares it.
    const auto processes_on_console = loopcheck::platform::processes_on_console();
    int code = loopcheck::exit_code::internal;
    try {
        code = loopcheck::finish_output(run(argc, argv));
    } catch (const std::exception& e) {
        // Nothing should throw this far; if it does, one line, not a trace.
        std::fprintf(stderr, "loopcheck: internal error: %s\n",
                     loopcheck::escape_controls(e.what()).c_str());
    } catch (...) {
        std::fprintf(stderr, "loopcheck: internal error\n");
    }
    pause_if_alone(processes_on_console);
    return code;
}
