// What the terminal can show: colour (--color, NO_COLOR, TERM=dumb) and
// UTF-8 (the locale's variables), as pure functions of the environment.
#include "cli/charset.hpp"
#include "cli/options.hpp"
#include "support/catch.hpp"

using namespace loopcheck;

TEST_CASE("TERM=dumb means no colour with --color=auto", "[terminal]") {
    using M = ColorMode;
    CHECK(color_wanted(M::automatic, true, {.term = "xterm-256color"}));
    CHECK_FALSE(color_wanted(M::automatic, true, {.term = "dumb"}));
    CHECK_FALSE(color_wanted(M::automatic, true, {.no_color = "1", .term = "xterm"}));
    CHECK(color_wanted(M::automatic, true, {.no_color = "", .term = "xterm"})); // empty: unset
    CHECK_FALSE(color_wanted(M::automatic, false, {.term = "xterm"}));
    CHECK(color_wanted(M::automatic, true, {}));
    // --color=always is asked for: it wins over both.
    CHECK(color_wanted(M::always, false, {.no_color = "1", .term = "dumb"}));
    CHECK_FALSE(color_wanted(M::never, true, {.term = "xterm"}));
}

TEST_CASE("FORCE_COLOR and CLICOLOR_FORCE colour a log that is no terminal", "[terminal]") {
    using M = ColorMode;
    // GitHub Actions' log is a pipe; these are how CI asks for colour.
    CHECK(color_wanted(M::automatic, false, {.force_color = "1"}));
    CHECK(color_wanted(M::automatic, false, {.force_color = "3"}));
    CHECK(color_wanted(M::automatic, false, {.force_color = "true"}));
    CHECK(color_wanted(M::automatic, false, {.clicolor_force = "1"}));
    CHECK(color_wanted(M::automatic, false, {.term = "dumb", .force_color = "1"}));
    // "0" and "false" say no (Node's FORCE_COLOR=0); empty is unset.
    CHECK_FALSE(color_wanted(M::automatic, false, {.force_color = "0"}));
    CHECK_FALSE(color_wanted(M::automatic, false, {.force_color = "false"}));
    CHECK_FALSE(color_wanted(M::automatic, false, {.force_color = ""}));
    CHECK_FALSE(color_wanted(M::automatic, false, {.clicolor_force = "0"}));
    CHECK(color_wanted(M::automatic, true, {.term = "xterm", .force_color = "0"})); // terminal
    // NO_COLOR, the user's own choice, wins over both; --color over all.
    CHECK_FALSE(color_wanted(M::automatic, true, {.no_color = "1", .force_color = "1"}));
    CHECK_FALSE(color_wanted(M::automatic, true, {.no_color = "1", .clicolor_force = "1"}));
    CHECK_FALSE(color_wanted(M::never, false, {.force_color = "1"}));
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
