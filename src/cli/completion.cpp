// The completion scripts for bash, zsh, fish and PowerShell, written from
// the option table: each shell gets the same facts (commands, each
// command's options, the values an option offers, what its arguments are)
// in its own syntax. Nothing here is typed per option.
#include "cli/completion.hpp"

#include "cli/command.hpp"
#include "cli/option_table.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <vector>

namespace loopcheck {

namespace {

/// Appends `word` to `list`, after `separator` unless `list` is empty.
void join_to(std::string& list, std::string_view separator, std::string_view word) {
    if (!list.empty())
        list += separator;
    list += word;
}

constexpr std::string_view header_note =
    "completion for loopcheck.\n# Generated from the option table (src/cli/option_table.cpp) "
    "by `loopcheck completion {}`:\n# do not edit. Regenerate: loopcheck_docgen --write . "
    "(docs/hacking.md).";

/// Durations to start from, for every option whose value is one.
constexpr std::string_view durations = "25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m";
/// Target prefixes (the user types the port).
constexpr std::string_view target_words =
    "localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:";
/// listen's SPECs: port 0 picks a free one.
constexpr std::string_view spec_words = "127.0.0.1:0 [::1]:0 localhost: dual:";
constexpr std::string_view help_summary = "loopcheck help COMMAND is loopcheck COMMAND --help";

/// One command as the completions see it.
struct CommandFacts {
    Command command;
    std::string_view word;    ///< "" for the check
    std::string_view summary; ///< one line, for the shells that show one
    std::vector<const OptionRow*> options;
    const OptionRow* positional = nullptr;
};

/// The subcommands first, the check last: a shell's `case` reads the
/// check's as the default (`*`).
std::vector<CommandFacts> commands() {
    std::vector<CommandFacts> out;
    for (std::size_t i = 0; i < command_count; ++i) {
        CommandFacts f{static_cast<Command>(i), command_word(static_cast<Command>(i)), {}, {}};
        for (const CommandEntry* e : subcommands())
            if (e->name == f.word)
                f.summary = e->summary;
        for (const OptionRow& row : option_table())
            if (takes(row, f.command)) {
                if (row.kind == Kind::positional) {
                    // The first: wait's COMMAND after `--` is not completed.
                    if (f.positional == nullptr)
                        f.positional = &row;
                } else
                    f.options.push_back(&row);
            }
        out.push_back(std::move(f));
    }
    std::rotate(out.begin(), out.begin() + 1, out.end());
    return out;
}

const CommandFacts& check_facts(const std::vector<CommandFacts>& all) {
    return all.back();
}

/// The subcommands' words and help, as offered where a command may come.
std::vector<std::pair<std::string_view, std::string_view>> command_words() {
    std::vector<std::pair<std::string_view, std::string_view>> out;
    for (const auto& f : commands())
        if (!f.word.empty())
            out.emplace_back(f.word, f.summary);
    out.emplace_back("help", help_summary);
    for (const CheckName& n : check_names())
        out.emplace_back(n.name, n.summary);
    std::sort(out.begin(), out.end());
    return out;
}

std::string joined_command_words() {
    std::string out;
    for (const auto& [word, _] : command_words())
        join_to(out, " ", std::string(word));
    return out;
}

/// The command words after which the check's own options or targets are
/// not offered: every word but the check's names (`loopcheck check -`
/// offers the check's options; `loopcheck doctor` takes no target).
std::string words_ending_the_check(bool targets) {
    std::string out;
    for (const auto& entry : command_words()) {
        // Not a structured binding: clang 14 cannot capture one in a lambda.
        const std::string_view word = entry.first;
        const auto names = check_names();
        const auto name = std::find_if(names.begin(), names.end(),
                                       [&](const CheckName& n) { return n.name == word; });
        if (name == names.end() || (targets && !name->takes_targets))
            join_to(out, " ", std::string(word));
    }
    return out;
}

/// The words `loopcheck help` takes: every command but help.
std::string help_topics() {
    std::string out;
    for (const auto& [word, _] : command_words())
        if (word != "help")
            join_to(out, " ", std::string(word));
    return out;
}

/// Every name of the command's options, space-separated.
std::string option_words(const CommandFacts& f) {
    std::string out;
    for (const OptionRow* row : f.options)
        for (const auto name : option_names(*row))
            if (!name.empty())
                join_to(out, " ", std::string(name));
    return out;
}

/// The words offered for a value or an argument completed from a list;
/// none for a file name or a number.
std::string_view offered(const OptionRow& row) {
    switch (row.complete) {
    case Complete::choices:
        return row.choices;
    case Complete::duration:
        return durations;
    case Complete::target:
        return target_words;
    case Complete::spec:
        return spec_words;
    case Complete::nothing:
    case Complete::path:
    case Complete::program:
        break;
    }
    return {};
}

/// Each option name that takes a value, with what it offers: the first row
/// of that name (the check's, where it has one) gives every command's.
std::map<std::string_view, std::string_view> value_options() {
    std::map<std::string_view, std::string_view> out;
    for (const OptionRow& row : option_table())
        if (takes_value(row))
            for (const auto name : option_names(row))
                if (!name.empty())
                    out.emplace(name, offered(row));
    return out;
}

/// The option names whose value is a file name ("--baseline|--output"),
/// as a shell's `case` pattern.
std::string path_options() {
    std::string out;
    std::vector<std::string_view> names;
    for (const OptionRow& row : option_table())
        if (takes_value(row) && row.complete == Complete::path)
            for (const auto name : option_names(row))
                if (!name.empty())
                    names.push_back(name);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (const auto name : names)
        join_to(out, "|", std::string(name));
    return out;
}

/// A value that one command offers other than value_options() says (scan's
/// --format adds its CI formats): the command's word, the option's name and
/// the words.
struct OwnValue {
    std::string_view command;
    std::string_view name;
    std::string_view words;
};

std::vector<OwnValue> own_values() {
    const auto common = value_options();
    std::vector<OwnValue> out;
    for (const OptionRow& row : option_table())
        if (takes_value(row))
            for (const auto name : option_names(row))
                if (!name.empty() && common.at(name) != offered(row))
                    for (std::size_t i = 0; i < command_count; ++i)
                        if (takes(row, static_cast<Command>(i)))
                            out.push_back(
                                {command_word(static_cast<Command>(i)), name, offered(row)});
    return out;
}

/// `text` inside single quotes for a POSIX shell (bash, zsh, fish).
std::string single_quoted(std::string_view text) {
    std::string out = "'";
    for (const char c : text)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// Each space-separated word of `words` single-quoted: zsh would read
/// `[::1]:` as a pattern.
std::string each_quoted(std::string_view words) {
    std::string out;
    while (!words.empty()) {
        const auto space = words.find(' ');
        join_to(out, " ", single_quoted(words.substr(0, space)));
        words = space == std::string_view::npos ? std::string_view() : words.substr(space + 1);
    }
    return out;
}

/// `text` inside single quotes for fish, which escapes with a backslash.
std::string fish_quoted(std::string_view text) {
    std::string out = "'";
    for (const char c : text) {
        if (c == '\'' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "'";
}

/// `text` inside single quotes for PowerShell (a quote is doubled).
std::string ps_quoted(std::string_view text) {
    std::string out = "'";
    for (const char c : text)
        out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

/// The body of a `case` on "COMMAND:OPTION" (the check's COMMAND is
/// empty), shared by bash and zsh: `scan:--format) echo '...' ;;` for a
/// command's own values first, then `*:--format) echo 'text json markdown' ;;`.
std::string value_case(std::string_view open, std::string_view close) {
    std::string out;
    for (const auto& own : own_values())
        out += fmt::format("        {}{}:{}{} echo {} ;;\n", open, own.command, own.name, close,
                           single_quoted(own.words));
    std::map<std::string_view, std::vector<std::string_view>> by_offer;
    for (const auto& [name, words] : value_options())
        by_offer[words].push_back(name);
    for (const auto& [words, names] : by_offer) {
        std::string pattern;
        for (const auto name : names)
            join_to(pattern, "|", fmt::format("*:{}", name));
        out +=
            fmt::format("        {}{}{} echo {} ;;\n", open, pattern, close, single_quoted(words));
    }
    return out;
}

std::string bash_script() {
    std::string out = fmt::format("# bash {}\n", fmt::format(header_note, "bash"));
    out += "_loopcheck_options() {\n    case \"$1\" in\n";
    for (const auto& f : commands())
        out += fmt::format("        {}) echo {} ;;\n", f.word.empty() ? "*" : f.word,
                           single_quoted(option_words(f)));
    out += "    esac\n}\n\n";
    out += "# The words the value of option $1 of command $2 may be; fails for an\n"
           "# option that takes none.\n";
    out += "_loopcheck_value() {\n    case \"${2-}:$1\" in\n";
    out += value_case("", ")");
    out += "        *) return 1 ;;\n    esac\n}\n\n";
    const std::string words = joined_command_words();
    std::string pattern = words;
    std::replace(pattern.begin(), pattern.end(), ' ', '|');
    out += fmt::format(R"SH(_loopcheck() {{
    local cur prev sub="" word i targets=0 values
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    # The subcommand is the first word naming one, wherever options put it;
    # a word before it that is neither an option nor its value is a target.
    for ((i = 1; i < COMP_CWORD; i++)); do
        word="${{COMP_WORDS[i]}}"
        case "$word" in
            {}) sub="$word"; break ;;
            -*) _loopcheck_value "$word" >/dev/null && i=$((i + 1)) ;;
            *) targets=$((targets + 1)) ;;
        esac
    done
    case "$prev" in
        {}) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    if values=$(_loopcheck_value "$prev" "$sub"); then
        COMPREPLY=($(compgen -W "$values" -- "$cur"))
        return
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(_loopcheck_options "$sub")" -- "$cur"))
        return
    fi
    case "$sub" in
        help) COMPREPLY=($(compgen -W {} -- "$cur")); return ;;
)SH",
                       pattern, path_options(), single_quoted(help_topics()));
    for (const auto& f : commands()) {
        if (f.word.empty() || f.positional == nullptr)
            continue;
        const OptionRow& p = *f.positional;
        if (p.complete == Complete::path)
            out += fmt::format("        {}) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n",
                               f.word);
        else if (p.complete == Complete::program)
            out += fmt::format("        {}) COMPREPLY=($(compgen -c -- \"$cur\")); return ;;\n",
                               f.word);
        else if (offered(p).empty())
            out += fmt::format("        {}) return ;;\n", f.word);
        else
            out += fmt::format("        {}) COMPREPLY=($(compgen -W {} -- \"$cur\")){} ;;\n",
                               f.word, single_quoted(offered(p)),
                               p.complete == Complete::choices ? "; return" : "");
    }
    out += fmt::format(R"SH(        "")
            # Before any target, the subcommands come first: all of them on an
            # empty word, the matching ones on a prefix (targets when none match).
            if ((targets == 0)); then
                COMPREPLY=($(compgen -W {} -- "$cur"))
                ((${{#COMPREPLY[@]}} > 0)) && return
            fi
            COMPREPLY=($(compgen -W {} -- "$cur")) ;;
        *) return ;;
    esac
    compopt -o nospace 2>/dev/null
}}
complete -F _loopcheck loopcheck
)SH",
                       single_quoted(words),
                       single_quoted(offered(*check_facts(commands()).positional)));
    return out;
}

