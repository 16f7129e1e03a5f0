// The man page's option lists, docs/usage.md's option tables and the
// completion scripts, written from the option table. The man page and
// usage.md are prose with generated parts between marker lines; the
// completions are generated whole.
#include "cli/docgen.hpp"

#include "cli/completion.hpp"
#include "cli/option_table.hpp"

#include <fmt/format.h>

namespace loopcheck {

namespace {

/// Appends `word` to `list`, after `separator` unless `list` is empty.
void join_to(std::string& list, std::string_view separator, std::string_view word) {
    if (!list.empty())
        list += separator;
    list += word;
}

std::string_view display_name(Command c) {
    return c == Command::check ? std::string_view("check") : command_word(c);
}

/// The rows `c` takes, positionals first, then options in table order, -h
/// and -V last.
std::vector<const OptionRow*> rows_of(Command c) {
    std::vector<const OptionRow*> out;
    for (const bool positional : {true, false})
        for (const bool builtin : {false, true})
            for (const OptionRow& row : option_table())
                if (takes(row, c) && (row.kind == Kind::positional) == positional &&
                    row.builtin == builtin)
                    out.push_back(&row);
    return out;
}

/// Whether `row` is the check's as well as a subcommand's: shown once, in
/// the check's list, and named in the others'.
bool shared(const OptionRow& row) {
    return takes(row, Command::check) && row.commands != only(Command::check);
}

std::string_view long_text(const OptionRow& row) {
    return row.text.empty() ? row.help : row.text;
}

// --- the man page ---------------------------------------------------------

std::string roff_escaped(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else
            out += c;
    }
    return out;
}

/// "-t,--timeout" with "DURATION" as a .TP tag line.
std::string roff_tag(const OptionRow& row) {
    if (row.kind == Kind::positional)
        return fmt::format(".I {}{}", row.value,
                           row.required || row.commands == only(Command::staircase) ? "" : " ...");
    std::string tag = ".BR";
    bool first = true;
    for (const auto name : option_names(row)) {
        if (name.empty())
            continue;
        tag += first ? " " : " \", \" ";
        tag += roff_escaped(name);
        first = false;
    }
    if (!row.value.empty())
        tag += fmt::format(" \" \" \\fI{}\\fR", row.value);
    return tag;
}

std::string man_options(Command c) {
    std::string out;
    std::vector<const OptionRow*> also;
    for (const OptionRow* row : rows_of(c)) {
        if (c != Command::check && shared(*row)) {
            also.push_back(row);
            continue;
        }
        out += ".TP\n" + roff_tag(*row) + "\n" + roff_text(long_text(*row));
        if (!row->default_text.empty())
            out += fmt::format(" (default {})", roff_escaped(row->default_text));
        out += "\n";
    }
    if (!also.empty()) {
        out += ".PP\nIt also takes\n.BR";
        for (std::size_t i = 0; i < also.size(); ++i) {
            const char* sep = i == 0 ? " " : (i + 1 == also.size() ? " \" and \" " : " \", \" ");
            // \% : a name is never hyphenated across lines.
            out += sep + ("\\%" + roff_escaped(long_name(*also[i])));
        }
        out += "\nas the main command does.\n";
    }
    return out;
}

// --- docs/usage.md --------------------------------------------------------

std::string md_cell(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '|')
            out += '\\';
        out += c;
    }
    return out;
}

std::string md_names(const OptionRow& row) {
    if (row.kind == Kind::positional)
        return fmt::format("`{}`", row.value);
    std::string names;
    for (const auto name : option_names(row))
        if (!name.empty())
            join_to(names, ", ", std::string(name));
    return fmt::format("`{}{}{}`", names, row.value.empty() ? "" : " ", row.value);
}

std::string usage_table(Command c) {
    std::string out = "| option | default | what it does | example |\n|---|---|---|---|\n";
    std::vector<const OptionRow*> also;
    for (const OptionRow* row : rows_of(c)) {
        if (c != Command::check && shared(*row)) {
            also.push_back(row);
            continue;
        }
        const std::string example =
            row->example.empty() ? "" : fmt::format("`{}`", md_cell(row->example));
        out += fmt::format("| {} | {} | {} | {} |\n", md_cell(md_names(*row)),
                           row->default_text.empty() ? "" : fmt::format("`{}`", row->default_text),
                           md_cell(long_text(*row)), example);
    }
    if (!also.empty()) {
        std::string names;
        for (const OptionRow* row : also)
            join_to(names, ", ", fmt::format("`{}`", long_name(*row)));
        out += fmt::format("| {} | | as for the check ([Options](#options)) | |\n", names);
    }
    return out;
}

