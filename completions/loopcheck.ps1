# PowerShell completion for loopcheck.
# Generated from the option table (src/cli/option_table.cpp) by `loopcheck completion powershell`:
# do not edit. Regenerate: loopcheck_docgen --write . (docs/hacking.md).
# Load it in $PROFILE: loopcheck completion powershell | Out-String | Invoke-Expression

Register-ArgumentCompleter -Native -CommandName loopcheck, loopcheck.exe -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    # Each command's options, with their help.
    $options = @{
        'audit' = @(
            @('-h', 'Print this help message and exit')
            @('--help', 'Print this help message and exit')
            @('-t', 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)')
            @('--timeout', 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)')
            @('--threshold', 'a connect, refusal or fallback slower than this is slow (default 100ms)')
            @('--format', 'text, json or markdown (default text)')
            @('--json', 'same as --format json')
            @('--markdown', 'same as --format markdown')
            @('--color', 'auto, always or never (default auto; NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, TERM=dumb honoured)')
            @('-v', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('--verbose', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('-q', 'print nothing on stderr but errors')
            @('--quiet', 'print nothing on stderr but errors')
            @('--redact', 'write home directories as ~ in every format, not only in Markdown')
            @('--no-redact', 'show URL query values, credentials and home paths as given (a private run)')
            @('--output', 'also write the report to FILE, as its name says: .json, .md or .txt (scan: .sarif too); stdout still gets the report')
            @('--no-pair', 'Windows: probe once per address, without the no-SYN-retry twin')
        )
        'listen' = @(
            @('-h', 'Print this help message and exit')
            @('--help', 'Print this help message and exit')
            @('--format', 'text, json or markdown (default text)')
            @('--json', 'same as --format json')
            @('--markdown', 'same as --format markdown')
            @('--color', 'auto, always or never (default auto; NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, TERM=dumb honoured)')
            @('-v', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('--verbose', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('-q', 'print nothing on stderr but errors')
            @('--quiet', 'print nothing on stderr but errors')
            @('--redact', 'write home directories as ~ in every format, not only in Markdown')
            @('--no-redact', 'show URL query values, credentials and home paths as given (a private run)')
            @('--for', 'stop after this long: 30s, 5m (default: until Ctrl-C)')
            @('--allow-any', 'allow addresses other than loopback (and dual:, which binds [::])')
        )
        'scan' = @(
            @('-h', 'Print this help message and exit')
            @('--help', 'Print this help message and exit')
            @('-t', 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)')
            @('--timeout', 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)')
            @('--json', 'same as --format json')
            @('--markdown', 'same as --format markdown')
            @('--color', 'auto, always or never (default auto; NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, TERM=dumb honoured)')
            @('-v', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('--verbose', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('-q', 'print nothing on stderr but errors')
            @('--quiet', 'print nothing on stderr but errors')
            @('--redact', 'write home directories as ~ in every format, not only in Markdown')
            @('--no-redact', 'show URL query values, credentials and home paths as given (a private run)')
            @('--output', 'also write the report to FILE, as its name says: .json, .md or .txt (scan: .sarif too); stdout still gets the report')
            @('--no-probe', 'static scan only: connect to nothing, infer servers from the tree and usual ports')
            @('--strict', 'exit 1 for risky config values too, not only clients')
            @('--exit-zero', 'report as usual, but exit 0 whatever was found')
            @('--baseline', 'hits whose fingerprints FILE lists do not fail (see --write-baseline)')
            @('--write-baseline', 'write the risky hits'' fingerprints to FILE, to accept them')
            @('--since', 'only hits on lines changed since the git revision REF fail')
            @('--format', 'text, json, markdown, sarif, github or short (default text)')
        )
        'staircase' = @(
            @('-h', 'Print this help message and exit')
            @('--help', 'Print this help message and exit')
            @('-t', 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)')
            @('--timeout', 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)')
            @('--format', 'text, json or markdown (default text)')
            @('--json', 'same as --format json')
            @('--markdown', 'same as --format markdown')
            @('--color', 'auto, always or never (default auto; NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, TERM=dumb honoured)')
            @('-v', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('--verbose', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('-q', 'print nothing on stderr but errors')
            @('--quiet', 'print nothing on stderr but errors')
            @('--redact', 'write home directories as ~ in every format, not only in Markdown')
            @('--no-redact', 'show URL query values, credentials and home paths as given (a private run)')
            @('--output', 'also write the report to FILE, as its name says: .json, .md or .txt (scan: .sarif too); stdout still gets the report')
            @('-n', 'probes per limit (default 3, at most 100)')
            @('--count', 'probes per limit (default 3, at most 100)')
            @('--ascii', 'draw the bars with ''#'' (default: Unicode blocks in a UTF-8 locale)')
        )
        'trace' = @(
            @('-h', 'Print this help message and exit')
            @('--help', 'Print this help message and exit')
            @('--format', 'text, json or markdown (default text)')
            @('--json', 'same as --format json')
            @('--markdown', 'same as --format markdown')
            @('--color', 'auto, always or never (default auto; NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, TERM=dumb honoured)')
            @('-v', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('--verbose', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('-q', 'print nothing on stderr but errors')
            @('--quiet', 'print nothing on stderr but errors')
            @('--redact', 'write home directories as ~ in every format, not only in Markdown')
            @('--no-redact', 'show URL query values, credentials and home paths as given (a private run)')
            @('--output', 'also write the report to FILE, as its name says: .json, .md or .txt (scan: .sarif too); stdout still gets the report')
            @('--windows-order', 'run the command with Windows'' answer for localhost (::1 first): a private mount namespace with its own /etc/hosts and /etc/gai.conf')
            @('--windows-timing', 'make refused loopback connects on the command''s ports take as long as on Windows, on real packets (a tarpit listener), to measure the command''s own fallback')
            @('--threshold', 'a connect, refusal or fallback slower than this is slow (default 100ms)')
        )
        'wait' = @(
            @('-h', 'Print this help message and exit')
            @('--help', 'Print this help message and exit')
            @('--format', 'text, json or markdown (default text)')
            @('--json', 'same as --format json')
            @('--markdown', 'same as --format markdown')
            @('--color', 'auto, always or never (default auto; NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, TERM=dumb honoured)')
            @('-v', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('--verbose', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('-q', 'print nothing on stderr but errors')
            @('--quiet', 'print nothing on stderr but errors')
            @('--redact', 'write home directories as ~ in every format, not only in Markdown')
            @('--no-redact', 'show URL query values, credentials and home paths as given (a private run)')
            @('--output', 'also write the report to FILE, as its name says: .json, .md or .txt (scan: .sarif too); stdout still gets the report')
            @('--for', 'how long to wait in all (default 30s)')
            @('-t', 'same as --for (as wait-for-it and wait-on read -t): the whole wait''s limit')
            @('--timeout', 'same as --for (as wait-for-it and wait-on read -t): the whole wait''s limit')
            @('--http', 'up means a GET of PATH answers --expect-status (an http:// URL does this with its own path)')
            @('--expect-status', 'the statuses an HTTP target''s GET must answer (default 200-399)')
            @('--interval', 'pause between two polls of one address (default 25ms, from 1ms to 60s)')
            @('--all-addresses', 'wait until every address of each target has accepted')
            @('--strict', 'exit 1 when an address before the accepting one in resolver order does not accept (in-order clients pay for it)')
            @('--down', 'wait until every address of each target refuses (the port is free)')
        )
        'completion' = @(
            @('-h', 'Print this help message and exit')
            @('--help', 'Print this help message and exit')
        )
        '' = @(
            @('-h', 'Print this help message and exit')
            @('--help', 'Print this help message and exit')
            @('-V', 'Display program version information and exit')
            @('--version', 'Display program version information and exit')
            @('-n', 'connect to every address N times (default 1)')
            @('--count', 'connect to every address N times (default 1)')
            @('-4', 'resolve and probe IPv4 addresses only')
            @('--ipv4', 'resolve and probe IPv4 addresses only')
            @('-6', 'resolve and probe IPv6 addresses only')
            @('--ipv6', 'resolve and probe IPv6 addresses only')
            @('-t', 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)')
            @('--timeout', 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)')
            @('--threshold', 'a connect, refusal or fallback slower than this is slow (default 100ms)')
            @('--format', 'text, json or markdown (default text)')
            @('--json', 'same as --format json')
            @('--markdown', 'same as --format markdown')
            @('--color', 'auto, always or never (default auto; NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, TERM=dumb honoured)')
            @('-v', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('--verbose', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('-q', 'print nothing on stderr but errors')
            @('--quiet', 'print nothing on stderr but errors')
            @('--redact', 'write home directories as ~ in every format, not only in Markdown')
            @('--no-redact', 'show URL query values, credentials and home paths as given (a private run)')
            @('--output', 'also write the report to FILE, as its name says: .json, .md or .txt (scan: .sarif too); stdout still gets the report')
            @('--expect', '''refused'': exit 0 when every address refuses fast (test harnesses)')
            @('--quick', 'Windows: skip the ~2 s default-stack probes of loopback addresses and infer them from the no-SYN-retry probe and the retry limit')
            @('--no-pair', 'Windows: probe once per address, without the no-SYN-retry twin')
            @('--syn-retries', 'Windows: MaxSynRetransmissions for every probe; Linux: TCP_SYNCNT')
            @('--max-probes', 'refuse a run of more connects than this (every address, every round; default 100000)')
            @('--emulate', 'run a client''s connect algorithm for real, once per round (-n): sequential, happy-eyeballs[=250ms], go[=300ms], node (repeatable)')
        )
        'check' = @(
            @('-h', 'Print this help message and exit')
            @('--help', 'Print this help message and exit')
            @('-V', 'Display program version information and exit')
            @('--version', 'Display program version information and exit')
            @('-n', 'connect to every address N times (default 1)')
            @('--count', 'connect to every address N times (default 1)')
            @('-4', 'resolve and probe IPv4 addresses only')
            @('--ipv4', 'resolve and probe IPv4 addresses only')
            @('-6', 'resolve and probe IPv6 addresses only')
            @('--ipv6', 'resolve and probe IPv6 addresses only')
            @('-t', 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)')
            @('--timeout', 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)')
            @('--threshold', 'a connect, refusal or fallback slower than this is slow (default 100ms)')
            @('--format', 'text, json or markdown (default text)')
            @('--json', 'same as --format json')
            @('--markdown', 'same as --format markdown')
            @('--color', 'auto, always or never (default auto; NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, TERM=dumb honoured)')
            @('-v', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('--verbose', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('-q', 'print nothing on stderr but errors')
            @('--quiet', 'print nothing on stderr but errors')
            @('--redact', 'write home directories as ~ in every format, not only in Markdown')
            @('--no-redact', 'show URL query values, credentials and home paths as given (a private run)')
            @('--output', 'also write the report to FILE, as its name says: .json, .md or .txt (scan: .sarif too); stdout still gets the report')
            @('--expect', '''refused'': exit 0 when every address refuses fast (test harnesses)')
            @('--quick', 'Windows: skip the ~2 s default-stack probes of loopback addresses and infer them from the no-SYN-retry probe and the retry limit')
            @('--no-pair', 'Windows: probe once per address, without the no-SYN-retry twin')
            @('--syn-retries', 'Windows: MaxSynRetransmissions for every probe; Linux: TCP_SYNCNT')
            @('--max-probes', 'refuse a run of more connects than this (every address, every round; default 100000)')
            @('--emulate', 'run a client''s connect algorithm for real, once per round (-n): sequential, happy-eyeballs[=250ms], go[=300ms], node (repeatable)')
        )
        'doctor' = @(
            @('-h', 'Print this help message and exit')
            @('--help', 'Print this help message and exit')
            @('-V', 'Display program version information and exit')
            @('--version', 'Display program version information and exit')
            @('-n', 'connect to every address N times (default 1)')
            @('--count', 'connect to every address N times (default 1)')
            @('-4', 'resolve and probe IPv4 addresses only')
            @('--ipv4', 'resolve and probe IPv4 addresses only')
            @('-6', 'resolve and probe IPv6 addresses only')
            @('--ipv6', 'resolve and probe IPv6 addresses only')
            @('-t', 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)')
            @('--timeout', 'give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)')
            @('--threshold', 'a connect, refusal or fallback slower than this is slow (default 100ms)')
            @('--format', 'text, json or markdown (default text)')
            @('--json', 'same as --format json')
            @('--markdown', 'same as --format markdown')
            @('--color', 'auto, always or never (default auto; NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, TERM=dumb honoured)')
            @('-v', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('--verbose', 'the full report (every client row and fix); log each step on stderr, -vv every socket call')
            @('-q', 'print nothing on stderr but errors')
            @('--quiet', 'print nothing on stderr but errors')
            @('--redact', 'write home directories as ~ in every format, not only in Markdown')
            @('--no-redact', 'show URL query values, credentials and home paths as given (a private run)')
            @('--output', 'also write the report to FILE, as its name says: .json, .md or .txt (scan: .sarif too); stdout still gets the report')
            @('--expect', '''refused'': exit 0 when every address refuses fast (test harnesses)')
            @('--quick', 'Windows: skip the ~2 s default-stack probes of loopback addresses and infer them from the no-SYN-retry probe and the retry limit')
            @('--no-pair', 'Windows: probe once per address, without the no-SYN-retry twin')
            @('--syn-retries', 'Windows: MaxSynRetransmissions for every probe; Linux: TCP_SYNCNT')
            @('--max-probes', 'refuse a run of more connects than this (every address, every round; default 100000)')
            @('--emulate', 'run a client''s connect algorithm for real, once per round (-n): sequential, happy-eyeballs[=250ms], go[=300ms], node (repeatable)')
        )
    }
    # The words an option's value may be.
    $values = @{
        '--baseline' = ''
        '--color' = 'auto always never'
        '--count' = ''
        '--emulate' = 'sequential happy-eyeballs happy-eyeballs=200ms go node'
        '--expect' = 'refused'
        '--expect-status' = ''
        '--for' = '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m'
        '--format' = 'text json markdown'
        '--http' = ''
        '--interval' = '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m'
        '--max-probes' = ''
        '--output' = ''
        '--since' = 'HEAD origin/main'
        '--syn-retries' = ''
        '--threshold' = '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m'
        '--timeout' = '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m'
        '--write-baseline' = ''
        '-n' = ''
        '-t' = '25ms 100ms 250ms 500ms 1s 2s 5s 10s 30s 2m'
    }
    # A command's own values for an option, by 'COMMAND OPTION'.
    $ownValues = @{
        'scan --format' = 'text json markdown sarif github short'
    }
    # Each command's arguments: words, 'path' for what PowerShell completes itself (file names), '' for none.
    $arguments = @{
        'audit' = ''
        'listen' = '127.0.0.1:0 [::1]:0 localhost: dual:'
        'scan' = 'path'
        'staircase' = 'localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:'
        'trace' = 'path'
        'wait' = 'localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:'
        'completion' = 'bash zsh fish powershell'
        '' = 'localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:'
        'check' = 'localhost: 127.0.0.1: [::1]: http://localhost: https://localhost:'
        'doctor' = ''
        'help' = 'audit check completion doctor listen scan staircase trace wait'
    }
    $commands = @(
        @('audit', 'every listener a loopback client can reach, and what localhost:PORT costs')
        @('check', 'the default command by name: loopcheck check TARGET... is loopcheck TARGET...')
        @('completion', 'print the completion script for bash, zsh, fish or powershell')
        @('doctor', 'check this machine itself (what loopcheck with no TARGET does)')
        @('help', 'loopcheck help COMMAND is loopcheck COMMAND --help')
        @('listen', 'throwaway listeners to reproduce a set-up (Ctrl-C ends)')
        @('scan', 'find the localhost URLs in a codebase that cost a Windows user ~2 s per connect')
        @('staircase', 'time refused connects with the SYN retry limit set to 0..5 (Windows: ~500 ms per retry; flat where a reset ends the connect)')
        @('trace', 'run a command and show which loopback connects it paid for, here and on Windows')
        @('wait', 'wait until every TARGET accepts, or an http:// URL answers 2xx/3xx (with --down, until none accepts); then exit 0 or run the COMMAND after --')
    )

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
