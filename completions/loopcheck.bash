# bash completion for loopcheck.
# Generated from the option table (src/cli/option_table.cpp) by `loopcheck completion bash`:
# do not edit. Regenerate: loopcheck_docgen --write . (docs/hacking.md).
_loopcheck_options() {
    case "$1" in
        audit) echo '-h --help -t --timeout --threshold --format --json --markdown --color -v --verbose -q --quiet --redact --no-redact --output --no-pair' ;;
        listen) echo '-h --help --format --json --markdown --color -v --verbose -q --quiet --redact --no-redact --for --allow-any' ;;
        scan) echo '-h --help -t --timeout --json --markdown --color -v --verbose -q --quiet --redact --no-redact --output --no-probe --strict --exit-zero --baseline --write-baseline --since --format' ;;
        staircase) echo '-h --help -t --timeout --format --json --markdown --color -v --verbose -q --quiet --redact --no-redact --output -n --count --ascii' ;;
        trace) echo '-h --help --format --json --markdown --color -v --verbose -q --quiet --redact --no-redact --output --windows-order --windows-timing --threshold' ;;
        wait) echo '-h --help --format --json --markdown --color -v --verbose -q --quiet --redact --no-redact --output --for -t --timeout --http --expect-status --interval --all-addresses --strict --down' ;;
        completion) echo '-h --help' ;;
        *) echo '-h --help -V --version -n --count -4 --ipv4 -6 --ipv6 -t --timeout --threshold --format --json --markdown --color -v --verbose -q --quiet --redact --no-redact --output --expect --quick --no-pair --syn-retries --max-probes --emulate' ;;
    esac
}

# The words the value of option $1 of command $2 may be; fails for an
# option that takes none.
_loopcheck_value() {
    case "${2-}:$1" in
        scan:--format) echo 'text json markdown sarif github short' ;;
        *:--baseline|*:--count|*:--expect-status|*:--http|*:--max-probes|*:--output|*:--syn-retries|*:--write-baseline|*:-n) echo '' ;;
        *:--for|*:--interval|*:--threshold|*:--timeout|*:-t) echo '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m' ;;
        *:--since) echo 'HEAD origin/main' ;;
        *:--color) echo 'auto always never' ;;
        *:--expect) echo 'refused' ;;
        *:--emulate) echo 'sequential happy-eyeballs happy-eyeballs=200ms go node' ;;
        *:--format) echo 'text json markdown' ;;
        *) return 1 ;;
    esac
}

_loopcheck() {
    local cur prev sub="" word i targets=0 values
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    # The subcommand is the first word naming one, wherever options put it;
    # a word before it that is neither an option nor its value is a target.
    for ((i = 1; i < COMP_CWORD; i++)); do
        word="${COMP_WORDS[i]}"
        case "$word" in
            audit|check|completion|doctor|help|listen|scan|staircase|trace|wait) sub="$word"; break ;;
            -*) _loopcheck_value "$word" >/dev/null && i=$((i + 1)) ;;
            *) targets=$((targets + 1)) ;;
        esac
    done
    case "$prev" in
        --baseline|--output|--write-baseline) COMPREPLY=($(compgen -f -- "$cur")); return ;;
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
        help) COMPREPLY=($(compgen -W 'audit check completion doctor listen scan staircase trace wait' -- "$cur")); return ;;
        audit) return ;;
        listen) COMPREPLY=($(compgen -W '127.0.0.1:0 [::1]:0 localhost: dual:' -- "$cur")) ;;
        scan) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        staircase) COMPREPLY=($(compgen -W 'localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:' -- "$cur")) ;;
        trace) COMPREPLY=($(compgen -c -- "$cur")); return ;;
        wait) COMPREPLY=($(compgen -W 'localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:' -- "$cur")) ;;
        completion) COMPREPLY=($(compgen -W 'bash zsh fish powershell' -- "$cur")); return ;;
        "")
            # Before any target, the subcommands come first: all of them on an
            # empty word, the matching ones on a prefix (targets when none match).
            if ((targets == 0)); then
                COMPREPLY=($(compgen -W 'audit check completion doctor help listen scan staircase trace wait' -- "$cur"))
                ((${#COMPREPLY[@]} > 0)) && return
            fi
            COMPREPLY=($(compgen -W 'localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:' -- "$cur")) ;;
        *) return ;;
    esac
    compopt -o nospace 2>/dev/null
}
complete -F _loopcheck loopcheck
