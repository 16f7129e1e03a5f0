// --help's layout (cli/help_format.hpp): every command's help, built from
// the real command table, fits 80 columns and ends with `man loopcheck`;
// fit_help_text wraps a footer's lines under their second column.
#include "cli/cmd_check.hpp"
#include "cli/command.hpp"
#include "cli/help_format.hpp"
#include "support/catch.hpp"

#include <sstream>
#include <vector>

using namespace loopcheck;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

void check_fits(const std::string& help) {
    const auto lines = lines_of(help);
    REQUIRE_FALSE(lines.empty());
    for (const auto& line : lines) {
        INFO(line);
        CHECK(line.size() <= help_width);
    }
    CHECK(lines.back() == help_pointer(Os::linux_));
}

} // namespace

TEST_CASE("every command's help fits 80 columns and ends with man loopcheck", "[help]") {
    CLI::App app{check_description, "loopcheck"};
    app.formatter(help_formatter(Os::linux_));
    CheckArgs args;
    add_check_options(app, args);
    app.footer(check_footer);
    std::vector<CLI::App*> subs;
    for (const CommandEntry* c : subcommands()) {
        CLI::App* sub = app.add_subcommand(std::string(c->name), std::string(c->summary));
        sub->footer(std::string(c->footer));
        (void)c->declare(*sub, {});
        subs.push_back(sub);
    }
    const std::string main_help = app.help();
    check_fits(main_help);
    CHECK(main_help.find("Usage: loopcheck [OPTIONS] [TARGET...]") == 0);
    CHECK(main_help.find("  wait ") != std::string::npos);
    // help is no CLI11 subcommand, and is listed all the same.
    CHECK(main_help.find("\n  help ") != std::string::npos);
    CHECK(main_help.find("\n  completion ") != std::string::npos);
    CHECK(main_help.find("--syn-retries N") != std::string::npos);
    for (CLI::App* sub : subs) {
        INFO(sub->get_name());
        const std::string help = sub->help();
        check_fits(help);
        CHECK(help.find("Usage: loopcheck " + sub->get_name()) == 0);
        CHECK(help.find("-h,--help") != std::string::npos);
    }
}

TEST_CASE("fit_help_text wraps long lines under their second column", "[help]") {
    CHECK(fit_help_text("short line\n  0  ok") == "short line\n  0  ok\n");
    const std::string exit_line = "  1  slow: a refusal, fallback or connect took longer than "
                                  "--threshold, which is 100 ms unless you say otherwise";
    CHECK(fit_help_text(exit_line, 60) ==
          "  1  slow: a refusal, fallback or connect took longer than\n"
          "     --threshold, which is 100 ms unless you say otherwise\n");
    CHECK(fit_help_text(exit_line, 50) == "  1  slow: a refusal, fallback or connect took\n"
                                          "     longer than --threshold, which is 100 ms\n"
                                          "     unless you say otherwise\n");
    // No second column: the continuation keeps the indent.
    CHECK(fit_help_text("  one two three four", 12) == "  one two\n  three four\n");
    // A word longer than the width is left whole rather than cut.
    CHECK(fit_help_text("x " + std::string(30, 'y'), 10) == "x\n" + std::string(30, 'y') + "\n");
}

TEST_CASE("--help ends with where the manual is, by OS", "[help]") {
    CHECK(help_pointer(Os::linux_) == "Full manual: man loopcheck");
    CHECK(help_pointer(Os::macos) == "Full manual: man loopcheck");
    CHECK(help_pointer(Os::other) == "Full manual: man loopcheck");
    // Windows has no man: the README in the zip, and `loopcheck help`.
    const auto windows = help_pointer(Os::windows);
    CHECK(windows.find("man ") == std::string_view::npos);
    CHECK(windows.find("loopcheck help COMMAND") != std::string_view::npos);
    CHECK(windows.find("README.md") != std::string_view::npos);
    CHECK(windows.size() <= help_width);
    CLI::App app{"d", "loopcheck"};
    app.formatter(help_formatter(Os::windows));
    const auto lines = lines_of(app.help());
    CHECK(lines.back() == windows);
}