std::string zsh_script() {
    std::string out = "#compdef loopcheck\n";
    out += fmt::format("# zsh {}\n", fmt::format(header_note, "zsh"));
    out += "# Put it in a folder on $fpath, or source it after compinit.\n\n";
    // Options with their help, as compadd -d shows them.
    out += "_loopcheck_options() {\n    case $1 in\n";
    for (const auto& f : commands()) {
        std::string names, descriptions;
        for (const OptionRow* row : f.options)
            for (const auto name : option_names(*row))
                if (!name.empty()) {
                    join_to(names, " ", single_quoted(name));
                    join_to(descriptions, " ",
                            single_quoted(fmt::format("{:<16} {}", name, row->help)));
                }
        out += fmt::format("        ({}) reply=({}); descriptions=({}) ;;\n",
                           f.word.empty() ? "*" : f.word, names, descriptions);
    }
    out += "    esac\n}\n\n";
    out += "# The words the value of option $1 of command $2 may be; fails for an\n"
           "# option that takes none.\n";
    out += "_loopcheck_value() {\n    case $2:$1 in\n";
    out += value_case("(", ")");
    out += "        (*) return 1 ;;\n    esac\n}\n\n";
    std::string pattern = joined_command_words();
    std::replace(pattern.begin(), pattern.end(), ' ', '|');
    std::string commands_array, commands_help;
    for (const auto& [word, summary] : command_words()) {
        join_to(commands_array, " ", single_quoted(word));
        join_to(commands_help, " ", single_quoted(fmt::format("{:<10} {}", word, summary)));
    }
    out += fmt::format(R"SH(_loopcheck() {{
    local cur=${{words[CURRENT]}} prev=${{words[CURRENT-1]}} sub= word values
    local -i i targets=0
    local -a reply descriptions
    local -a commands=({}) command_help=({})
    # The subcommand is the first word naming one, wherever options put it;
    # a word before it that is neither an option nor its value is a target.
    for ((i = 2; i < CURRENT; i++)); do
        word=${{words[i]}}
        case $word in
            ({}) sub=$word; break ;;
            (-*) _loopcheck_value "$word" >/dev/null && ((i++)) ;;
            (*) ((targets++)) ;;
        esac
    done
    case $prev in
        ({}) _files; return ;;
    esac
    if values=$(_loopcheck_value "$prev" "$sub"); then
        compadd -- ${{=values}}
        return
    fi
    if [[ $cur == -* ]]; then
        _loopcheck_options "$sub"
        compadd -l -d descriptions -- $reply
        return
    fi
    case $sub in
        (help) compadd -- ${{commands:#help}}; return ;;
)SH",
                       commands_array, commands_help, pattern, path_options());
    for (const auto& f : commands()) {
        if (f.word.empty() || f.positional == nullptr)
            continue;
        const OptionRow& p = *f.positional;
        if (p.complete == Complete::path)
            out += fmt::format("        ({}) _files ;;\n", f.word);
        else if (p.complete == Complete::program)
            out += fmt::format("        ({}) _command_names -e ;;\n", f.word);
        else if (offered(p).empty())
            out += fmt::format("        ({}) return 1 ;;\n", f.word);
        else
            out += fmt::format("        ({}) compadd {}-- {} ;;\n", f.word,
                               p.complete == Complete::choices ? "" : "-S '' ",
                               each_quoted(offered(p)));
    }
    out += fmt::format(R"SH(        ('')
            # Before any target, the subcommands come first (targets when none
            # matches the word).
            if ((targets == 0)) && [[ -n ${{(M)commands:#$cur*}} ]]; then
                compadd -l -d command_help -- $commands
                return
            fi
            compadd -S '' -- {} ;;
        (*) return 1 ;;
    esac
}}

# Autoloaded from $fpath the file is _loopcheck's body; sourced, it defines
# the function and registers it.
if [[ ${{zsh_eval_context[-1]}} == loadautofunc ]]; then
    _loopcheck "$@"
elif (( $+functions[compdef] )); then
    compdef _loopcheck loopcheck
fi
)SH",
                       each_quoted(offered(*check_facts(commands()).positional)));
    return out;
}

std::string fish_script() {
    std::string out = fmt::format("# fish {}\n\n", fmt::format(header_note, "fish"));
    const std::string words = joined_command_words();
    out += "# No file names unless an argument is one (scan's PATH).\n";
    out += "complete -c loopcheck -f\n\n";
    out += "# The commands, where one may come: before any other word.\n";
    for (const auto& [word, summary] : command_words())
        out += fmt::format("complete -c loopcheck -n __fish_use_subcommand -a {} -d {}\n", word,
                           fish_quoted(summary));
    out += fmt::format("complete -c loopcheck -n '__fish_seen_subcommand_from help' -a {}\n",
                       fish_quoted(help_topics()));
    for (const auto& f : commands()) {
        const std::string when =
            f.word.empty()
                ? fmt::format("'not __fish_seen_subcommand_from {}'", words_ending_the_check(false))
                : fmt::format("'__fish_seen_subcommand_from {}'", f.word);
        out += fmt::format("\n# loopcheck {}\n", f.word.empty() ? "[TARGET...]" : f.word);
        for (const OptionRow* row : f.options) {
            std::string line = fmt::format("complete -c loopcheck -n {}", when);
            for (const auto name : option_names(*row)) {
                if (name.starts_with("--"))
                    line += fmt::format(" -l {}", name.substr(2));
                else if (!name.empty())
                    line += fmt::format(" -s {}", name.substr(1));
            }
            if (takes_value(*row) && row->complete == Complete::path) {
                line += " -r -F";
            } else if (takes_value(*row)) {
                line += " -x";
                if (!offered(*row).empty())
                    line += fmt::format(" -a {}", fish_quoted(offered(*row)));
            }
            out += line + fmt::format(" -d {}\n", fish_quoted(row->help));
        }
        if (f.positional != nullptr) {
            const OptionRow& p = *f.positional;
            const std::string at = f.word.empty()
                                       ? fmt::format("'not __fish_seen_subcommand_from {}; and not "
                                                     "__fish_use_subcommand'",
                                                     words_ending_the_check(true))
                                       : when;
            if (p.complete == Complete::path)
                out += fmt::format("complete -c loopcheck -n {} -F\n", at);
            else if (p.complete == Complete::program)
                out +=
                    fmt::format("complete -c loopcheck -n {} -a '(__fish_complete_command)'\n", at);
            else if (!offered(p).empty())
                out +=
                    fmt::format("complete -c loopcheck -n {} -a {}\n", at, fish_quoted(offered(p)));
        }
        if (f.word.empty() && f.positional != nullptr)
            // Before the first word, targets as well as the commands.
            out += fmt::format("complete -c loopcheck -n __fish_use_subcommand -a {}\n",
                               fish_quoted(offered(*f.positional)));
    }
    return out;
}

std::string powershell_script() {
    std::string out = fmt::format("# PowerShell {}\n", fmt::format(header_note, "powershell"));
    out += "# Load it in $PROFILE: loopcheck completion powershell | Out-String | "
           "Invoke-Expression\n\n";
    out += "Register-ArgumentCompleter -Native -CommandName loopcheck, loopcheck.exe "
           "-ScriptBlock {\n";
    out += "    param($wordToComplete, $commandAst, $cursorPosition)\n\n";
    out += "    # Each command's options, with their help.\n";
    out += "    $options = @{\n";
    for (const auto& f : commands()) {
        // The check answers to '' and to its names (check, doctor).
        std::vector<std::string_view> keys{f.word};
        if (f.word.empty())
            for (const CheckName& n : check_names())
                keys.push_back(n.name);
        for (const std::string_view key : keys) {
            out += fmt::format("        {} = @(\n", ps_quoted(key));
            for (const OptionRow* row : f.options)
                for (const auto name : option_names(*row))
                    if (!name.empty())
                        out += fmt::format("            @({}, {})\n", ps_quoted(name),
                                           ps_quoted(row->help));
            out += "        )\n";
        }
    }
    out += "    }\n";
    out += "    # The words an option's value may be.\n";
    out += "    $values = @{\n";
    for (const auto& [name, words] : value_options())
        out += fmt::format("        {} = {}\n", ps_quoted(name), ps_quoted(words));
    out += "    }\n";
    out += "    # A command's own values for an option, by 'COMMAND OPTION'.\n";
    out += "    $ownValues = @{\n";
    for (const auto& own : own_values())
        out +=
            fmt::format("        {} = {}\n", ps_quoted(fmt::format("{} {}", own.command, own.name)),
                        ps_quoted(own.words));
    out += "    }\n";
    out += "    # Each command's arguments: words, 'path' for what PowerShell completes itself "
           "(file names), '' for none.\n";
    out += "    $arguments = @{\n";
    for (const auto& f : commands()) {
        std::string_view what;
        if (f.positional != nullptr)
            what = f.positional->complete == Complete::path ||
                           f.positional->complete == Complete::program
                       ? "path"
                       : offered(*f.positional);
        out += fmt::format("        {} = {}\n", ps_quoted(f.word), ps_quoted(what));
        if (f.word.empty())
            for (const CheckName& n : check_names())
                out += fmt::format("        {} = {}\n", ps_quoted(n.name),
                                   ps_quoted(n.takes_targets ? what : std::string_view()));
    }
    out += fmt::format("        'help' = {}\n", ps_quoted(help_topics()));
    out += "    }\n";
    out += "    $commands = @(\n";
    for (const auto& [word, summary] : command_words())
        out += fmt::format("        @({}, {})\n", ps_quoted(word), ps_quoted(summary));
    out += "    )\n";
    out += R"SH(
    # The words before the cursor, without the program's name.
    $words = @($commandAst.CommandElements | Where-Object {
            $_.Extent.EndOffset -lt $cursorPosition -or
            ($_.Extent.EndOffset -eq $cursorPosition -and $wordToComplete -eq '')
        } | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })
    if ($wordToComplete -ne '' -and $words.Count -gt 0) {
        $words = @($words | Select-Object -SkipLast 1)
    }
    $sub = ''
    $targets = 0
    $previous = ''
    for ($i = 0; $i -lt $words.Count; $i++) {
        $word = $words[$i]
        $previous = $word
        if ($commands | Where-Object { $_[0] -eq $word }) { $sub = $word; break }
        if ($word.StartsWith('-')) {
            if ($values.ContainsKey($word)) { $i++; $previous = '' }
            continue
        }
        $targets++
    }
    if ($words.Count -gt 0) { $previous = $words[$words.Count - 1] }

    function Complete-Words([string]$list) {
        foreach ($w in ($list -split ' ')) {
            if ($w -ne '' -and $w.StartsWith($wordToComplete)) {
                [System.Management.Automation.CompletionResult]::new($w, $w, 'ParameterValue', $w)
            }
        }
    }

    if ($ownValues.ContainsKey("$sub $previous")) { Complete-Words $ownValues["$sub $previous"]; return }
    if ($values.ContainsKey($previous)) { Complete-Words $values[$previous]; return }
    if ($wordToComplete.StartsWith('-')) {
        $key = if ($sub -eq 'help') { '' } else { $sub }
        foreach ($o in $options[$key]) {
            if ($o[0].StartsWith($wordToComplete)) {
                [System.Management.Automation.CompletionResult]::new($o[0], $o[0], 'ParameterName', $o[1])
            }
        }
        return
    }
    if ($sub -eq '' -and $targets -eq 0) {
        $found = @($commands | Where-Object { $_[0].StartsWith($wordToComplete) })
        if ($found.Count -gt 0) {
            foreach ($c in $found) {
                [System.Management.Automation.CompletionResult]::new($c[0], $c[0], 'Command', $c[1])
            }
            return
        }
    }
    $what = $arguments[$sub]
    if ($what -eq 'path') { return } # PowerShell completes file names itself
    Complete-Words $what
}
)SH";
    return out;
}

} // namespace

std::optional<Shell> shell_named(std::string_view name) {
    if (name == "bash")
        return Shell::bash;
    if (name == "zsh")
        return Shell::zsh;
    if (name == "fish")
        return Shell::fish;
    if (name == "powershell" || name == "pwsh")
        return Shell::powershell;
    return std::nullopt;
}

std::string_view completion_file(Shell shell) {
    switch (shell) {
    case Shell::bash:
        return "loopcheck.bash";
    case Shell::zsh:
        return "_loopcheck";
    case Shell::fish:
        return "loopcheck.fish";
    case Shell::powershell:
        break;
    }
    return "loopcheck.ps1";
}

std::string completion_script(Shell shell) {
    switch (shell) {
    case Shell::bash:
        return bash_script();
    case Shell::zsh:
        return zsh_script();
    case Shell::fish:
        return fish_script();
    case Shell::powershell:
        break;
    }
    return powershell_script();
}

} // namespace loopcheck
