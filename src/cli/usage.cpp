// The command line's words before and after CLI11: shared options moved
// after the subcommand, `help`, did-you-mean, CLI11's errors reworded.
#include "cli/usage.hpp"

#include "cli/command.hpp"
#include "cli/option_table.hpp"
#include "cli/options.hpp"
#include "loopcheck/core/text/text.hpp"
#include "loopcheck/core/text/untrusted.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <fmt/format.h>
#include <utility>

namespace loopcheck {

namespace {

/// The main command's single-letter options ("46nqtv"), and those of them
/// that take a value ("nt"), from the option table.
std::pair<std::string, std::string> short_letters() {
    std::string all, valued;
    for (const OptionRow& row : option_table()) {
        const auto name = option_names(row)[0];
        if (!takes(row, Command::check) || row.builtin || name.size() != 2 || name[1] == '-')
            continue;
        all += name[1];
        if (takes_value(row))
            valued += name[1];
    }
    return {all, valued};
}

/// True when `word` is an option of the main command whose value is the
/// next word (CLI11 also reads --name=value and -tVALUE, which take none).
bool takes_next_word(std::string_view word) {
    if (word.starts_with("--")) {
        const OptionRow* row = find_option(Command::check, word);
        return row != nullptr && takes_value(*row);
    }
    // A bundle of short flags ends with the one that takes the value: -vt 1s.
    static const auto [all, valued] = short_letters();
    return word.size() >= 2 && word[0] == '-' && valued.find(word.back()) != std::string::npos &&
           word.find_first_not_of(all, 1) == std::string_view::npos &&
           word.find_first_of(valued, 1) == word.size() - 1;
}

bool is_subcommand(std::string_view word) {
    const auto table = subcommands();
    return std::any_of(table.begin(), table.end(),
                       [&](const CommandEntry* c) { return c->name == word; });
}

/// Every name the command answers to: --long and -s.
std::vector<std::string> option_names(const CLI::App& app) {
    std::vector<std::string> out;
    for (const CLI::Option* o : app.get_options()) {
        for (const auto& l : o->get_lnames())
            out.push_back("--" + l);
        for (const auto& s : o->get_snames())
            out.push_back("-" + s);
    }
    return out;
}

std::string command_words(const CLI::App& app) {
    return app.get_parent() != nullptr ? fmt::format("loopcheck {}", app.get_name())
                                       : std::string("loopcheck");
}

/// "--count = abc" -> ("--count", "abc"), from "Could not convert: ...".
/// A whole number too large to convert is out of the option's bounds, and
/// the message says them.
std::string conversion_message(std::string_view what, const CLI::App& app) {
    constexpr std::string_view prefix = "Could not convert: ";
    if (what.starts_with(prefix)) {
        what.remove_prefix(prefix.size());
        const auto eq = what.find(" = ");
        if (eq != std::string_view::npos) {
            const auto option = what.substr(0, eq);
            const auto value = what.substr(eq + 3);
            const auto digits = value.find_first_of("+-") == 0 ? value.substr(1) : value;
            const bool whole =
                !digits.empty() && std::all_of(digits.begin(), digits.end(),
                                               [](char c) { return c >= '0' && c <= '9'; });
            const std::string command = app.get_parent() != nullptr ? app.get_name() : "";
            if (whole)
                if (auto bad = bounds_error(command, option, value))
                    return *bad;
            return fmt::format("{} takes a whole number, not '{}'", option, value);
        }
    }
    return fmt::format("a value is not understood: {}", what);
}

} // namespace

namespace {

/// The index of the first word that is neither an option nor an option's
/// value: where a subcommand's name (or the check's) may stand; none at
/// "--" or the end.
std::optional<std::size_t> first_word(const std::vector<std::string>& words) {
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string_view w = words[i];
        if (w == "--")
            return std::nullopt;
        if (w.size() > 1 && w[0] == '-') {
            if (takes_next_word(w))
                ++i;
            continue;
        }
        return i;
    }
    return std::nullopt;
}

} // namespace

std::optional<std::size_t> subcommand_index(const std::vector<std::string>& words) {
    const auto at = first_word(words);
    if (at && (is_subcommand(words[*at]) || words[*at] == "help"))
        return at;
    return std::nullopt;
}

Result<std::vector<std::string>> drop_check_name(std::vector<std::string> words) {
    const auto found = first_word(words);
    if (!found)
        return words;
    const std::size_t at = *found;
    const auto names = check_names();
    const auto named = std::find_if(names.begin(), names.end(),
                                    [&](const CheckName& n) { return n.name == words[at]; });
    if (named == names.end())
        return words;
    words.erase(words.begin() + static_cast<std::ptrdiff_t>(at));
    if (!named->takes_targets)
        for (std::size_t i = at; i < words.size(); ++i) {
            const std::string_view w = words[i];
            if (w.size() > 1 && w[0] == '-') {
                if (takes_next_word(w))
                    ++i;
                continue;
            }
            return usage_error(fmt::format("{} checks this machine and takes no target; "
                                           "loopcheck check {} checks that one",
                                           named->name, Untrusted(std::string(w)).escaped()));
        }
    return words;
}

