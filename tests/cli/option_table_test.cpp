// The option table (cli/option_table.hpp) and what is made from it: every
// command declares exactly its rows, hidden rejections for the reasons the
// table gives, bounds from the rows; the man page's roff and the marker
// replacement the generator uses (cli/docgen.hpp).
#include "cli/cmd_check.hpp"
#include "cli/command.hpp"
#include "cli/completion.hpp"
#include "cli/docgen.hpp"
#include "cli/option_table.hpp"
#include "cli/options.hpp"
#include "support/catch.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <set>

using namespace loopcheck;

namespace {

/// Every name an app answers to, visible or hidden, without -h and -V.
std::pair<std::set<std::string>, std::set<std::string>> declared(const CLI::App& app) {
    std::set<std::string> visible, hidden;
    for (const CLI::Option* o : app.get_options()) {
        std::vector<std::string> names;
        for (const auto& l : o->get_lnames())
            names.push_back("--" + l);
        for (const auto& s : o->get_snames())
            names.push_back("-" + s);
        if (!o->nonpositional())
            names.push_back(o->get_name());
        for (const auto& n : names) {
            if (n == "-h" || n == "--help" || n == "-V" || n == "--version")
                continue;
            (o->get_group().empty() ? hidden : visible).insert(n);
        }
    }
    return {visible, hidden};
}

std::set<std::string> table_names(Command c, bool taken) {
    std::set<std::string> out;
    for (const OptionRow& row : option_table()) {
        // wait's COMMAND comes after `--`, cut off before CLI11 parses
        // (cli.cpp split_after_dashes): a row of the table, not of CLI11.
        const bool after_dashes = c == Command::wait && row.names == "command";
        const bool in =
            taken ? takes(row, c) && !row.builtin && !after_dashes : !why_not(row, c).empty();
        if (in)
            for (const auto name : option_names(row))
                if (!name.empty())
                    out.emplace(name);
    }
    return out;
}

} // namespace

TEST_CASE("every command declares exactly its rows of the table", "[options]") {
    CLI::App app{"loopcheck"};
    CheckArgs args;
    add_check_options(app, args);
    auto [visible, hidden] = declared(app);
    CHECK(visible == table_names(Command::check, true));
    CHECK(hidden == table_names(Command::check, false));
    for (const CommandEntry* c : subcommands()) {
        INFO(c->name);
        CLI::App sub{std::string(c->name)};
        (void)c->declare(sub, {});
        Command id = Command::check;
        for (std::size_t i = 0; i < command_count; ++i)
            if (command_word(static_cast<Command>(i)) == c->name)
                id = static_cast<Command>(i);
        REQUIRE(id != Command::check);
        std::tie(visible, hidden) = declared(sub);
        CHECK(visible == table_names(id, true));
        CHECK(hidden == table_names(id, false));
    }
}

TEST_CASE("the table is consistent", "[options]") {
    for (std::size_t i = 0; i < command_count; ++i) {
        const auto c = static_cast<Command>(i);
        std::set<std::string_view> seen;
        for (const OptionRow& row : option_table()) {
            INFO(row.names);
            CHECK_FALSE(row.help.empty());
            // A reason not to take an option is for a command that does not.
            if (!why_not(row, c).empty())
                CHECK_FALSE(takes(row, c));
            if (!takes(row, c))
                continue;
            for (const auto name : option_names(row))
                if (!name.empty())
                    CHECK(seen.insert(name).second); // one row per name and command
            if (row.kind == Kind::positional)
                CHECK(row.value.size() > 0);
            if (takes_value(row) && row.kind != Kind::positional)
                CHECK_FALSE(row.value.empty());
            if (row.complete == Complete::choices)
                CHECK_FALSE(row.choices.empty());
        }
    }
}

TEST_CASE("bounds come from the table", "[options]") {
    CHECK(integer_bounds("", "--count")->high == max_count);
    CHECK(integer_bounds("", "-n")->low == 1);
    CHECK(integer_bounds("staircase", "--count")->high == 100);
    CHECK(integer_bounds("", "--syn-retries")->high == 253);
    CHECK_FALSE(integer_bounds("", "--timeout"));
    CHECK_FALSE(integer_bounds("audit", "--count"));
    CHECK(bounds_error("", "--syn-retries", "254") ==
          "--syn-retries must be from 0 to 253, not 254");
    CHECK_FALSE(bounds_error("", "--syn-retries", "0"));
}

TEST_CASE("find_option and why_not read the rows", "[options]") {
    REQUIRE(find_option(Command::check, "-t") != nullptr);
    CHECK(find_option(Command::check, "-t") == find_option(Command::audit, "--timeout"));
    // wait's -t is a row of its own, --for's other name, not one connect's.
    REQUIRE(find_option(Command::wait, "--timeout") != nullptr);
    CHECK(find_option(Command::wait, "-t") != find_option(Command::check, "-t"));
    CHECK(find_option(Command::wait, "-t")->help.find("same as --for") != std::string_view::npos);
    const OptionRow* timeout = find_option(Command::check, "--timeout");
    CHECK(why_not(*timeout, Command::wait).empty());
    CHECK(why_not(*timeout, Command::completion).empty());
    // Two rows share --count: the check's and staircase's, bounded apart.
    CHECK(find_option(Command::check, "--count") != find_option(Command::staircase, "--count"));
    CHECK(long_name(*timeout) == "--timeout");
    CHECK(long_name(*find_option(Command::wait, "target")) == "target");
}

TEST_CASE("the man page's roff from the rows' Markdown", "[docs]") {
    CHECK(roff_text("plain words") == "plain words");
    CHECK(roff_text("exit 1 (`--strict`)") == "exit 1 (\\fB\\-\\-strict\\fR)");
    CHECK(roff_text("see [windows.md](windows.md#x)") == "see windows.md");
    CHECK(roff_text(".starts with a dot") == "\\&.starts with a dot");
    CHECK(roff_text("a\\b") == "a\\eb");
}

TEST_CASE("replace_between keeps the marker lines and replaces what is between", "[docs]") {
    std::string text = "a\n<!-- BEGIN x: note -->\nold\nold\n<!-- END x -->\nb\n";
    CHECK(replace_between(text, "<!-- BEGIN x:", "<!-- END x", "new\n"));
    CHECK(text == "a\n<!-- BEGIN x: note -->\nnew\n<!-- END x -->\nb\n");
    CHECK(replace_between(text, "<!-- BEGIN x:", "<!-- END x", ""));
    CHECK(text == "a\n<!-- BEGIN x: note -->\n<!-- END x -->\nb\n");
    CHECK_FALSE(replace_between(text, "<!-- BEGIN y:", "<!-- END y", "z\n"));
}

TEST_CASE("every shell's script names every command and option", "[completion]") {
    for (const Shell shell : {Shell::bash, Shell::zsh, Shell::fish, Shell::powershell}) {
        const std::string script = completion_script(shell);
        INFO(completion_file(shell));
        for (const CommandEntry* c : subcommands())
            CHECK(script.find(c->name) != std::string::npos);
        CHECK(script.find("help") != std::string::npos);
        for (const OptionRow& row : option_table())
            if (row.kind != Kind::positional) {
                INFO(row.names);
                // fish names --timeout as `-l timeout`.
                const auto name = long_name(row);
                CHECK(script.find(shell == Shell::fish ? name.substr(2) : name) !=
                      std::string::npos);
            }
    }
    CHECK(shell_named("pwsh") == Shell::powershell);
    CHECK_FALSE(shell_named("tcsh"));
}
