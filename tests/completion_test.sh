#!/usr/bin/env bash
# The bash completion (completions/loopcheck.bash) driven as bash drives it:
# COMP_WORDS and COMP_CWORD set, the function `complete -p` names called,
# COMPREPLY read. Subcommands come first on an empty word; after a
# subcommand, -<TAB> offers exactly the options its own --help lists.
# Usage: completion_test.sh LOOPCHECK_EXE SOURCE_DIR
set -u
exe="$1"
root="$2"
source "$root/completions/loopcheck.bash"
failures=0
passed=0

fn=$(complete -p loopcheck | sed -n 's/.*-F \([^ ]*\) loopcheck$/\1/p')
if [[ "$fn" != _loopcheck ]]; then
    echo "FAIL complete -p loopcheck names no function: $(complete -p loopcheck)"
    exit 1
fi

# complete WORD... : the sorted, space-separated offers for the last word.
complete_words() {
    COMP_WORDS=(loopcheck "$@")
    COMP_CWORD=$#
    COMP_LINE="${COMP_WORDS[*]}"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    "$fn" loopcheck "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf '%s\n' "${COMPREPLY[@]}" | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# help_options [SUBCOMMAND]: every option name in the rows of its --help
# ("  -t,--timeout DURATION  ..."), sorted.
help_options() {
    "$exe" "$@" --help | grep -E '^  -' | sed -E 's/^  //; s/  .*//; s/ .*//' | tr ',' '\n' |
        sort -u | tr '\n' ' ' | sed 's/ $//'
}

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

expect "an empty word offers the subcommands" "$(complete_words '')" "audit listen scan staircase trace wait"
expect "a prefix offers the matching subcommand" "$(complete_words st)" "staircase"
expect "a word no subcommand matches offers targets" "$(complete_words lo)" "localhost:"
expect "after a target, targets, not subcommands" "$(complete_words localhost:1 '')" \
    "127.0.0.1: [::1]: http://localhost: https://localhost: localhost:"
expect "the main command's options" "$(complete_words -)" "$(help_options)"
for sub in audit listen scan staircase trace wait; do
    wanted=$(help_options "$sub")
    if [[ -z "$wanted" ]]; then
        echo "FAIL $sub --help lists no options"
        failures=$((failures + 1))
        continue
    fi
    expect "$sub -<TAB> offers $sub's own options" "$(complete_words "$sub" -)" "$wanted"
    expect "$sub --<TAB> after a global -v still offers $sub's" \
        "$(complete_words -v "$sub" --)" "$(tr ' ' '\n' <<<"$wanted" | grep -- '^--' | tr '\n' ' ' | sed 's/ $//')"
done
expect "--format offers the formats" "$(complete_words wait --format '')" "json markdown text"
expect "scan completes file names" "$(cd "$root" && complete_words scan READ)" "README.md"
expect "audit -<TAB> does not offer the check's --expect" \
    "$(complete_words audit --ex)" ""

echo "$passed passed, $failures failed"
((failures == 0))
