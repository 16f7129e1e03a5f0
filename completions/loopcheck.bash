# bash completion for loopcheck: the subcommands first, then each command's
# own options (tests/completion_test.sh checks both against --help).
_loopcheck_options() {
    case "$1" in
        audit) echo "-h --help -t --timeout --threshold --format --json --markdown --color -v --verbose -q --quiet --no-pair" ;;
        listen) echo "-h --help --for --allow-any --format --json --markdown --color -v --verbose -q --quiet" ;;
        scan) echo "-h --help --no-probe --strict --exit-zero --baseline --write-baseline --since --output -t --timeout --format --json --markdown --color -v --verbose -q --quiet" ;;
        staircase) echo "-h --help -n --count --ascii -t --timeout --format --json --markdown --color -v --verbose -q --quiet" ;;
        trace) echo "-h --help --windows-order --windows-timing --threshold --format --json --markdown --color -v --verbose -q --quiet" ;;
        wait) echo "-h --help --for --interval --all-addresses --strict --down --format --json --markdown --color -v --verbose -q --quiet" ;;
        *) echo "-h --help -V --version -n --count -4 --ipv4 -6 --ipv6 -t --timeout --threshold --format --json --markdown --color -v --verbose -q --quiet --expect --quick --no-pair --syn-retries --max-probes --emulate" ;;
    esac
}

_loopcheck() {
    local cur prev sub="" word i targets=0
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        --format)
            # scan also writes SARIF, GitHub annotations and short lines.
            local formats="text json markdown"
            [[ " ${COMP_WORDS[*]} " == *" scan "* ]] && formats="$formats sarif github short"
            COMPREPLY=($(compgen -W "$formats" -- "$cur")); return ;;
        --baseline|--write-baseline|--output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --since) COMPREPLY=($(compgen -W "HEAD origin/main" -- "$cur")); return ;;
        --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
        --expect) COMPREPLY=($(compgen -W "refused" -- "$cur")); return ;;
        --emulate) COMPREPLY=($(compgen -W "sequential happy-eyeballs happy-eyeballs=200ms go node" -- "$cur")); return ;;
        -t|--timeout|--threshold) COMPREPLY=($(compgen -W "100ms 250ms 500ms 1s 2s 5s 10s" -- "$cur")); return ;;
        -n|--count|--syn-retries|--max-probes) return ;;
        --for|--interval) COMPREPLY=($(compgen -W "25ms 100ms 1s 10s 30s 2m" -- "$cur")); return ;;
    esac
    # The subcommand is the first word naming one, wherever options put it;
    # a word before it that is not an option is a target of the main command.
    for ((i = 1; i < COMP_CWORD; i++)); do
        word="${COMP_WORDS[i]}"
        case "$word" in
            audit|listen|scan|staircase|trace|wait) sub="$word"; break ;;
            -*) ;;
            *) targets=$((targets + 1)) ;;
        esac
    done
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(_loopcheck_options "$sub")" -- "$cur"))
        return
    fi
    case "$sub" in
        scan) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        trace) COMPREPLY=($(compgen -c -- "$cur")); return ;; # the command to run
        audit) return ;; # port numbers or ranges: nothing to offer
        listen) COMPREPLY=($(compgen -W "127.0.0.1:0 [::1]:0 localhost: dual:" -- "$cur")) ;;
        "")
            # Before any target, the subcommands come first: all of them on an
            # empty word, the matching ones on a prefix (targets when none match).
            if ((targets == 0)); then
                COMPREPLY=($(compgen -W "audit listen scan staircase trace wait" -- "$cur"))
                ((${#COMPREPLY[@]} > 0)) && return
            fi
            COMPREPLY=($(compgen -W "localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:" -- "$cur")) ;;
    esac
    compopt -o nospace 2>/dev/null
}
complete -F _loopcheck loopcheck
