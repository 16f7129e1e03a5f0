# bash completion for loopcheck
_loopcheck() {
    local cur prev
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        --format) COMPREPLY=($(compgen -W "text json markdown" -- "$cur")); return ;;
        --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
        --expect) COMPREPLY=($(compgen -W "refused" -- "$cur")); return ;;
        --emulate) COMPREPLY=($(compgen -W "sequential happy-eyeballs happy-eyeballs=200ms go node" -- "$cur")); return ;;
        -t|--timeout|--threshold) COMPREPLY=($(compgen -W "100ms 250ms 500ms 1s 2s 5s 10s" -- "$cur")); return ;;
        -n|--count|--syn-retries|--max-probes) return ;;
        --for|--interval) COMPREPLY=($(compgen -W "25ms 100ms 1s 10s 30s 2m" -- "$cur")); return ;;
    esac
    if [[ "${COMP_WORDS[1]}" == wait && "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "-h --help --for --interval --all-addresses --strict --down --format --json --markdown --color -v --verbose -q --quiet" -- "$cur"))
        return
    fi
    if [[ "${COMP_WORDS[1]}" == scan ]]; then
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "-h --help --no-probe --strict -t --timeout --format --json --markdown --color -v --verbose -q --quiet" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        return
    fi
    if ((COMP_CWORD == 1)) && [[ "$cur" != -* ]]; then
        COMPREPLY=($(compgen -W "audit listen scan staircase wait" -- "$cur"))
        [[ -n "$cur" && ${#COMPREPLY[@]} -gt 0 ]] && return
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "-h --help -V --version -t --timeout --threshold -n --count -4 --ipv4 -6 --ipv6 --format --json --markdown --color --expect --emulate --quick --no-pair --syn-retries --max-probes -v --verbose -q --quiet" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -W "localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:" -- "$cur"))
    compopt -o nospace 2>/dev/null
}
complete -F _loopcheck loopcheck
