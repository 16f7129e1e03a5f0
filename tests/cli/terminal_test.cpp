// What the terminal can show: colour (--color, NO_COLOR, TERM=dumb) and
// UTF-8 (the locale's variables), as pure functions of the environment.
#include "cli/charset.hpp"
#include "cli/options.hpp"
#include "support/catch.hpp"

using namespace loopcheck;

TEST_CASE("TERM=dumb means no colour with --color=auto", "[terminal]") {
    CHECK(color_wanted(ColorMode::automatic, true, nullptr, "xterm-256color"));
    CHECK_FALSE(color_wanted(ColorMode::automatic, true, nullptr, "dumb"));
    CHECK_FALSE(color_wanted(ColorMode::automatic, true, "1", "xterm"));
    CHECK(color_wanted(ColorMode::automatic, true, "", "xterm")); // NO_COLOR empty: unset
    CHECK_FALSE(color_wanted(ColorMode::automatic, false, nullptr, "xterm"));
    CHECK(color_wanted(ColorMode::automatic, true, nullptr, nullptr));
    // --color=always is asked for: it wins over both.
    CHECK(color_wanted(ColorMode::always, false, "1", "dumb"));
    CHECK_FALSE(color_wanted(ColorMode::never, true, nullptr, "xterm"));
}

TEST_CASE("the locale's first set variable decides UTF-8", "[terminal]") {
    CHECK(locale_is_utf8(nullptr, nullptr, "en_US.UTF-8"));
    CHECK(locale_is_utf8(nullptr, nullptr, "C.utf8"));
    CHECK(locale_is_utf8(nullptr, "de_DE.Utf-8", "C"));
    CHECK_FALSE(locale_is_utf8("C", nullptr, "en_US.UTF-8")); // LC_ALL wins
    CHECK(locale_is_utf8("", nullptr, "en_US.UTF-8"));        // empty = unset
    CHECK_FALSE(locale_is_utf8(nullptr, nullptr, nullptr));
    CHECK_FALSE(locale_is_utf8(nullptr, nullptr, "POSIX"));
    CHECK_FALSE(locale_is_utf8(nullptr, nullptr, "en_US.ISO-8859-1"));
}
