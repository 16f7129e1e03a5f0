#!/usr/bin/env bash
# loopcheck.exe end to end under Wine: closed port, listener, wait's HTTP readiness and
# `-- COMMAND`, the zip's copy, self-check, staircase, a scan under a non-ASCII path.
#
# usage: wine_e2e.sh EXE ZIP_DIR
#   EXE      the cross-built loopcheck.exe (build/windows-cross/loopcheck.exe)
#   ZIP_DIR  the windows-cross .zip package, unpacked
#
# Not a CTest test: it needs the Wine prefix that CI's Windows section
# (.ci/sections/windows.sh) makes once for the Catch2 suite and for this,
# and that section runs it. The prefix: WINEPREFIX set, one persistent
# wineserver (wineserver -p), and Windows 10 reported
# (wine reg add 'HKCU\Software\Wine' /v Version /d win10 /f); below 16299
# loopcheck does not pair loopback probes and the closed-port check fails
# (docs/windows.md). Wine runs loopcheck's Winsock code for real, but on
# Linux's TCP stack: it cannot show Windows' SYN retries after a reset.
# Every step is bounded with timeout. Exits 0, or 1 after "FAIL: ..." at the
# first check that does not hold.
set -euo pipefail

[ $# = 2 ] || { echo "usage: $0 EXE ZIP_DIR" >&2; exit 2; }
exe=$1 zip_dir=$2
export WINEDEBUG=${WINEDEBUG:--all}

work=$(mktemp -d /tmp/loopcheck-wine-run.XXXXXX)
helper_pid=
cleanup() {
    if [ -n "$helper_pid" ]; then kill "$helper_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { printf -- '--- %s\n' "$1"; }

# wine_exe LIMIT EXE ARGS...: runs EXE under Wine, stdout in $work/out,
# stderr in $work/err, the exit code in $rc. Every run below ends in a
# report or a one-line error; an exit with no output at all is Wine failing
# to run the program (seen once: exit 1, nothing written, in 1 s). That is
# said, with what may explain it, and the run is repeated once; a second
# failure, or a failure with output, is judged by the caller as usual.
wine_exe() {
    local limit=$1
    shift
    rc=0
    timeout "$limit" wine "$@" >"$work/out" 2>"$work/err" || rc=$?
    if [ "$rc" != 0 ] && [ ! -s "$work/out" ] && [ ! -s "$work/err" ]; then
        echo "WINE: '$*' ended with exit $rc and wrote nothing; Wine's processes and the" \
            "kernel log's tail follow, then one repeat" >&2
        pgrep -a 'wine|\.exe' >&2 || true
        dmesg 2>/dev/null | tail -n 5 >&2 || true
        rc=0
        timeout "$limit" wine "$@" >"$work/out" 2>"$work/err" || rc=$?
    fi
}

step "a closed port and a listener"
# Linux sockets that Wine's sockets reach: a port bound but never
# listening (refused for certain) and a listener that accepts.
timeout 700 python3 -c '
import socket, time
closed = socket.socket()
closed.bind(("127.0.0.1", 0))
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(128)
server.settimeout(1)
print(closed.getsockname()[1], server.getsockname()[1], flush=True)
end = time.time() + 600
while time.time() < end:
    try:
        server.accept()[0].close()
    except socket.timeout:
        pass
' >"$work/ports" &
helper_pid=$!
for _ in $(seq 50); do [ -s "$work/ports" ] && break; sleep 0.1; done
read -r closed_port open_port <"$work/ports" || fail "the port helper did not start"

wine_exe 120 "$exe" "127.0.0.1:$closed_port"
cat "$work/out" "$work/err"
[ "$rc" = 3 ] || fail "closed port: exit $rc, expected 3 (server down)"
grep -q '^DOWN: ' "$work/out" || fail "closed port: no DOWN verdict"
grep -q 'without SYN retries' "$work/out" || fail "closed port: no paired no-SYN-retry probe"
# Wine 8 answers SIO_TCP_INITIAL_RTO with WSAEOPNOTSUPP; then the report
# must say so in one line.
if grep -q 'option refused' "$work/out"; then
    [ "$(grep -c 'SIO_TCP_INITIAL_RTO (no SYN retries) refused by the OS' "$work/out")" = 1 ] ||
        fail "closed port: the refused ioctl is not reported in one line"
fi

# Limit 0 must reach the ioctl as TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS
# (254): 0 there means the system default (docs/windows.md). -vv logs each
# call with its values, whether or not Wine takes it.
wine_exe 120 "$exe" -vv --syn-retries 0 "127.0.0.1:$closed_port"
grep 'SIO_TCP_INITIAL_RTO' "$work/err" | head -n 3
[ "$rc" = 3 ] || fail "--syn-retries 0: exit $rc, expected 3"
grep -q 'SIO_TCP_INITIAL_RTO(Rtt=0, MaxSynRetransmissions=254)' "$work/err" ||
    fail "--syn-retries 0 did not send MaxSynRetransmissions=254"

wine_exe 120 "$exe" "127.0.0.1:$open_port"
cat "$work/out" "$work/err"
[ "$rc" = 0 ] || fail "listener: exit $rc, expected 0"
grep -q "^OK: 127.0.0.1:$open_port" "$work/out" || fail "listener: no OK verdict"

step "loopcheck.exe wait: an HTTP answer, then the command after --"
# win32/http_exchange.cpp (the GET on select()) and win32/process.cpp (the
# command as a child, its exit status loopcheck's) on Wine's Winsock.
timeout 120 python3 -c '
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(503 if self.path == "/starting" else 200)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
' >"$work/http_port" &
http_pid=$!
for _ in $(seq 50); do [ -s "$work/http_port" ] && break; sleep 0.1; done
read -r http_port <"$work/http_port" || fail "the HTTP helper did not start"
wine_exe 120 "$exe" wait -t 20s "http://127.0.0.1:$http_port/health" -- cmd /c exit 7
cat "$work/out" "$work/err"
[ "$rc" = 7 ] || fail "wait -- cmd /c exit 7: exit $rc, expected the command's 7"
grep -q "GET /health: 200 OK" "$work/err" || fail "wait: the report (on stderr) names no 200"
wine_exe 120 "$exe" wait -t 2s "http://127.0.0.1:$http_port/starting" -- cmd /c exit 7
cat "$work/out" "$work/err"
[ "$rc" = 3 ] || fail "wait on a 503: exit $rc, expected 3 (and the command not run)"
grep -q "answered 503" "$work/err" || fail "wait on a 503: the last answer is not named"
kill "$http_pid" 2>/dev/null || true

step "the .zip package, and the loopcheck.exe inside it"
for f in loopcheck.exe README.md LICENSE; do
    [ -f "$zip_dir/$f" ] || fail "the zip has no $f"
done
wine_exe 120 "$zip_dir/loopcheck.exe" --version
cat "$work/out" "$work/err"
[ "$rc" = 0 ] || fail "loopcheck.exe from the zip: exit $rc"
grep -q '^loopcheck .*Windows' "$work/out" || fail "loopcheck.exe --version names no Windows build"

step "the self-check (loopcheck.exe with no target)"
wine_exe 120 "$exe"
cat "$work/out" "$work/err"
[ "$rc" = 0 ] || fail "self-check: exit $rc, expected 0"
grep -q 'Self-check of this machine' "$work/out" || fail "self-check: no self-check section"

step "loopcheck.exe staircase"
wine_exe 300 "$exe" staircase -n 1
cat "$work/out" "$work/err"
[ "$rc" = 0 ] || fail "staircase: exit $rc, expected 0"
grep -q '^Staircase: ' "$work/out" || fail "staircase: no table"
# Limit 0 is the first round's first ioctl: 254, never 0.
wine_exe 300 "$exe" staircase -n 1 -vv
[ "$rc" = 0 ] || fail "staircase -vv: exit $rc, expected 0"
grep -m 1 'SIO_TCP_INITIAL_RTO' "$work/err"
grep -m 1 'SIO_TCP_INITIAL_RTO' "$work/err" | grep -q 'MaxSynRetransmissions=254)' ||
    fail "staircase limit 0 did not send MaxSynRetransmissions=254"
! grep -q 'MaxSynRetransmissions=0)' "$work/err" ||
    fail "staircase sent MaxSynRetransmissions=0 (the system default)"

step "loopcheck.exe scan of a tree under José/日本 (named on the command line)"
# main()'s argv is in the ANSI code page and MinGW's path(std::string)
# reads that code page: both lost these names, and every file was skipped
# as "vanished" (issue 37). The path as Windows spells it, on Wine's Z:.
tree="$work/José/日本"
mkdir -p "$tree"
printf "import requests\nrequests.get('http://localhost:11434/api')\n" >"$tree/café.py"
wine_exe 120 "$exe" scan --no-probe --json "Z:${tree//\//\\}"
cat "$work/out" "$work/err"
[ "$rc" = 1 ] || fail "scan under José/日本: exit $rc, expected 1 (a risky hit)"
grep -q '"read": 1,' "$work/out" || fail "scan under José/日本: the file was not read"
grep -q 'José\\\\日本\\\\café.py' "$work/out" || fail "scan under José/日本: no hit in café.py"

step "alone on its console (a double-click's case), loopcheck.exe waits for Enter"
# Wine's console on a pseudo-terminal holds loopcheck alone, as a console
# Explorer opens does (GetConsoleProcessList: 1). The prompt must come, the
# process must still be there 2 s later, and Enter must end it with the
# run's own exit code. Wine draws spaces as cursor moves: compare without them.
timeout 150 python3 - "$exe" <<'PY' || fail "the double-click pause (above)"
import os, pty, re, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp("wine", ["wine", sys.argv[1], "--version"])
buf, status, waited = b"", None, False
key = "pressEntertocloseit."
end = time.time() + 120
while time.time() < end and status is None:
    if select.select([fd], [], [], 0.5)[0]:
        try:
            buf += os.read(fd, 4096)
        except OSError:
            pass
    shown = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\s", b"", buf).decode("utf-8", "replace")
    if not waited and key in shown:
        time.sleep(2)
        waited = os.waitpid(pid, os.WNOHANG)[0] == 0
        os.write(fd, b"\r")
    done, st = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(st)
if status is None:
    os.kill(pid, 9)
print(f"prompt: {key in shown}, waiting 2 s after it: {waited}, exit after Enter: {status}")
sys.exit(0 if waited and status == 0 else 1)
PY
# Its output in a file, or stdin not a console: no prompt, no wait.
timeout 60 wine "$exe" --version </dev/null >"$work/out" 2>"$work/err" || fail "--version with stdin from /dev/null"
! grep -q 'press Enter' "$work/err" || fail "a prompt with stdin from /dev/null"

echo "wine_e2e.sh: all checks passed"
