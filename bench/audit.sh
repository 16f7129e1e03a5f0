#!/usr/bin/env bash
# `loopcheck audit` with 1, 100 and 1,000 listeners the benchmark opens
# (alternately on 127.0.0.1 and ::1, on consecutive ports), beside
# `ss -ltnp` listing the same set. Wall time per call, median of RUNS.
# Prints a Markdown table (docs/performance.md, "audit").
#
# Both tools are limited to the benchmark's port range, so other listeners
# on the machine are neither probed nor counted; both still read the whole
# socket table and /proc to find owners. loopcheck also connects once to
# localhost on every port and diagnoses it; ss does not connect.
#
# usage: bench/audit.sh [LOOPCHECK] [RUNS]   (default build/release/loopcheck, 5)
# needs: python3 (the listeners), ss (iproute2)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lc=$(readlink -f "${1:-$root/build/release/loopcheck}")
runs=${2:-5}
[[ -x $lc ]] || {
    echo "audit.sh: no loopcheck at $lc; build it first" >&2
    exit 2
}
if ! [[ $runs =~ ^[0-9]{1,2}$ ]] || ((runs < 1)); then
    echo "audit.sh: RUNS must be 1..99" >&2
    exit 2
fi
command -v ss >/dev/null || {
    echo "audit.sh: needs ss (iproute2)" >&2
    exit 2
}
ulimit -n 4096 2>/dev/null || true

# Opens N listeners on consecutive free ports, accepts (and closes) every
# connection so no backlog fills, prints the first port, runs until killed.
listeners_py='
import selectors, socket, sys
n = int(sys.argv[1])
for base in range(20000, 60000 - n, 997):
    socks = []
    try:
        for i in range(n):
            fam, host = (socket.AF_INET, "127.0.0.1") if i % 2 == 0 else (socket.AF_INET6, "::1")
            s = socket.socket(fam, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # ports left in TIME_WAIT
            if fam == socket.AF_INET6:
                s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            s.bind((host, base + i))
            s.listen(128)
            s.setblocking(False)
            socks.append(s)
        break
    except OSError:
        for s in socks:
            s.close()
else:
    sys.exit("no free block of %d ports" % n)
print(base, flush=True)
sel = selectors.DefaultSelector()
for s in socks:
    sel.register(s, selectors.EVENT_READ)
while True:
    for key, _ in sel.select():
        try:
            c, _ = key.fileobj.accept()
            c.close()
        except BlockingIOError:
            pass
'

now_ns() { date +%s%N; }
median_ms() { sort -n | awk '{a[NR] = $1} END {m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.1f", m / 1e6}'; }

echo "Medians of $runs runs."
echo
echo "| listeners | loopcheck audit (text), ms | loopcheck audit --json, ms | ss -ltnp, ms | ports audited | exit code |"
echo "|---:|---:|---:|---:|---:|---:|"
for n in 1 100 1000; do
    coproc LISTEN { exec python3 -c "$listeners_py" "$n"; }
    read -r base <&"${LISTEN[0]}"
    last=$((base + n - 1))
    text_times=() json_times=() ss_times=() ports=0 code=0
    for ((i = 0; i < runs; i++)); do
        # Exit 3 is expected from 2 listeners on: localhost (127.0.0.1 only
        # in /etc/hosts) does not reach the ::1 ones.
        t0=$(now_ns)
        "$lc" audit -q "$base-$last" >/dev/null || true
        t1=$(now_ns)
        out=$("$lc" audit -q --json "$base-$last") && code=0 || code=$?
        t2=$(now_ns)
        ss -Hltnp "sport >= :$base and sport <= :$last" >/dev/null
        t3=$(now_ns)
        text_times+=($((t1 - t0)))
        json_times+=($((t2 - t1)))
        ss_times+=($((t3 - t2)))
        ports=$(python3 -c 'import json, sys; print(len(json.load(sys.stdin)["ports"]))' <<<"$out")
    done
    kill "$LISTEN_PID"
    wait "$LISTEN_PID" 2>/dev/null || true
    printf '| %d | %s | %s | %s | %d | %d |\n' "$n" \
        "$(printf '%s\n' "${text_times[@]}" | median_ms)" \
        "$(printf '%s\n' "${json_times[@]}" | median_ms)" \
        "$(printf '%s\n' "${ss_times[@]}" | median_ms)" "$ports" "$code"
done
