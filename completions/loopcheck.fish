# fish completion for loopcheck.
# Generated from the option table (src/cli/option_table.cpp) by `loopcheck completion fish`:
# do not edit. Regenerate: loopcheck_docgen --write . (docs/hacking.md).

# No file names unless an argument is one (scan's PATH).
complete -c loopcheck -f

# The commands, where one may come: before any other word.
complete -c loopcheck -n __fish_use_subcommand -a audit -d 'every listener a loopback client can reach, and what localhost:PORT costs'
complete -c loopcheck -n __fish_use_subcommand -a completion -d 'print the completion script for bash, zsh, fish or powershell'
complete -c loopcheck -n __fish_use_subcommand -a help -d 'loopcheck help COMMAND is loopcheck COMMAND --help'
complete -c loopcheck -n __fish_use_subcommand -a listen -d 'throwaway listeners to reproduce a set-up (Ctrl-C ends)'
complete -c loopcheck -n __fish_use_subcommand -a scan -d 'find the localhost URLs in a codebase that cost a Windows user ~2 s per connect'
complete -c loopcheck -n __fish_use_subcommand -a staircase -d 'time refused connects with the SYN retry limit set to 0..5 (Windows: ~500 ms per retry; flat where a reset ends the connect)'
complete -c loopcheck -n __fish_use_subcommand -a trace -d 'run a command and show which loopback connects it paid for, here and on Windows'
complete -c loopcheck -n __fish_use_subcommand -a wait -d 'wait until every TARGET accepts (or, with --down, none does); exit 0 when it does, 3 when --for runs out, 1 with --strict when resolver order costs clients'
complete -c loopcheck -n '__fish_seen_subcommand_from help' -a 'audit completion listen scan staircase trace wait'

# loopcheck audit
complete -c loopcheck -n '__fish_seen_subcommand_from audit' -s h -l help -d 'Print this help message and exit'
complete -c loopcheck -n '__fish_seen_subcommand_from audit' -s t -l timeout -x -a '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m' -d 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)'
complete -c loopcheck -n '__fish_seen_subcommand_from audit' -l threshold -x -a '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m' -d 'a connect, refusal or fallback slower than this is slow (default 100ms)'
complete -c loopcheck -n '__fish_seen_subcommand_from audit' -l format -x -a 'text json markdown' -d 'text, json or markdown (default text)'
complete -c loopcheck -n '__fish_seen_subcommand_from audit' -l json -d 'same as --format json'
complete -c loopcheck -n '__fish_seen_subcommand_from audit' -l markdown -d 'same as --format markdown'
complete -c loopcheck -n '__fish_seen_subcommand_from audit' -l color -x -a 'auto always never' -d 'auto, always or never (default auto; NO_COLOR, TERM=dumb honoured)'
complete -c loopcheck -n '__fish_seen_subcommand_from audit' -s v -l verbose -d 'the full report (every client row and fix); log each step on stderr, -vv every socket call'
complete -c loopcheck -n '__fish_seen_subcommand_from audit' -s q -l quiet -d 'print nothing on stderr but errors'
complete -c loopcheck -n '__fish_seen_subcommand_from audit' -l no-pair -d 'Windows: probe once per address, without the no-SYN-retry twin'

# loopcheck listen
complete -c loopcheck -n '__fish_seen_subcommand_from listen' -s h -l help -d 'Print this help message and exit'
complete -c loopcheck -n '__fish_seen_subcommand_from listen' -l format -x -a 'text json markdown' -d 'text, json or markdown (default text)'
complete -c loopcheck -n '__fish_seen_subcommand_from listen' -l json -d 'same as --format json'
complete -c loopcheck -n '__fish_seen_subcommand_from listen' -l markdown -d 'same as --format markdown'
complete -c loopcheck -n '__fish_seen_subcommand_from listen' -l color -x -a 'auto always never' -d 'auto, always or never (default auto; NO_COLOR, TERM=dumb honoured)'
complete -c loopcheck -n '__fish_seen_subcommand_from listen' -s v -l verbose -d 'the full report (every client row and fix); log each step on stderr, -vv every socket call'
complete -c loopcheck -n '__fish_seen_subcommand_from listen' -s q -l quiet -d 'print nothing on stderr but errors'
complete -c loopcheck -n '__fish_seen_subcommand_from listen' -l for -x -a '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m' -d 'stop after this long: 30s, 5m (default: until Ctrl-C)'
complete -c loopcheck -n '__fish_seen_subcommand_from listen' -l allow-any -d 'allow addresses other than loopback (and dual:, which binds [::])'
complete -c loopcheck -n '__fish_seen_subcommand_from listen' -a '127.0.0.1:0 [::1]:0 localhost: dual:'

