// cli/usage.cpp: shared options typed before a subcommand move after it,
// `help`, and the closest command or option to a typo.
#include "cli/usage.hpp"
#include "support/catch.hpp"

#include <string>
#include <vector>

using namespace loopcheck;

using Words = std::vector<std::string>;

TEST_CASE("options before a subcommand move after its name", "[cli][usage]") {
    CHECK(hoist_global_options({"--json", "audit"}) == Words{"audit", "--json"});
    CHECK(hoist_global_options({"-t", "1s", "staircase", "-n", "2"}) ==
          Words{"staircase", "-t", "1s", "-n", "2"});
    CHECK(hoist_global_options({"-vt", "1s", "--format", "markdown", "wait", "localhost:1"}) ==
          Words{"wait", "-vt", "1s", "--format", "markdown", "localhost:1"});
    CHECK(hoist_global_options({"--timeout=1s", "-q", "scan", "."}) ==
          Words{"scan", "--timeout=1s", "-q", "."});
    // --help and --version stay the main command's.
    CHECK(hoist_global_options({"--help", "-q", "audit"}) == Words{"--help", "audit", "-q"});
    // A value that happens to be a command's name is still the value.
    CHECK(hoist_global_options({"--format", "audit"}) == Words{"--format", "audit"});
    // The check's command lines, and words after --, are left alone.
    CHECK(hoist_global_options({"--json", "localhost:1"}) == Words{"--json", "localhost:1"});
    CHECK(hoist_global_options({"--", "audit"}) == Words{"--", "audit"});
    CHECK(hoist_global_options({"localhost:1", "audit"}) == Words{"localhost:1", "audit"});
}

TEST_CASE("`loopcheck help` is --help", "[cli][usage]") {
    CHECK(hoist_global_options({"help"}) == Words{"--help"});
    CHECK(hoist_global_options({"help", "wait"}) == Words{"wait", "--help"});
    CHECK(hoist_global_options({"help", "nonsense"}) == Words{"--help"});
}

TEST_CASE("the closest command or option to a typo", "[cli][usage]") {
    const Words options{"--timeout", "--threshold", "--json", "--markdown", "-t", "-v"};
    CHECK(closest_word("--timout", options) == "--timeout");
    CHECK(closest_word("--jsno", options) == "--json"); // a swap is one edit
    CHECK(closest_word("--treshold", options) == "--threshold");
    CHECK(closest_word("--time", options) == "--timeout"); // a prefix
    CHECK_FALSE(closest_word("--frobnicate", options));
    CHECK_FALSE(closest_word("-x", options)); // one letter is no evidence

    CHECK(unknown_command("wiat") ==
          "unknown command 'wiat'; did you mean 'wait'? see loopcheck --help");
    CHECK(unknown_command("audti").value_or("").find("'audit'") != std::string::npos);
    CHECK(unknown_command("stair").value_or("").find("'staircase'") != std::string::npos);
    CHECK(unknown_command("lisen").value_or("").find("'listen'") != std::string::npos);
    // Targets are never taken for commands.
    CHECK_FALSE(unknown_command("wait:80"));
    CHECK_FALSE(unknown_command("8080"));
    CHECK_FALSE(unknown_command("scan.local"));
    CHECK_FALSE(unknown_command("localhost"));
}

TEST_CASE("the main command's names are dropped where a subcommand's would stand", "[usage]") {
    CHECK(*drop_check_name({"check", "localhost:1"}) == Words{"localhost:1"});
    CHECK(*drop_check_name({"--json", "-t", "1s", "check", "a:1", "b:2"}) ==
          Words{"--json", "-t", "1s", "a:1", "b:2"});
    CHECK(*drop_check_name({"doctor"}) == Words{});
    CHECK(*drop_check_name({"doctor", "-v", "--json"}) == Words{"-v", "--json"});
    CHECK(*drop_check_name({"audit", "check"}) == Words{"audit", "check"});
    CHECK(*drop_check_name({"--", "check"}) == Words{"--", "check"});
    CHECK(*drop_check_name({"-t", "check", "localhost:1"}) == Words{"-t", "check", "localhost:1"});
    const auto bad = drop_check_name({"doctor", "localhost:1"});
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message ==
          "doctor checks this machine and takes no target; loopcheck check localhost:1 checks "
          "that one");
    // `loopcheck help check` is the main help, not an unknown command.
    CHECK_FALSE(unknown_help_topic({"help", "check"}));
    CHECK(unknown_command("chekc") ==
          "unknown command 'chekc'; did you mean 'check'? see loopcheck --help");
}