std::string not_for_table() {
    std::string out = "| option | not for | why |\n|---|---|---|\n";
    for (const OptionRow& row : option_table())
        for (std::size_t i = 0; i < row.not_for.size(); ++i) {
            const NotFor& n = row.not_for[i];
            if (n.why.empty())
                continue;
            // Commands with the same reason share a line.
            bool said = false;
            for (std::size_t j = 0; j < i; ++j)
                said = said || row.not_for[j].why == n.why;
            if (said)
                continue;
            std::string commands;
            for (std::size_t j = i; j < row.not_for.size(); ++j)
                if (row.not_for[j].why == n.why)
                    join_to(commands, ", ",
                            fmt::format("`{}`", command_word(row.not_for[j].command)));
            std::string names;
            for (const auto name : option_names(row))
                if (!name.empty())
                    join_to(names, ", ", fmt::format("`{}`", name));
            out += fmt::format("| {} | {} | {} |\n", names, commands, md_cell(n.why));
        }
    return out;
}

} // namespace

std::string roff_text(std::string_view markdown) {
    std::string out;
    for (std::size_t i = 0; i < markdown.size(); ++i) {
        const char c = markdown[i];
        if (c == '`') {
            const auto end = markdown.find('`', i + 1);
            if (end != std::string_view::npos) {
                out += "\\fB" + roff_escaped(markdown.substr(i + 1, end - i - 1)) + "\\fR";
                i = end;
                continue;
            }
        }
        if (c == '[') {
            // [text](link): the text; the link is the web's.
            const auto close = markdown.find("](", i);
            const auto end = close == std::string_view::npos ? close : markdown.find(')', close);
            if (end != std::string_view::npos) {
                out += roff_text(markdown.substr(i + 1, close - i - 1));
                i = end;
                continue;
            }
        }
        out += roff_escaped(std::string_view(&markdown[i], 1));
    }
    if (!out.empty() && (out.front() == '.' || out.front() == '\''))
        out.insert(0, "\\&");
    return out;
}

bool replace_between(std::string& text, std::string_view begin, std::string_view end,
                     const std::string& body) {
    const auto b = text.find(begin);
    if (b == std::string::npos)
        return false;
    const auto body_start = text.find('\n', b);
    if (body_start == std::string::npos)
        return false;
    const auto e = text.find(end, body_start);
    if (e == std::string::npos)
        return false;
    const auto body_end = text.rfind('\n', e) + 1;
    text.replace(body_start + 1, body_end - body_start - 1, body);
    return true;
}

Generated generate_files(std::string (*read)(const std::string& path)) {
    Generated out;
    std::string man = read("docs/loopcheck.1");
    std::string usage = read("docs/usage.md");
    for (std::size_t i = 0; i < command_count; ++i) {
        const auto c = static_cast<Command>(i);
        const auto name = display_name(c);
        if (!replace_between(man, fmt::format(".\\\" BEGIN options {}:", name),
                             fmt::format(".\\\" END options {}", name), man_options(c)))
            out.errors.push_back(
                fmt::format("docs/loopcheck.1 has no .\\\" BEGIN/END options {} markers", name));
        if (!replace_between(usage, fmt::format("<!-- BEGIN options {}:", name),
                             fmt::format("<!-- END options {}", name), usage_table(c)))
            out.errors.push_back(
                fmt::format("docs/usage.md has no <!-- BEGIN/END options {} markers", name));
    }
    if (!replace_between(usage, "<!-- BEGIN not-for:", "<!-- END not-for", not_for_table()))
        out.errors.emplace_back("docs/usage.md has no <!-- BEGIN/END not-for markers");
    out.files.push_back({"docs/loopcheck.1", std::move(man)});
    out.files.push_back({"docs/usage.md", std::move(usage)});
    for (const Shell s : {Shell::bash, Shell::zsh, Shell::fish, Shell::powershell})
        out.files.push_back(
            {fmt::format("completions/{}", completion_file(s)), completion_script(s)});
    return out;
}

} // namespace loopcheck