# loopcheck scan
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -s h -l help -d 'Print this help message and exit'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -s t -l timeout -x -a '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m' -d 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -l json -d 'same as --format json'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -l markdown -d 'same as --format markdown'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -l color -x -a 'auto always never' -d 'auto, always or never (default auto; NO_COLOR, TERM=dumb honoured)'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -s v -l verbose -d 'the full report (every client row and fix); log each step on stderr, -vv every socket call'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -s q -l quiet -d 'print nothing on stderr but errors'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -l no-probe -d 'static scan only: connect to nothing, infer servers from the tree and usual ports'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -l strict -d 'exit 1 for risky config values too, not only clients'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -l exit-zero -d 'report as usual, but exit 0 whatever was found'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -l baseline -r -F -d 'hits whose fingerprints FILE lists do not fail (see --write-baseline)'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -l write-baseline -r -F -d 'write the risky hits\' fingerprints to FILE, to accept them'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -l since -x -a 'HEAD origin/main' -d 'only hits on lines changed since the git revision REF fail'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -l output -r -F -d 'also write the report to FILE: SARIF (.sarif) or JSON (.json)'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -l format -x -a 'text json markdown sarif github short' -d 'text, json, markdown, sarif, github or short (default text)'
complete -c loopcheck -n '__fish_seen_subcommand_from scan' -F

# loopcheck staircase
complete -c loopcheck -n '__fish_seen_subcommand_from staircase' -s h -l help -d 'Print this help message and exit'
complete -c loopcheck -n '__fish_seen_subcommand_from staircase' -s t -l timeout -x -a '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m' -d 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)'
complete -c loopcheck -n '__fish_seen_subcommand_from staircase' -l format -x -a 'text json markdown' -d 'text, json or markdown (default text)'
complete -c loopcheck -n '__fish_seen_subcommand_from staircase' -l json -d 'same as --format json'
complete -c loopcheck -n '__fish_seen_subcommand_from staircase' -l markdown -d 'same as --format markdown'
complete -c loopcheck -n '__fish_seen_subcommand_from staircase' -l color -x -a 'auto always never' -d 'auto, always or never (default auto; NO_COLOR, TERM=dumb honoured)'
complete -c loopcheck -n '__fish_seen_subcommand_from staircase' -s v -l verbose -d 'the full report (every client row and fix); log each step on stderr, -vv every socket call'
complete -c loopcheck -n '__fish_seen_subcommand_from staircase' -s q -l quiet -d 'print nothing on stderr but errors'
complete -c loopcheck -n '__fish_seen_subcommand_from staircase' -s n -l count -x -d 'probes per limit (default 3, at most 100)'
complete -c loopcheck -n '__fish_seen_subcommand_from staircase' -l ascii -d 'draw the bars with \'#\' (default: Unicode blocks in a UTF-8 locale)'
complete -c loopcheck -n '__fish_seen_subcommand_from staircase' -a 'localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:'

# loopcheck trace
complete -c loopcheck -n '__fish_seen_subcommand_from trace' -s h -l help -d 'Print this help message and exit'
complete -c loopcheck -n '__fish_seen_subcommand_from trace' -l format -x -a 'text json markdown' -d 'text, json or markdown (default text)'
complete -c loopcheck -n '__fish_seen_subcommand_from trace' -l json -d 'same as --format json'
complete -c loopcheck -n '__fish_seen_subcommand_from trace' -l markdown -d 'same as --format markdown'
complete -c loopcheck -n '__fish_seen_subcommand_from trace' -l color -x -a 'auto always never' -d 'auto, always or never (default auto; NO_COLOR, TERM=dumb honoured)'
complete -c loopcheck -n '__fish_seen_subcommand_from trace' -s v -l verbose -d 'the full report (every client row and fix); log each step on stderr, -vv every socket call'
complete -c loopcheck -n '__fish_seen_subcommand_from trace' -s q -l quiet -d 'print nothing on stderr but errors'
complete -c loopcheck -n '__fish_seen_subcommand_from trace' -l windows-order -d 'run the command with Windows\' answer for localhost (::1 first): a private mount namespace with its own /etc/hosts and /etc/gai.conf'
complete -c loopcheck -n '__fish_seen_subcommand_from trace' -l windows-timing -d 'make refused loopback connects on the command\'s ports take as long as on Windows, on real packets (a tarpit listener), to measure the command\'s own fallback'
complete -c loopcheck -n '__fish_seen_subcommand_from trace' -l threshold -x -a '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m' -d 'a connect, refusal or fallback slower than this is slow (default 100ms)'
complete -c loopcheck -n '__fish_seen_subcommand_from trace' -a '(__fish_complete_command)'

