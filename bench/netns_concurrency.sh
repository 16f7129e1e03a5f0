#!/usr/bin/env bash
# Concurrency on real packets: in the netns lab each probed address loses its
# first RST, so each refusal waits one SYN retransmission (~1 s). One
# loopcheck call with two such addresses should end in about 1 s, not 2;
# two calls in a row take 2 s. Prints a Markdown table. Needs root.
#
# usage: bench/netns_concurrency.sh [LOOPCHECK] [ROUNDS]
#        (default build/release/loopcheck, 5 rounds)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

if [[ ${1-} == __inside ]]; then
    lc=$2 rounds=$3
    now() { date +%s.%N; }
    # Latency (s) of every address in a --json report, space-separated.
    # loopcheck exits 1 here (slow refusals): that is the point, not an error.
    latencies() {
        python3 -c 'import json, sys
r = json.load(sys.stdin)
print(" ".join("%.3f" % (a["latency_ms"]["median"] / 1000) for t in r["targets"] for a in t["addresses"]))'
    }
    elapsed() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$1" "$2"; }

    echo "| round | one call: 127.0.0.1:A + 127.0.0.1:B, wall s | latencies s | two calls in a row, wall s | one call: localhost (::1 + 127.0.0.1), wall s | latencies s |"
    echo "|---:|---:|---|---:|---:|---|"
    for ((i = 0; i < rounds; i++)); do
        a=$((9000 + 2 * i)) b=$((9001 + 2 * i)) c=$((9100 + 2 * i)) d=$((9101 + 2 * i)) e=$((9200 + i))
        t0=$(now)
        json=$("$lc" --json "127.0.0.1:$a" "127.0.0.1:$b") || true
        t1=$(now)
        "$lc" -q "127.0.0.1:$c" >/dev/null || true
        "$lc" -q "127.0.0.1:$d" >/dev/null || true
        t2=$(now)
        json_name=$("$lc" --json "localhost:$e") || true
        t3=$(now)
        echo "| $((i + 1)) | $(elapsed "$t0" "$t1") | $(latencies <<<"$json") | $(elapsed "$t1" "$t2") |" \
            "$(elapsed "$t2" "$t3") | $(latencies <<<"$json_name") |"
    done
    exit 0
fi

lc=$(readlink -f "${1:-$root/build/release/loopcheck}")
rounds=${2:-5}
[[ -x $lc ]] || {
    echo "netns_concurrency: no loopcheck at $lc; build it first" >&2
    exit 2
}
if ! [[ $rounds =~ ^[0-9]{1,2}$ ]] || ((rounds < 1 || rounds > 50)); then
    echo "netns_concurrency: ROUNDS must be 1..50" >&2
    exit 2
fi
# Every port loses its first RST; the localhost port (::1 and 127.0.0.1)
# loses two, one for each address (the rule's bucket covers both families).
drops=()
for ((i = 0; i < rounds; i++)); do
    drops+=(--drop-rst "$((9000 + 2 * i)):1" --drop-rst "$((9001 + 2 * i)):1")
    drops+=(--drop-rst "$((9100 + 2 * i)):1" --drop-rst "$((9101 + 2 * i)):1")
    drops+=(--drop-rst "$((9200 + i)):2")
done
echo "## Concurrency on real packets: $(uname -sr), $(nproc) CPUs, $($lc --version | head -n 1)"
echo
exec "$root/tests/netns/lab.sh" --hosts-v6-first "${drops[@]}" --time-limit 600 -- \
    "$(readlink -f "$0")" __inside "$lc" "$rounds"
