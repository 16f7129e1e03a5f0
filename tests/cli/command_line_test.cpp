// parse_command_line's shortcut: words that can only be targets are read
// without CLI11, and must give exactly what CLI11 gives.
#include "cli/cli.hpp"
#include "support/catch.hpp"

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

std::optional<std::vector<std::string>> plain(std::vector<std::string> words) {
    Argv a(std::move(words));
    return plain_targets(a.argc(), a.argv());
}

ParsedCommandLine parse(std::vector<std::string> words, bool shortcut) {
    Argv a(std::move(words));
    return parse_command_line(a.argc(), a.argv(), shortcut);
}

} // namespace

TEST_CASE("plain_targets: only words that CLI11 could read as nothing but targets", "[cli]") {
    CHECK(plain({}) == std::vector<std::string>{});
    CHECK(plain({"localhost:11434"}) == std::vector<std::string>{"localhost:11434"});
    CHECK(plain({"11434", "[::1]:80", "http://localhost/v1"}) ==
          std::vector<std::string>{"11434", "[::1]:80", "http://localhost/v1"});
    for (const auto& words : std::vector<std::vector<std::string>>{
             {"-n", "2", "localhost:1"}, {"localhost:1", "--json"}, {"--", "localhost:1"},
             {"-"}, {""}, {"localhost:1", ""}, {"audit"}, {"wait", "localhost:1"},
             {"listen", "127.0.0.1:0"}, {"scan"}, {"scan", "src"}, {"staircase"},
             {"localhost:1", "-vh"}, {"--help"}, {"-V"}}) {
        INFO(words.front());
        CHECK_FALSE(plain(words).has_value());
    }
}

TEST_CASE("the shortcut reads a command line exactly as CLI11 does", "[cli]") {
    const std::vector<std::vector<std::string>> lines = {
        {},
        {"localhost:11434"},
        {"11434"},
        {"http://localhost:11434/v1"},
        {"[::1]:8080", "127.0.0.1:9"},
        {"name with space:80"},
        {"localhost:0"}, // bad targets are the check's to report, after the parse
        {"bad$:1"},
        {"-4", "localhost:1"}, // not plain: CLI11 both times
    };
    for (const auto& words : lines) {
        INFO((words.empty() ? std::string("(no words)") : words.front()));
        const auto fast = parse(words, true);
        const auto full = parse(words, false);
        REQUIRE(fast.index() == full.index());
        if (const int* code = std::get_if<int>(&fast))
            CHECK(*code == std::get<int>(full));
        if (const CheckCommand* command = std::get_if<CheckCommand>(&fast)) {
            CHECK(*command == std::get<CheckCommand>(full));
        }
    }
}

TEST_CASE("the shortcut's options are the check's defaults", "[cli]") {
    const auto parsed = parse({"localhost:11434"}, true);
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
