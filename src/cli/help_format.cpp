// `--help` within 80 columns: a CLI11 formatter that lays out every
// command's help itself (the description, two-column option and subcommand
// lists, the footer) and ends it with where the manual is.
#include "cli/help_format.hpp"

#include "cli/command.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <vector>

namespace loopcheck {

namespace {

/// Appends `text`'s words after `first`, wrapped at `width`, continuation
/// lines indented by `hang` spaces; a word wider than the line stands alone.
void wrap_words(std::string& out, std::string first, std::string_view text, std::size_t hang,
                std::size_t width) {
    std::string line = std::move(first);
    const std::size_t start = line.size();
    for (std::size_t pos = 0; pos < text.size();) {
        if (text[pos] == ' ') {
            ++pos;
            continue;
        }
        auto end = text.find(' ', pos);
        if (end == std::string_view::npos)
            end = text.size();
        const auto word = text.substr(pos, end - pos);
        const bool empty = line.size() <= start || line.find_first_not_of(' ') == std::string::npos;
        if (!empty && line.size() + 1 + word.size() > width) {
            out += line + '\n';
            line.assign(hang, ' ');
        } else if (!empty) {
            line += ' ';
        }
        line += word;
        pos = end;
    }
    while (!line.empty() && line.back() == ' ')
        line.pop_back();
    out += line + '\n';
}

void fit_line(std::string& out, std::string_view line, std::size_t width) {
    while (!line.empty() && line.back() == ' ')
        line.remove_suffix(1);
    if (line.size() <= width) {
        out.append(line);
        out += '\n';
        return;
    }
    const std::size_t indent = std::min(line.find_first_not_of(' '), width / 2);
    // A second column ("  0  healthy: ...", "  loopcheck scan   codebase: ...")
    // keeps its place: the first line is cut only inside it, and the
    // continuations line up under it.
    std::size_t hang = indent;
    if (const auto gap = line.find("  ", indent); gap != std::string_view::npos) {
        const auto column = line.find_first_not_of(' ', gap);
        if (column != std::string_view::npos && column <= width * 3 / 5)
            hang = column;
    }
    std::size_t cut = std::string_view::npos;
    for (std::size_t i = hang; i < line.size() && i <= width; ++i)
        if (line[i] == ' ')
            cut = i;
    if (cut == std::string_view::npos)
        cut = line.find(' ', hang);
    if (cut == std::string_view::npos) {
        out.append(line);
        out += '\n';
        return;
    }
    std::string head(line.substr(0, cut));
    while (!head.empty() && head.back() == ' ')
        head.pop_back();
    out += head + '\n';
    wrap_words(out, std::string(hang, ' '), line.substr(cut), hang, width);
}

/// "-t,--timeout DURATION", "TARGET...": an option as its row's first column.
std::string option_label(const CLI::Option* opt) {
    if (!opt->nonpositional()) {
        // A positional by its own name: "PORT...", "SPEC...", not CLI11's
        // type name ("TEXT") for a string.
        std::string label = opt->get_name(true, false);
        std::transform(label.begin(), label.end(), label.begin(),
                       [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
        if (opt->get_items_expected_max() > 1)
            label += "...";
        return label;
    }
    std::string label = opt->get_name(false, true);
    std::string type = opt->get_type_name();
    // A validator's list (":{text,json,markdown}") is the description's to say.
    type = type.substr(0, type.find(':'));
    if (opt->get_type_size() != 0 && !type.empty())
        label += " " + type;
    return label;
}

/// The usage line's word for a positional: "[TARGET...]", "SPEC...".
std::string positional_usage(const CLI::Option* opt) {
    std::string word = option_label(opt);
    return opt->get_required() ? word : "[" + word + "]";
}

/// Appends a two-column list: each label indented by two, its description
/// wrapped in the second column, on the next line when the label is wide.
void two_columns(std::string& out, const std::vector<std::pair<std::string, std::string>>& rows,
                 std::size_t width) {
    constexpr std::size_t widest_label = 24;
    std::size_t label_width = 0;
    for (const auto& [label, _] : rows)
        if (label.size() <= widest_label)
            label_width = std::max(label_width, label.size());
    const std::size_t column = 2 + label_width + 2;
    for (const auto& [label, description] : rows) {
        std::string first = "  " + label;
        if (first.size() + 2 > column) {
            out += first + '\n';
            first.clear();
        }
        first.resize(column, ' ');
        wrap_words(out, std::move(first), description, column, width);
    }
}

} // namespace

std::string fit_help_text(std::string_view text, std::size_t width) {
    std::string out;
    while (!text.empty()) {
        const auto end = text.find('\n');
        fit_line(out, text.substr(0, end), width);
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
    return out;
}

namespace {

using Rows = std::vector<std::pair<std::string, std::string>>;

/// "loopcheck staircase": the command's words from the top.
/// (CLI11 passes the chain in `name` when a parent delegates, the bare
/// name when the subcommand is asked directly: the parents say it alike.)
std::string command_words(const CLI::App* app) {
    std::string command = app->get_name();
    for (const CLI::App* up = app->get_parent(); up != nullptr; up = up->get_parent())
        command = up->get_name() + " " + command;
    return command;
}

/// Appends the usage line: the command, [OPTIONS] when it has visible
/// options, its positionals, and the COMMAND form when it has subcommands.
void usage_section(std::string& out, const std::string& command,
                   const std::vector<const CLI::Option*>& options, bool has_subcommands,
                   std::size_t width) {
    std::string usage = "Usage: " + command;
    const bool has_flags = std::any_of(options.begin(), options.end(), [](const CLI::Option* o) {
        return o->nonpositional() && !o->get_group().empty();
    });
    if (has_flags)
        usage += " [OPTIONS]";
    for (const CLI::Option* o : options)
        if (o->get_positional() && !o->nonpositional() && !o->get_group().empty())
            usage += " " + positional_usage(o);
    if (has_subcommands)
        usage += " | " + command + " COMMAND [OPTIONS]";
    wrap_words(out, "", usage, 7, width);
    out += '\n';
}

/// Appends a titled two-column list and the blank line after it.
void section(std::string& out, const std::string& title, const Rows& rows, std::size_t width) {
    out += title + ":\n";
    two_columns(out, rows, width);
    out += '\n';
}

/// Appends free text (a description, a footer) fitted to the width, if any.
void paragraph(std::string& out, const std::string& text, std::size_t width) {
    if (text.empty())
        return;
    out += fit_help_text(text, width);
    out += '\n';
}

/// Appends the positionals first, then each group of options in the order
/// declared; an option without a group is hidden.
void option_sections(std::string& out, const std::vector<const CLI::Option*>& options,
                     std::size_t width) {
    Rows arguments;
    std::vector<std::string> groups;
    for (const CLI::Option* o : options) {
        if (o->get_group().empty())
            continue; // hidden
        if (o->get_positional() && !o->nonpositional())
            arguments.emplace_back(option_label(o), o->get_description());
        else if (std::find(groups.begin(), groups.end(), o->get_group()) == groups.end())
            groups.push_back(o->get_group());
    }
    if (!arguments.empty())
        section(out, "Arguments", arguments, width);
    for (const auto& group : groups) {
        Rows rows;
        for (const CLI::Option* o : options)
            if (o->get_group() == group && o->nonpositional())
                rows.emplace_back(option_label(o), o->get_description());
        section(out, group, rows, width);
    }
}

} // namespace

std::string HelpFormatter::make_help(const CLI::App* app, std::string /*name*/,
                                     CLI::AppFormatMode /*mode*/) const {
    const std::size_t width = help_width;
    std::string out;
    const auto options = app->get_options();
    const auto subs =
        app->get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); });
    usage_section(out, command_words(app), options, !subs.empty(), width);
    paragraph(out, app->get_description(), width);
    option_sections(out, options, width);
    if (!subs.empty()) {
        Rows rows;
        for (const CLI::App* s : subs)
            rows.emplace_back(s->get_name(), s->get_description());
        if (app->get_parent() == nullptr) {
            rows.emplace_back("help", "loopcheck help COMMAND is loopcheck COMMAND --help");
            for (const CheckName& n : check_names())
                rows.emplace_back(n.name, n.summary);
        }
        section(out, "Commands (loopcheck COMMAND --help for each)", rows, width);
    }
    paragraph(out, app->get_footer(), width);
    out += help_pointer(os_);
    out += '\n';
    return out;
}

std::string_view help_pointer(Os os) {
    if (os == Os::windows)
        return "Full manual: README.md beside loopcheck.exe; loopcheck help COMMAND for each";
    return "Full manual: man loopcheck";
}

std::shared_ptr<HelpFormatter> help_formatter(Os os) {
    return std::make_shared<HelpFormatter>(os);
}

} // namespace loopcheck
