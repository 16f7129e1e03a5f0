#!/usr/bin/env bash
# The generated completions (completions/, from the option table) driven by
# the real shells: bash through `complete -p` and COMPREPLY, zsh with its
# completion builtins (compadd, _files) recorded, fish through its own
# `complete -C`. The same cases for each: commands first on an empty word,
# after a subcommand -<TAB> offers exactly the options its own --help lists,
# an option's values, help's topics, files for scan.
# A shell that is not installed is skipped with the reason (exit 77 when
# none ran); under CI=true a missing zsh or fish fails (.ci/sections/readme.sh
# installs them).
# Usage: completion_test.sh LOOPCHECK_EXE SOURCE_DIR
set -u
exe="$1"
root="$2"
failures=0
passed=0

expect() { # expect WHAT GOT WANTED
    if [[ "$2" == "$3" ]]; then
        passed=$((passed + 1))
    else
        echo "FAIL $1"
        echo "  got:    $2"
        echo "  wanted: $3"
        failures=$((failures + 1))
    fi
}

# Sorted, space-separated words from stdin, those starting with $1 only.
offers_starting() {
    local prefix="$1" word
    while IFS= read -r word; do
        [[ -n "$word" && "$word" == "$prefix"* ]] && printf '%s\n' "$word"
    done | sort -u | tr '\n' ' ' | sed 's/ $//'
}

bash_offers() {
    (
        source "$root/completions/loopcheck.bash"
        fn=$(complete -p loopcheck | sed -n 's/.*-F \([^ ]*\) loopcheck$/\1/p')
        COMP_WORDS=(loopcheck "$@")
        COMP_CWORD=$#
        COMP_LINE="${COMP_WORDS[*]}"
        COMP_POINT=${#COMP_LINE}
        COMPREPLY=()
        "$fn" loopcheck "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\n' "${COMPREPLY[@]}"
    ) | offers_starting "${!#}"
}

# zsh: the script sourced as a user's .zshrc would after compinit, with
# compadd and _files replaced by functions that print what they were given
# (compinit itself needs a terminal); zsh's compadd would keep the words
# that start with the current one, as offers_starting does.
zsh_offers() {
    zsh -f -c '
        script=$1; shift
        source "$script"
        compadd() {
            while (( $# )); do
                if [[ $1 == -- ]]; then shift; print -rl -- "$@"; return 0; fi
                case $1 in (-d|-S|-J|-X|-x) shift 2 ;; (*) shift ;; esac
            done
        }
        _files() { print -rl -- ${words[CURRENT]}*(N) }
        words=(loopcheck "$@"); CURRENT=$#words
        _loopcheck
    ' zsh "$root/completions/_loopcheck" "$@" | offers_starting "${!#}"
}

fish_offers() {
    local line="loopcheck $*"
    fish --no-config -c 'source $argv[1]; complete -C $argv[2]' \
        "$root/completions/loopcheck.fish" "$line" | cut -f1 | offers_starting "${!#}"
}

# help_options [SUBCOMMAND]: every option name in the rows of its --help
# ("  -t,--timeout DURATION  ..."), sorted.
help_options() {
    "$exe" "$@" --help | grep -E '^  -' | sed -E 's/^  //; s/  .*//; s/ .*//' | tr ',' '\n' |
        sort -u | tr '\n' ' ' | sed 's/ $//'
}

# help_commands: the command list of loopcheck --help, sorted.
help_commands() {
    "$exe" --help | sed -n '/^Commands/,/^$/p' | grep -E '^  [a-z]' | awk '{print $1}' |
        sort | tr '\n' ' ' | sed 's/ $//'
}

commands=$(help_commands)
targets="127.0.0.1: [::1]: http://localhost: https://localhost: localhost:"
expect "--help lists help among the commands" "$(tr ' ' '\n' <<<"$commands" | grep -x help)" help

run_cases() { # run_cases SHELL
    local shell="$1" offers="${1}_offers" sub wanted
    if [[ "$shell" == fish ]]; then
        # fish offers targets beside the commands on an empty word: it has
        # no way to offer one set first and the other when none is left.
        expect "$shell: an empty word offers the commands (and targets)" "$($offers '')" \
            "$(tr ' ' '\n' <<<"$commands $targets" | sort -u | tr '\n' ' ' | sed 's/ $//')"
    else
        expect "$shell: an empty word offers the commands" "$($offers '')" "$commands"
    fi
    expect "$shell: a prefix offers the matching subcommand" "$($offers st)" "staircase"
    expect "$shell: a word no subcommand matches offers targets" "$($offers lo)" "localhost:"
    expect "$shell: after a target, targets, not subcommands" "$($offers localhost:1 '')" "$targets"
    expect "$shell: the main command's options" "$($offers -)" "$(help_options)"
    for sub in $commands; do
        [[ "$sub" == help ]] && continue
        wanted=$(help_options "$sub")
        expect "$shell: $sub -<TAB> offers $sub's own options" "$($offers "$sub" -)" "$wanted"
        expect "$shell: $sub --<TAB> after a global -v still offers $sub's" \
            "$($offers -v "$sub" --)" \
            "$(tr ' ' '\n' <<<"$wanted" | grep -- '^--' | tr '\n' ' ' | sed 's/ $//')"
    done
    expect "$shell: --format offers the formats" "$($offers wait --format '')" "json markdown text"
    expect "$shell: scan --format adds scan's CI formats" "$($offers scan --format '')" \
        "github json markdown sarif short text"
    expect "$shell: the check's --format offers no CI format" "$($offers --format s)" ""
    expect "$shell: --baseline completes file names" "$(cd "$root" && $offers scan --baseline READ)" \
        "README.md"
    expect "$shell: --color offers its values" "$($offers --color '')" "always auto never"
    expect "$shell: help offers the commands" "$($offers help '')" \
        "$(tr ' ' '\n' <<<"$commands" | grep -vx help | tr '\n' ' ' | sed 's/ $//')"
    expect "$shell: completion offers the shells" "$($offers completion '')" \
        "bash fish powershell zsh"
    expect "$shell: scan completes file names" "$(cd "$root" && $offers scan READ)" "README.md"
    expect "$shell: audit -<TAB> does not offer the check's --expect" "$($offers audit --ex)" ""
}

ran=0
for shell in bash zsh fish; do
    if ! command -v "$shell" >/dev/null; then
        if [[ "${CI:-}" == true ]]; then
            echo "FAIL $shell is not installed (CI installs it: .ci/sections/readme.sh)"
            failures=$((failures + 1))
        else
            echo "SKIP $shell: not installed (apt-get install $shell)"
        fi
        continue
    fi
    ran=$((ran + 1))
    run_cases "$shell"
done

# The committed scripts are what `loopcheck completion SHELL` prints.
for pair in bash:loopcheck.bash zsh:_loopcheck fish:loopcheck.fish powershell:loopcheck.ps1; do
    expect "loopcheck completion ${pair%%:*} prints completions/${pair#*:}" \
        "$("$exe" completion "${pair%%:*}" | cmp - "$root/completions/${pair#*:}" && echo same)" same
done
"$exe" completion tcsh >/dev/null 2>&1
expect "loopcheck completion tcsh is a usage error" "$?" 2

echo "$passed passed, $failures failed"
((failures == 0)) || exit 1
((ran > 0)) || exit 77
