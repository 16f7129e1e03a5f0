// parse_command_line: argv through the option table's CLI11 set-up to the
// check's command or a subcommand's run.
#include "cli/cli.hpp"
#include "support/catch.hpp"

#include <functional>
#include <string>
#include <vector>

using namespace loopcheck;
using namespace std::chrono_literals;

namespace {

/// argv as main() gets it: "loopcheck" first, then the words.
class Argv {
public:
    explicit Argv(std::vector<std::string> words) : words_(std::move(words)) {
        words_.insert(words_.begin(), "loopcheck");
        for (auto& w : words_)
            pointers_.push_back(w.data());
        pointers_.push_back(nullptr);
    }
    int argc() const { return static_cast<int>(words_.size()); }
    char** argv() { return pointers_.data(); }

private:
    std::vector<std::string> words_;
    std::vector<char*> pointers_;
};

ParsedCommandLine parse(std::vector<std::string> words) {
    Argv a(std::move(words));
    return parse_command_line(a.argc(), a.argv());
}

} // namespace

TEST_CASE("a command line of targets is the check's, with its defaults", "[cli]") {
    const auto parsed = parse({"localhost:11434"});
    REQUIRE(std::holds_alternative<CheckCommand>(parsed));
    const auto& command = std::get<CheckCommand>(parsed);
    const auto& opt = command.request;
    REQUIRE(opt.targets.size() == 1);
    CHECK(opt.targets[0] == *parse_target("localhost:11434"));
    CHECK(opt.timeout == 5s);
    CHECK(opt.threshold == 100ms);
    CHECK(opt.count == 1);
    CHECK(command.output.format == Format::text);
    CHECK(opt.family == FamilyFilter::any);
    CHECK_FALSE(opt.expect_refused);
    CHECK(opt.emulate.empty());
    CHECK(opt.command_line == "loopcheck localhost:11434");
}

TEST_CASE("the check's options as the table declares them", "[cli]") {
    const auto parsed =
        parse({"-4", "-n", "3", "--json", "-t", "250ms", "[::1]:8080", "127.0.0.1:9"});
    REQUIRE(std::holds_alternative<CheckCommand>(parsed));
    const auto& command = std::get<CheckCommand>(parsed);
    CHECK(command.request.targets.size() == 2);
    CHECK(command.request.count == 3);
    CHECK(command.request.family == FamilyFilter::ipv4);
    CHECK(command.request.timeout == 250ms);
    CHECK(command.output.format == Format::json);
    // No target: this machine itself.
    const auto self = parse({});
    REQUIRE(std::holds_alternative<CheckCommand>(self));
    CHECK(std::get<CheckCommand>(self).request.targets.empty());
}

TEST_CASE("a subcommand's line is its run, and bad ones are usage errors", "[cli]") {
    CHECK(std::holds_alternative<std::function<int()>>(parse({"--json", "audit", "8000"})));
    CHECK(std::holds_alternative<std::function<int()>>(parse({"completion", "zsh"})));
    // Printed on stderr; the check's usage error is the parse's result, a
    // subcommand's is its run's, before it measures anything.
    CHECK(std::get<int>(parse({"-n", "0", "localhost:1"})) == 2);
    CHECK(std::get<int>(parse({"--frobnicate"})) == 2);
    CHECK(std::get<std::function<int()>>(parse({"audit", "-n", "2"}))() == 2);
    CHECK(std::get<std::function<int()>>(parse({"staircase", "--count", "101"}))() == 2);
    CHECK(std::get<std::function<int()>>(parse({"completion", "tcsh"}))() == 2);
}

TEST_CASE("check and doctor name the main command", "[cli]") {
    // `loopcheck check TARGET...` is `loopcheck TARGET...` (issue 36).
    const auto named = parse({"--json", "check", "-n", "2", "localhost:11434"});
    REQUIRE(std::holds_alternative<CheckCommand>(named));
    const auto& command = std::get<CheckCommand>(named);
    REQUIRE(command.request.targets.size() == 1);
    CHECK(command.request.targets[0] == *parse_target("localhost:11434"));
    CHECK(command.request.count == 2);
    CHECK(command.output.format == Format::json);
    // `loopcheck doctor` is the self-check, and takes no target.
    const auto doctor = parse({"doctor", "-v"});
    REQUIRE(std::holds_alternative<CheckCommand>(doctor));
    CHECK(std::get<CheckCommand>(doctor).request.targets.empty());
    CHECK(std::get<int>(parse({"doctor", "localhost:1"})) == 2);
    // A word after the target is a target, not the command's name again.
    CHECK(std::get<int>(parse({"localhost:1", "check"})) == 2);
    // An option's value named "check" is that value.
    CHECK(std::get<int>(parse({"--format", "check", "localhost:1"})) == 2);
}