std::vector<std::string> hoist_global_options(std::vector<std::string> words) {
    const auto at = subcommand_index(words);
    if (!at)
        return words;
    std::vector<std::string> out;
    if (words[*at] == "help") {
        // `loopcheck help [COMMAND]`: that command's --help.
        if (*at + 1 < words.size() && is_subcommand(words[*at + 1]))
            out.push_back(words[*at + 1]);
        out.emplace_back("--help");
        return out;
    }
    // --help and --version stay the main command's: `loopcheck --help audit`
    // is the main help, as before.
    std::vector<std::string> moved;
    for (std::size_t i = 0; i < *at; ++i) {
        const std::string& w = words[i];
        const bool main_only = w == "-h" || w == "--help" || w == "-V" || w == "--version";
        (main_only ? out : moved).push_back(w);
    }
    out.push_back(words[*at]);
    out.insert(out.end(), moved.begin(), moved.end());
    out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(*at) + 1, words.end());
    return out;
}

std::optional<std::string> closest_word(std::string_view typed,
                                        const std::vector<std::string>& choices) {
    std::optional<std::string> best;
    std::size_t best_distance = 3; // more than 2 edits is another word
    for (const auto& c : choices) {
        const std::size_t d = edit_distance(typed, c);
        if (d < best_distance && d * 2 < std::max(typed.size(), c.size())) {
            best_distance = d;
            best = c;
        }
    }
    // A prefix names the option it begins: --time for --timeout.
    if (!best && typed.size() >= 4)
        for (const auto& c : choices)
            if (c.starts_with(typed))
                return c;
    return best;
}

std::optional<std::string> unknown_command(std::string_view word) {
    if (word.empty() || word.find_first_of(":./[@") != std::string_view::npos ||
        word.find_first_not_of("0123456789") == std::string_view::npos)
        return std::nullopt;
    std::vector<std::string> names;
    for (const CommandEntry* c : subcommands())
        names.emplace_back(c->name);
    for (const CheckName& n : check_names())
        names.emplace_back(n.name);
    const auto near = closest_word(word, names);
    if (!near)
        return std::nullopt;
    return fmt::format("unknown command '{}'; did you mean '{}'? see loopcheck --help", word,
                       *near);
}

std::optional<std::string> unknown_help_topic(const std::vector<std::string>& words) {
    const auto at = subcommand_index(words);
    if (!at || words[*at] != "help" || *at + 1 >= words.size())
        return std::nullopt;
    const std::string& topic = words[*at + 1];
    if (topic.empty() || topic.front() == '-' || is_subcommand(topic))
        return std::nullopt;
    for (const CheckName& n : check_names())
        if (topic == n.name)
            return std::nullopt; // `help check`: the main help
    std::vector<std::string> names;
    for (const CommandEntry* c : subcommands())
        names.emplace_back(c->name);
    if (const auto near = closest_word(topic, names))
        return fmt::format("unknown command '{}'; did you mean '{}'? see loopcheck --help", topic,
                           *near);
    return fmt::format("unknown command '{}' (loopcheck help takes a command's name); see "
                       "loopcheck --help",
                       topic);
}

std::string usage_message(const CLI::ParseError& error, const CLI::App& app) {
    const std::string what = error.what();
    const std::string see = fmt::format("see {} --help", command_words(app));
    if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
        // "The following argument(s) was/were not expected: A B"
        const auto colon = what.find(": ");
        std::string extra = colon == std::string::npos ? what : what.substr(colon + 2);
        extra = extra.substr(0, extra.find(' '));
        if (extra.size() > 1 && extra[0] == '-') {
            const std::string name = extra.substr(0, extra.find('='));
            if (const auto near = closest_word(name, option_names(app)))
                return fmt::format("unknown option '{}'; did you mean '{}'? {}", name, *near, see);
            return fmt::format("unknown option '{}'; {}", name, see);
        }
        return fmt::format("unexpected word '{}' ({} takes no more); {}", extra, command_words(app),
                           see);
    }
    if (dynamic_cast<const CLI::ConversionError*>(&error) != nullptr)
        return fmt::format("{}; {}", conversion_message(what, app), see);
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr) {
        // "--timeout: 1 required DURATION missing", "Expected exactly 1 ..."
        const auto colon = what.find(':');
        if (colon != std::string::npos && what.starts_with("-"))
            return fmt::format("{} needs a value; {}", what.substr(0, colon), see);
        return fmt::format("an option is missing its value; {}", see);
    }
    if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
        // "target is required": the positional's name, as --help shows it.
        std::string name = what.substr(0, what.find(' '));
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
        return fmt::format("{} needs at least one {}; {}", command_words(app), name, see);
    }
    if (dynamic_cast<const CLI::ValidationError*>(&error) != nullptr) {
        // "--syn-retries: Value 300 not in range 0 to 253"
        return fmt::format("{}; {}", what, see);
    }
    return fmt::format("{}; {}", what, see);
}

} // namespace loopcheck