# loopcheck wait
complete -c loopcheck -n '__fish_seen_subcommand_from wait' -s h -l help -d 'Print this help message and exit'
complete -c loopcheck -n '__fish_seen_subcommand_from wait' -l format -x -a 'text json markdown' -d 'text, json or markdown (default text)'
complete -c loopcheck -n '__fish_seen_subcommand_from wait' -l json -d 'same as --format json'
complete -c loopcheck -n '__fish_seen_subcommand_from wait' -l markdown -d 'same as --format markdown'
complete -c loopcheck -n '__fish_seen_subcommand_from wait' -l color -x -a 'auto always never' -d 'auto, always or never (default auto; NO_COLOR, TERM=dumb honoured)'
complete -c loopcheck -n '__fish_seen_subcommand_from wait' -s v -l verbose -d 'the full report (every client row and fix); log each step on stderr, -vv every socket call'
complete -c loopcheck -n '__fish_seen_subcommand_from wait' -s q -l quiet -d 'print nothing on stderr but errors'
complete -c loopcheck -n '__fish_seen_subcommand_from wait' -l for -x -a '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m' -d 'how long to wait in all (default 30s)'
complete -c loopcheck -n '__fish_seen_subcommand_from wait' -l interval -x -a '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m' -d 'pause between two polls of one address (default 25ms, from 1ms to 60s)'
complete -c loopcheck -n '__fish_seen_subcommand_from wait' -l all-addresses -d 'wait until every address of each target has accepted'
complete -c loopcheck -n '__fish_seen_subcommand_from wait' -l strict -d 'exit 1 when an address before the accepting one in resolver order does not accept (in-order clients pay for it)'
complete -c loopcheck -n '__fish_seen_subcommand_from wait' -l down -d 'wait until every address of each target refuses (the port is free)'
complete -c loopcheck -n '__fish_seen_subcommand_from wait' -a 'localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:'

# loopcheck completion
complete -c loopcheck -n '__fish_seen_subcommand_from completion' -s h -l help -d 'Print this help message and exit'
complete -c loopcheck -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish powershell'

# loopcheck [TARGET...]
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -s h -l help -d 'Print this help message and exit'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -s V -l version -d 'Display program version information and exit'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -s n -l count -x -d 'connect to every address N times (default 1)'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -s 4 -l ipv4 -d 'resolve and probe IPv4 addresses only'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -s 6 -l ipv6 -d 'resolve and probe IPv6 addresses only'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -s t -l timeout -x -a '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m' -d 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -l threshold -x -a '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m' -d 'a connect, refusal or fallback slower than this is slow (default 100ms)'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -l format -x -a 'text json markdown' -d 'text, json or markdown (default text)'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -l json -d 'same as --format json'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -l markdown -d 'same as --format markdown'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -l color -x -a 'auto always never' -d 'auto, always or never (default auto; NO_COLOR, TERM=dumb honoured)'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -s v -l verbose -d 'the full report (every client row and fix); log each step on stderr, -vv every socket call'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -s q -l quiet -d 'print nothing on stderr but errors'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -l expect -x -a 'refused' -d '\'refused\': exit 0 when every address refuses fast (test harnesses)'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -l quick -d 'Windows: skip the ~2 s default-stack probes of loopback addresses and infer them from the no-SYN-retry probe and the retry limit'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -l no-pair -d 'Windows: probe once per address, without the no-SYN-retry twin'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -l syn-retries -x -d 'Windows: MaxSynRetransmissions for every probe; Linux: TCP_SYNCNT'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -l max-probes -x -d 'refuse a run of more connects than this (every address, every round; default 100000)'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait' -l emulate -x -a 'sequential happy-eyeballs happy-eyeballs=200ms go node' -d 'run a client\'s connect algorithm for real, once per round (-n): sequential, happy-eyeballs[=250ms], go[=300ms], node (repeatable)'
complete -c loopcheck -n 'not __fish_seen_subcommand_from audit completion help listen scan staircase trace wait; and not __fish_use_subcommand' -a 'localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:'
complete -c loopcheck -n __fish_use_subcommand -a 'localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:'
