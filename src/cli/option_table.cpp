// The option table's rows. Adding an option is one row here plus its code:
// the line that binds it to the command's arguments (cli/cmd_<name>.cpp)
// and what the command does with it. --help, the man page, docs/usage.md's
// tables and the completions follow from the row; regenerate the committed
// ones with `loopcheck_docgen --write .` (docs/hacking.md, "Adding an
// option"), and tests/generated_test.sh fails until they are.
#include "cli/option_table.hpp"

#include "cli/options.hpp"
#include "loopcheck/run/check.hpp"
#include "loopcheck/run/staircase.hpp"

#include <algorithm>
#include <array>

namespace loopcheck {

namespace {

using enum Command;
using enum Kind;

constexpr Commands all_commands =
    check | audit | listen | scan | staircase | trace | wait | completion;
/// The commands that measure, render a report and share its options.
constexpr Commands reporting = check | audit | listen | scan | staircase | trace | wait;

constexpr std::string_view name_one_address =
    "name one address instead: [::1]:PORT or 127.0.0.1:PORT";
constexpr std::string_view check_only =
    "it applies to the check only (loopcheck --expect refused HOST:PORT)";

constexpr std::array rows = std::to_array<OptionRow>({
    // --- the check's, in its --help order (the shared ones among them) ---
    {.names = "target",
     .kind = positional,
     .value = "TARGET",
     .commands = only(check),
     .help = "host:port, [v6]:port, URL or bare port; none = check this machine",
     .default_text = "this machine",
     .complete = Complete::target,
     .text = "what to check (see [Targets](#targets)); with none, this machine itself "
             "([Self-check](#self-check))",
     .example = "loopcheck localhost:11434 [::1]:8080"},
    {.names = "-h,--help",
     .kind = flag,
     .commands = all_commands,
     .help = "Print this help message and exit",
     .builtin = true,
     .text = "options, exit codes and examples within 80 columns (`loopcheck COMMAND --help` "
             "for each command, `loopcheck help COMMAND` the same); the last line says where "
             "the manual is: `man loopcheck`, which has a section per command, or on Windows "
             "`loopcheck help COMMAND` and the docs"},
    {.names = "-V,--version",
     .kind = flag,
     .commands = only(check),
     .help = "Display program version information and exit",
     .builtin = true,
     .text = "version, platform and the library versions it was built with",
     .example = "loopcheck --version"},
    {.names = "-n,--count",
     .kind = value,
     .value = "N",
     .commands = only(check),
     .help = "connect to every address N times (default 1)",
     .default_text = "1",
     .bounds = std::array<long long, 2>{1, max_count},
     .text = "connect to every address N times (1 to 10,000), one round after another; the "
             "text report draws each address's rounds, min to max with the median marked "
             "(`1.01 ├──┼─┤ 1.49 s`); `-v`, JSON and Markdown give median [min..max]",
     .example = "loopcheck -n 10 localhost:8000",
     .not_for = {{{audit, "audit connects once to every listening port"},
                  {wait, "wait polls until it is over; --for limits how long"},
                  {listen, "listen connects to nothing"},
                  {scan, "scan probes each host and port its hits name once"},
                  {trace, "trace runs the command once"}}}},
    {.names = "-4,--ipv4",
     .kind = flag,
     .commands = only(check),
     .help = "resolve and probe IPv4 addresses only",
     .default_text = "both",
     .text = "resolve and probe IPv4 only. A name with no address of that family here is exit "
             "4 (a name did not resolve: nothing could be probed), said plainly with the "
             "addresses it has: `UNRESOLVED: localhost has no IPv4 address here (-4); it "
             "resolves to ::1 only`",
     .example = "loopcheck -4 localhost:8000",
     .not_for = {{{audit, "audit connects to localhost on every address it resolves to, to "
                          "compare them"},
                  {staircase, name_one_address},
                  {wait, name_one_address},
                  {listen, "each SPEC names its addresses: 127.0.0.1:PORT, [::1]:PORT"},
                  {scan, "scan probes every address each hit's name resolves to"},
                  {trace, "trace records the addresses the command itself tries"}}}},
    {.names = "-6,--ipv6",
     .kind = flag,
     .commands = only(check),
     .help = "resolve and probe IPv6 addresses only",
     .default_text = "both",
     .text = "resolve and probe IPv6 only; as `-4`",
     .example = "loopcheck -6 localhost:8000",
     .not_for = {{{audit, "audit connects to localhost on every address it resolves to, to "
                          "compare them"},
                  {staircase, name_one_address},
                  {wait, name_one_address},
                  {listen, "each SPEC names its addresses: 127.0.0.1:PORT, [::1]:PORT"},
                  {scan, "scan probes every address each hit's name resolves to"},
                  {trace, "trace records the addresses the command itself tries"}}}},
    {.names = "-t,--timeout",
     .kind = value,
     .value = "DURATION",
     .commands = check | audit | scan | staircase,
     .help = "give up on one connect after this long: 250ms, 2s, 1.5 (default 5s, at most 1h)",
     .default_text = "5s",
     .complete = Complete::duration,
     .text = "the longest one connect may wait, at most 1 hour (`-t 90m` is a usage error). "
             "Keep it above ~2.5 s on Windows: a refusal there takes ~2 s, and a shorter "
             "timeout turns it into a \"timeout\" (loopcheck warns: finding `short-timeout`)",
     .example = "loopcheck -t 500ms 127.0.0.1:80",
     .not_for = {{{listen, "listen connects to nothing; --for limits how long it runs"},
                  {trace, "trace waits for the command and every process it starts"}}}},
    {.names = "--threshold",
     .kind = value,
     .value = "DURATION",
     .commands = check | audit,
     .help = "a connect, refusal or fallback slower than this is slow (default 100ms)",
     .default_text = "100ms",
     .complete = Complete::duration,
     .text = "a refusal, a fallback or an accepted connect slower than this is \"slow\" (exit 1)",
     .example = "loopcheck --threshold 20ms localhost:8000",
     .not_for = {{{staircase, "the staircase measures refusals, it does not judge them"},
                  {wait, "wait judges accepting and refusing, not time"},
                  {listen, "listen connects to nothing, so nothing is judged slow"},
                  {scan, "scan judges code by the addresses a client tries, not by a time"}}}},
    {.names = "--format",
     .kind = value,
     .value = "FORMAT",
     // scan's own row (below) adds its CI formats
     .commands = check | audit | listen | staircase | trace | wait,
     .help = "text, json or markdown (default text)",
     .default_text = "text",
     .complete = Complete::choices,
     .choices = "text json markdown",
     .text = "the report's format: `text`, `json` or `markdown`",
     .example = "loopcheck --format json localhost:8000"},
    {.names = "--json",
     .kind = flag,
     .commands = reporting,
     .help = "same as --format json",
     .text = "short for `--format json`",
     .example = "loopcheck --json localhost:8000 > report.json"},
    {.names = "--markdown",
     .kind = flag,
     .commands = reporting,
     .help = "same as --format markdown",
     .text = "short for `--format markdown`",
     .example = "loopcheck --markdown localhost:8000 > report.md"},
    {.names = "--color",
     .kind = value,
     .value = "WHEN",
     .commands = reporting,
     .help = "auto, always or never (default auto; NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, "
             "TERM=dumb honoured)",
     .default_text = "auto",
     .complete = Complete::choices,
     .choices = "auto always never",
     .text = "colour in the text report: `auto`, `always` or `never`. `auto`: never when "
             "`NO_COLOR` is set; always when `FORCE_COLOR` is set (not `0` or `false`) or "
             "`CLICOLOR_FORCE` is (not `0`), which is how a CI log that is no terminal asks "
             "for it; else when stdout is a terminal and `TERM` is not `dumb`",
     .example = "loopcheck --color never"},
    {.names = "-v,--verbose",
     .kind = counted,
     .commands = reporting,
     .help = "the full report (every client row and fix); log each step on stderr, -vv every "
             "socket call",
     .text = "the full text report (every client row, the resolution detail, every fix, each "
             "of many targets in full), and log each step (`-v`) or every socket call (`-vv`) "
             "on stderr with microsecond timestamps",
     .example = "loopcheck -vv localhost:8000"},
    {.names = "-q,--quiet",
     .kind = flag,
     .commands = reporting,
     .help = "print nothing on stderr but errors",
     .text = "print nothing on stderr but errors (no live wait line)",
     .example = "loopcheck -q localhost:8000"},
    {.names = "--redact",
     .kind = flag,
     .commands = reporting,
     .help = "write home directories as ~ in every format, not only in Markdown",
     .text = "write home directories (`/home/NAME`, `/Users/NAME`, `C:\\Users\\NAME`, "
             "`$HOME`) as `~` in the text and JSON reports too; Markdown, the format pasted "
             "into tickets, always does. Secrets are redacted in every format without it "
             "([Redaction](#redaction))",
     .example = "loopcheck scan --json --redact . > scan.json"},
    {.names = "--no-redact",
     .kind = flag,
     .commands = reporting,
     .help = "show URL query values, credentials and home paths as given (a private run)",
     .text = "show what reports otherwise hide: a URL's `user:pass@`, its query and fragment "
             "values, credential-named values in scanned lines and traced commands, and home "
             "directories. For a run whose report stays on this machine",
     .example = "loopcheck --no-redact 'http://localhost:8888/lab?token=...'"},
    {.names = "--output",
     .kind = value,
     .value = "FILE",
     .commands = check | audit | scan | staircase | trace | wait,
     .help = "also write the report to FILE, as its name says: .json, .md or .txt (scan: "
             ".sarif too); stdout still gets the report",
     .default_text = "none",
     .complete = Complete::path,
     .text = "also write the report to FILE in the format its name says: JSON (`.json`), "
             "Markdown (`.md`, `.markdown`), text without colour (`.txt`, `.log`) or, for "
             "`scan`, SARIF (`.sarif`). stdout still gets the report in `--format`'s format, so "
             "one run gives a CI log and an artefact. The file is UTF-8 bytes whatever the "
             "shell (PowerShell 5.1's `>` would write UTF-16) and redacted as its format is. A "
             "name that says no format is a usage error before anything runs; a file that "
             "cannot be written is exit 5 after the report",
     .example = "loopcheck --output report.json localhost:8000",
     .not_for = {{{listen, "listen prints each connection as it comes; redirect stdout"}}}},
    {.names = "--expect",
     .kind = value,
     .value = "refused",
     .commands = only(check),
     .help = "'refused': exit 0 when every address refuses fast (test harnesses)",
     .complete = Complete::choices,
     .choices = "refused",
     .text = "for test harnesses that use a closed port as \"a server that is down\": exit 0 "
             "when every address refuses fast, 1 when a refusal is slow, 7 when an address "
             "accepts (verdict `UNEXPECTED`), 3 when it times out instead of refusing",
     .example = "loopcheck --expect refused 127.0.0.1:9",
     .not_for = {{{audit, check_only},
                  {listen, check_only},
                  {scan, check_only},
                  {staircase, check_only},
                  {wait, check_only},
                  {trace, check_only}}}},
    {.names = "--quick",
     .kind = flag,
     .commands = only(check),
     .help = "Windows: skip the ~2 s default-stack probes of loopback addresses and infer them "
             "from the no-SYN-retry probe and the retry limit",
     .text = "Windows: probe loopback addresses only with SYN retries off (milliseconds instead "
             "of ~2 s per refusal) and infer the default-stack time: a refusal costs the "
             "configured MaxSynRetransmissions (4 when it cannot be read) more retries, 500 ms "
             "apart. The report says the times are inferred (`\"inferred\": true` per sample, "
             "`\"quick\"` in JSON). Elsewhere refusals are not retried, so it changes nothing",
     .example = "loopcheck --quick localhost:11434"},
    {.names = "--no-pair",
     .kind = flag,
     .commands = check | audit,
     .help = "Windows: probe once per address, without the no-SYN-retry twin",
     .text = "Windows: probe each loopback address once, without the twin probe that has SYN "
             "retransmissions off",
     .example = "loopcheck --no-pair localhost:11434"},
    {.names = "--syn-retries",
     .kind = value,
     .value = "N",
     .commands = only(check),
     .help = "Windows: MaxSynRetransmissions for every probe; Linux: TCP_SYNCNT",
     .bounds = std::array<long long, 2>{0, 253},
     .text = "every probe asks for exactly N SYN retransmissions (Windows: "
             "`SIO_TCP_INITIAL_RTO`, 0..253, with 0 sent as "
             "`TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS` = 254 because a 0 there means the "
             "system default, and as 1 with a warning before Windows 10 1709 (build 16299), "
             "which reads 254 as ~255 retries "
             "([windows.md](windows.md#sio_tcp_initial_rto-the-no-retry-probe)); Linux: "
             "`TCP_SYNCNT`, 1..255) instead of pairing. On Linux 6.7+ with "
             "`net.ipv4.tcp_syn_linear_timeouts`, `TCP_SYNCNT` sets a time budget rather than "
             "a count: N = 1, 2, 3 sent 2, 5 and 7 SYNs and gave up after 3, 7 and 19.5 s "
             "(measured)",
     .example = "loopcheck --syn-retries 0 127.0.0.1:9"},
    {.names = "--max-probes",
     .kind = value,
     .value = "N",
     .commands = only(check),
     .help = "refuse a run of more connects than this (every address, every round; default "
             "100000)",
     .default_text = "100000",
     .bounds = std::array<long long, 2>{1, max_probes_limit},
     .text = "the most connects one run may make: every address of every target (with its "
             "no-SYN-retry twin where paired, and curl's own localhost answer) times "
             "`--count`; a run that would make more is a usage error (exit 2) before anything "
             "is probed. A name with many addresses (a hosts file of thousands of lines) or a "
             "long target list is caught here; duplicate addresses from the resolver are "
             "probed once anyway. `audit` and `scan` take their targets from the machine or "
             "the tree and have no bound",
     .example = "loopcheck --max-probes 500000 -n 5 $(cat ports.txt)"},
    {.names = "--emulate",
     .kind = repeated,
     .value = "STRATEGY",
     .commands = only(check),
     .help = "run a client's connect algorithm for real, once per round (-n): sequential, "
             "happy-eyeballs[=250ms], go[=300ms], node (repeatable)",
     .complete = Complete::choices,
     .choices = "sequential happy-eyeballs happy-eyeballs=200ms go node",
     .text = "after probing, run a client's connect algorithm for real, once per round of "
             "`-n`, and show the median measured time (with the spread) beside the model's "
             "prediction; a result further than max(50 ms, 20 %) from the model is marked OFF "
             "MODEL; repeatable. STRATEGY: `sequential` (Python, .NET), "
             "`happy-eyeballs[=DELAY]` (default 250ms; curl uses 200ms), `go[=DELAY]` "
             "(default 300ms; as Go 1.21+, with SYN retries off on loopback where the OS "
             "allows), `node` (sequential with SYN retries off on loopback where the OS "
             "allows)",
     .example = "loopcheck --emulate sequential --emulate happy-eyeballs=200ms localhost:11434"},

    // --- audit ---
    {.names = "port",
     .kind = positional,
     .value = "PORT",
     .commands = only(audit),
     .help = "only these ports: 8000 or 8000-8100 (default: all)",
     .default_text = "every port",
     .text = "audit only these ports (1-65535): `8000` or a range `8000-8100`",
     .example = "loopcheck audit 8000-8100"},

    // --- listen ---
    {.names = "spec",
     .kind = positional,
     .value = "SPEC",
     .commands = only(listen),
     .help = "127.0.0.1:PORT, [::1]:PORT, localhost:PORT (every address the name resolves to) "
             "or dual:PORT ([::], IPV6_V6ONLY off); port 0 picks one",
     .complete = Complete::spec,
     .required = true,
     .text = "what to open: `127.0.0.1:PORT`, `[::1]:PORT`, `localhost:PORT` (every address "
             "the name resolves to) or `dual:PORT` (`[::]` with `IPV6_V6ONLY` off); port 0 "
             "picks one",
     .example = "loopcheck listen 127.0.0.1:8000"},
    {.names = "--for",
     .kind = value,
     .value = "DURATION",
     .commands = only(listen),
     .help = "stop after this long: 30s, 5m (default: until Ctrl-C)",
     .default_text = "until Ctrl-C",
     .complete = Complete::duration,
     .text = "stop after this long",
     .example = "loopcheck listen --for 30s localhost:8000"},
    {.names = "--allow-any",
     .kind = flag,
     .commands = only(listen),
     .help = "allow addresses other than loopback (and dual:, which binds [::])",
     .default_text = "loopback only",
     .text = "allow addresses other than loopback (and `dual:`, which binds `[::]`)",
     .example = "loopcheck listen dual:8000 --allow-any"},

    // --- scan ---
    {.names = "path",
     .kind = positional,
     .value = "PATH",
     .commands = only(scan),
     .help = "files or folders to scan (default: .)",
     .default_text = ".",
     .complete = Complete::path,
     .text = "files or folders to scan; one that cannot be read is a usage error (exit 2, one "
             "line)",
     .example = "loopcheck scan src config"},
    {.names = "--no-probe",
     .kind = flag,
     .commands = only(scan),
     .help = "static scan only: connect to nothing, infer servers from the tree and usual ports",
     .default_text = "probe",
     .text = "connect to nothing: servers are inferred from binds in the tree and usual ports",
     .example = "loopcheck scan --no-probe"},
    {.names = "--strict",
     .kind = flag,
     .commands = only(scan),
     .help = "exit 1 for risky config values too, not only clients",
     .default_text = "off",
     .text = "exit 1 for a risky config value too, not only a risky client",
     .example = "loopcheck scan --strict"},
    {.names = "--exit-zero",
     .kind = flag,
     .commands = only(scan),
     .help = "report as usual, but exit 0 whatever was found",
     .default_text = "off",
     .text = "report as usual, exit 0 whatever was found",
     .example = "loopcheck scan --exit-zero"},
    {.names = "--baseline",
     .kind = value,
     .value = "FILE",
     .commands = only(scan),
     .help = "hits whose fingerprints FILE lists do not fail (see --write-baseline)",
     .default_text = "none",
     .complete = Complete::path,
     .text = "hits whose fingerprints FILE lists do not fail ([scan.md](scan.md#adoption)); a "
             "fingerprint survives line moves, editing the line or renaming the file makes a "
             "new one",
     .example = "loopcheck scan --baseline .loopcheck-baseline"},
    {.names = "--write-baseline",
     .kind = value,
     .value = "FILE",
     .commands = only(scan),
     .help = "write the risky hits' fingerprints to FILE, to accept them",
     .default_text = "none",
     .complete = Complete::path,
     .text = "write the risky hits' fingerprints to FILE, to accept them",
     .example = "loopcheck scan --write-baseline .loopcheck-baseline"},
    {.names = "--since",
     .kind = value,
     .value = "REF",
     .commands = only(scan),
     .help = "only hits on lines changed since the git revision REF fail",
     .default_text = "none",
     .complete = Complete::choices,
     .choices = "HEAD origin/main",
     .text = "only hits on lines changed since the git revision REF fail (git diff of REF "
             "against the index: staged and committed changes, and untracked files)",
     .example = "loopcheck scan --since origin/main"},
    {.names = "--format",
     .kind = value,
     .value = "FORMAT",
     .commands = only(scan),
     .help = "text, json, markdown, sarif, github or short (default text)",
     .default_text = "text",
     .complete = Complete::choices,
     .choices = "text json markdown sarif github short",
     .text = "the report's format: `text`, `json` or `markdown`, and scan's own `sarif` (SARIF "
             "2.1.0), `github` (Actions annotations) and `short` (`path:line:col: RULE "
             "message`) ([scan.md](scan.md#formats))",
     .example = "loopcheck scan --format sarif > scan.sarif"},

    // --- staircase ---
    {.names = "target",
     .kind = positional,
     .value = "TARGET",
     .commands = only(staircase),
     .help = "host:port that refuses; default: a closed port on 127.0.0.1 and ::1",
     .default_text = "a closed port",
     .complete = Complete::target,
     .text = "a host:port that refuses; by default a closed port of its own on 127.0.0.1 and "
             "::1",
     .example = "loopcheck staircase 127.0.0.1:9"},
    {.names = "-n,--count",
     .kind = value,
     .value = "N",
     .commands = only(staircase),
     .help = "probes per limit (default 3, at most 100)",
     .default_text = "3",
     .bounds = std::array<long long, 2>{1, max_staircase_count},
     .text = "probes per retry limit (1 to 100)",
     .example = "loopcheck staircase -n 5"},
    {.names = "--ascii",
     .kind = flag,
     .commands = only(staircase),
     .help = "draw the bars with '#' (default: Unicode blocks in a UTF-8 locale)",
     .default_text = "UTF-8 blocks",
     .text = "draw the bars with `#` instead of Unicode blocks (the default where the locale "
             "is UTF-8: the first set of `LC_ALL`, `LC_CTYPE`, `LANG` names UTF-8; otherwise "
             "ASCII already)",
     .example = "loopcheck staircase --ascii"},

    // --- wait ---
    {.names = "target",
     .kind = positional,
     .value = "TARGET",
     .commands = only(wait),
     .help = "host:port, [v6]:port, URL or bare port",
     .complete = Complete::target,
     .required = true,
     .text = "what to wait for (see [Targets](#targets)); at least one",
     .example = "loopcheck wait localhost:8000"},
    {.names = "--for",
     .kind = value,
     .value = "DURATION",
     .commands = only(wait),
     .help = "how long to wait in all (default 30s)",
     .default_text = "30s",
     .complete = Complete::duration,
     .text = "how long to wait in all, at most 1 hour (`1h`, `1m30s`, `90s`); exit 3 when it "
             "runs out",
     .example = "loopcheck wait --for 2m localhost:8000"},
    {.names = "-t,--timeout",
     .kind = value,
     .value = "DURATION",
     .commands = only(wait),
     .help = "same as --for (as wait-for-it and wait-on read -t): the whole wait's limit",
     .default_text = "30s",
     .complete = Complete::duration,
     .text = "same as `--for`, the limit of the whole wait, as `-t` reads in wait-for-it, "
             "wait-on and wait4x. In the check, `-t` limits one connect; a wait's polls give up "
             "after 1 s each on their own",
     .example = "loopcheck wait -t 2m localhost:8000"},
    {.names = "--http",
     .kind = value,
     .value = "PATH",
     .commands = only(wait),
     .help = "up means a GET of PATH answers --expect-status (an http:// URL does this with "
             "its own path)",
     .text = "wait until a GET of `PATH` on each target answers a status in `--expect-status`, "
             "not just until the port accepts; an `http://` target does this with the URL's "
             "own path without the option. HTTP/1.1, `Connection: close`, 1 s per answer. "
             "An `https://` target waits for its port only, and the report says so. Not with "
             "`--down`",
     .example = "loopcheck wait --http /health localhost:8000"},
    {.names = "--expect-status",
     .kind = value,
     .value = "LIST",
     .commands = only(wait),
     .help = "the statuses an HTTP target's GET must answer (default 200-399)",
     .default_text = "200-399",
     .text = "the statuses that count as up for an HTTP target: `200`, `200-299`, "
             "`200,204,301-308` (default `200-399`, as Kubernetes' httpGet probe). A 503 while "
             "the application starts is \"not yet\"",
     .example = "loopcheck wait --expect-status 200 http://localhost:8000/health"},
    {.names = "command",
     .kind = positional,
     .value = "COMMAND",
     .commands = only(wait),
     .help = "run this after --, once every target is up; its exit status is loopcheck's",
     .complete = Complete::program,
     .text = "after `--`: the command to run once every target is up (as wait-for-it and "
             "wait4x do), in loopcheck's place on Linux and macOS (exec: it keeps the pid, "
             "stdin, stdout and signals, as an exec-form `ENTRYPOINT` needs), as a child on "
             "Windows. Its exit status becomes loopcheck's; 127 when it is not found. It does "
             "not run when the wait fails (exit 2 to 5, 130, 143) or, with `--strict`, when "
             "resolver order costs clients (exit 1). The report goes to stderr then, unless "
             "`-q`, so the command's stdout stays its own",
     .example = "loopcheck wait http://localhost:8000/health -- python3 app.py"},
    {.names = "--interval",
     .kind = value,
     .value = "DURATION",
     .commands = only(wait),
     .help = "pause between two polls of one address (default 25ms, from 1ms to 60s)",
     .default_text = "25ms",
     .complete = Complete::duration,
     .text = "the pause between two polls of one address, from 1ms to 60s: at most 40 "
             "connects a second per address",
     .example = "loopcheck wait --interval 100ms localhost:8000"},
    {.names = "--all-addresses",
     .kind = flag,
     .commands = only(wait),
     .help = "wait until every address of each target has accepted",
     .text = "wait until every address of each target has accepted (a server every client "
             "must reach)",
     .example = "loopcheck wait --all-addresses localhost:8000"},
    {.names = "--strict",
     .kind = flag,
     .commands = only(wait),
     .help = "exit 1 when an address before the accepting one in resolver order does not "
             "accept (in-order clients pay for it)",
     .text = "exit 1 when an address before the accepting one in resolver order does not "
             "accept: clients that try addresses in order (Python, .NET) pay for its refusal "
             "on every connection, about 2 s each on Windows. Up on ::1 while 127.0.0.1 never "
             "accepts is a warning only (some clients never try ::1 and fail), with or "
             "without `--strict`",
     .example = "loopcheck wait --strict localhost:8000"},
    {.names = "--down",
     .kind = flag,
     .commands = only(wait),
     .help = "wait until every address of each target refuses (the port is free)",
     .text = "wait until every address of each target refuses (the port is free); a connect "
             "nobody answers does not count, as a full accept queue gives that too. Not with "
             "`--all-addresses` or `--strict`",
     .example = "loopcheck wait --down 127.0.0.1:8000"},

    // --- trace ---
    {.names = "command",
     .kind = positional,
     .value = "COMMAND",
     .commands = only(trace),
     .help = "the command to run, after --",
     .complete = Complete::program,
     .text = "the command to run and its arguments, after `--`; it keeps its own stdin, "
             "stdout, stderr and environment",
     .example = "loopcheck trace -- python3 app.py"},
    {.names = "--windows-order",
     .kind = flag,
     .commands = only(trace),
     .help = "run the command with Windows' answer for localhost (::1 first): a private mount "
             "namespace with its own /etc/hosts and /etc/gai.conf",
     .default_text = "off",
     .text = "run the command with Windows' answer for localhost, ::1 first: a private mount "
             "namespace with its own `/etc/hosts` and `/etc/gai.conf` (unprivileged through a "
             "user namespace where the kernel allows; where it is refused the report says what "
             "ran instead)",
     .example = "loopcheck trace --windows-order -- python3 app.py"},
    {.names = "--windows-timing",
     .kind = flag,
     .commands = only(trace),
     .help = "make refused loopback connects on the command's ports take as long as on "
             "Windows, on real packets (a tarpit listener), to measure the command's own "
             "fallback",
     .default_text = "off",
     .text = "make a refused connect on the command's ports take as long as on Windows, on "
             "real packets (a tarpit listener on the other address), so the time lost here is "
             "the program's own algorithm, measured; undone on every exit",
     .example = "loopcheck trace --windows-order --windows-timing -- npm test"},
    {.names = "--threshold",
     .kind = value,
     .value = "DURATION",
     .commands = only(trace),
     .help = "a connect, refusal or fallback slower than this is slow (default 100ms)",
     .default_text = "100ms",
     .complete = Complete::duration,
     .text = "the most the run may lose to loopback connects, here or on Windows, before the "
             "exit code is 1",
     .example = "loopcheck trace --threshold 500ms -- npm test"},

    // --- completion ---
    {.names = "shell",
     .kind = positional,
     .value = "SHELL",
     .commands = only(completion),
     .help = "bash, zsh, fish or powershell",
     .complete = Complete::choices,
     .choices = "bash zsh fish powershell",
     .required = true,
     .text = "the shell whose completion script to print: `bash`, `zsh`, `fish` or "
             "`powershell`",
     .example = "loopcheck completion zsh > ~/.zfunc/_loopcheck"},
});

} // namespace

std::string_view command_word(Command command) {
    constexpr std::array<std::string_view, command_count> words = {
        "", "audit", "listen", "scan", "staircase", "trace", "wait", "completion"};
    return words[static_cast<std::size_t>(command)];
}

std::span<const OptionRow> option_table() {
    return rows;
}

bool takes(const OptionRow& row, Command command) {
    return (row.commands & only(command)) != 0;
}

std::array<std::string_view, 2> option_names(const OptionRow& row) {
    const auto comma = row.names.find(',');
    if (comma == std::string_view::npos)
        return {row.names, {}};
    return {row.names.substr(0, comma), row.names.substr(comma + 1)};
}

std::string_view long_name(const OptionRow& row) {
    const auto names = option_names(row);
    return names[1].empty() ? names[0] : names[1];
}

bool takes_value(const OptionRow& row) {
    return row.kind == Kind::value || row.kind == Kind::repeated;
}

const OptionRow* find_option(Command command, std::string_view name) {
    for (const OptionRow& row : rows) {
        const auto names = option_names(row);
        if (takes(row, command) && (names[0] == name || names[1] == name))
            return &row;
    }
    return nullptr;
}

std::string_view why_not(const OptionRow& row, Command command) {
    for (const NotFor& n : row.not_for)
        if (!n.why.empty() && n.command == command)
            return n.why;
    return {};
}

} // namespace loopcheck
