// The double-click pause's decision (cli/console_pause.hpp): Windows'
// count of processes on the console and where the report went, on every OS.
#include "cli/console_pause.hpp"
#include "support/catch.hpp"

#include <optional>

using loopcheck::pause_before_exit;

TEST_CASE("pause: alone on a console it opened, with the report on it", "[cli]") {
    // Explorer's double-click: a new console, loopcheck its only process.
    CHECK(pause_before_exit(1u, true));
}

TEST_CASE("pause: never when a shell or anything else shares the console", "[cli]") {
    // cmd.exe or PowerShell, then loopcheck: 2; a pipeline adds more.
    CHECK_FALSE(pause_before_exit(2u, true));
    CHECK_FALSE(pause_before_exit(5u, true));
}

TEST_CASE("pause: never without a console count or with the report elsewhere", "[cli]") {
    // POSIX, or a stdin that is a file or a pipe: no count.
    CHECK_FALSE(pause_before_exit(std::nullopt, true));
    // Alone, but stdout and stderr redirected: nothing on screen to read.
    CHECK_FALSE(pause_before_exit(1u, false));
    // GetConsoleProcessList failed.
    CHECK_FALSE(pause_before_exit(0u, true));
}

TEST_CASE("pause: the prompt says why it waits and what ends it", "[cli]") {
    CHECK(loopcheck::pause_prompt.find("press Enter") != std::string_view::npos);
    CHECK(loopcheck::pause_prompt.find("window of its own") != std::string_view::npos);
}
