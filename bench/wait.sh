#!/usr/bin/env bash
# `loopcheck wait` beside the waiters CI scripts use: wait-on and wait-port
# (npm, installed into a temporary directory outside the repository), an
# `nc -z` loop with `sleep 1`, and a bash /dev/tcp loop with `sleep 1`;
# then HTTP readiness (a 503 that turns 200) beside wait-on's http-get: and
# a curl loop.
# For each: detection latency (from the server's listen() to the waiter's
# exit) and CPU while waiting (bench/wait_bench.py). Prints Markdown tables
# (docs/performance.md, "wait").
#
# Two set-ups: 127.0.0.1 (every waiter polls that literal), and, as root,
# localhost in the ::1-first lab (tests/netns/lab.sh --hosts-v6-first) with
# the server on 127.0.0.1 only. lab.sh's --drop-rst-conn 8001:1 drops the
# first RST of every connection to the port: every ::1 refusal takes one
# SYN retransmission (about 1 s), as every refused loopback connect is slow
# on Windows.
#
# usage: bench/wait.sh [LOOPCHECK] [RUNS]   (default build/release/loopcheck, 5)
# needs: python3, node and npm (and network to the npm registry), nc, curl, bash
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lc=$(readlink -f "${1:-$root/build/release/loopcheck}")
runs=${2:-5}
[[ -x $lc ]] || {
    echo "wait.sh: no loopcheck at $lc; build it first" >&2
    exit 2
}
if ! [[ $runs =~ ^[0-9]{1,2}$ ]] || ((runs < 1)); then
    echo "wait.sh: RUNS must be 1..99" >&2
    exit 2
fi
for tool in python3 node npm nc curl; do
    command -v "$tool" >/dev/null || {
        echo "wait.sh: needs $tool" >&2
        exit 2
    }
done

npm_dir=${WAIT_BENCH_NPM_DIR:-}
if [[ -z $npm_dir ]]; then
    npm_dir=$(mktemp -d /tmp/loopcheck-wait-bench.XXXXXX)
    trap 'rm -rf "$npm_dir"' EXIT
fi
if [[ ! -x $npm_dir/node_modules/.bin/wait-on || ! -x $npm_dir/node_modules/.bin/wait-port ]]; then
    (cd "$npm_dir" && npm init -y >/dev/null && npm install --no-audit --no-fund wait-on wait-port >/dev/null)
fi
bin=$npm_dir/node_modules/.bin
versions=$(cd "$npm_dir" && node -e "console.log('wait-on ' + require('wait-on/package.json').version + ', wait-port ' + require('wait-port/package.json').version)")
echo "loopcheck $("$lc" --version | head -1 | awk '{print $2}'), $versions, node $(node --version), $(nc -h 2>&1 | head -1)"
echo

waiters=(
    "loopcheck wait=exec $lc wait -q --for 60s {host}:{port}"
    "wait-on (250 ms)=exec $bin/wait-on -t 60000 tcp:{host}:{port}"
    "wait-port=exec $bin/wait-port -t 60000 {host}:{port}"
    "nc -z loop, sleep 1=until nc -z {host} {port}; do sleep 1; done"
    "bash /dev/tcp loop, sleep 1=until bash -c 'exec 3<>/dev/tcp/{host}/{port}' 2>/dev/null; do sleep 1; done"
)

python3 "$root/bench/wait_bench.py" 127.0.0.1 "$runs" "${waiters[@]}"
echo

# Readiness: the port accepts from the start, the application answers 503
# and then 200. wait-on's http-get: needs a 2xx; a curl -f loop is what a
# script without a waiter does. (wait4x's HTTP mode is not here: its
# release binaries come from GitHub, which this machine cannot reach, and
# it needs a newer Go than Debian 12's to build.)
http_waiters=(
    "loopcheck wait (HTTP)=exec $lc wait -q --for 60s {url}"
    "wait-on http-get: (250 ms)=exec $bin/wait-on -t 60000 http-get://127.0.0.1:{port}/health"
    "curl -f loop, sleep 1=until curl -sf -o /dev/null {url}; do sleep 1; done"
)
python3 "$root/bench/wait_bench.py" http "$runs" "${http_waiters[@]}"
echo
if [[ $(id -u) -eq 0 ]]; then
    # The lab drops the first RST of every connect to the port range the
    # driver binds in: reserve one fixed port there instead.
    WAIT_BENCH_PORT=8001 "$root/tests/netns/lab.sh" --hosts-v6-first --drop-rst-conn 8001:1 \
        --time-limit 600 -- python3 "$root/bench/wait_bench.py" localhost "$runs" "${waiters[@]}"
else
    echo "(the ::1-first lab needs root: skipped)"
fi
