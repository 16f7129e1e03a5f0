#!/usr/bin/env bash
# `loopcheck scan --no-probe` beside `git grep` and ripgrep looking for the
# same needles in the same trees: wall time (median of RUNS) and peak
# resident memory (GNU time's %M) of each. Prints a Markdown table
# (docs/performance.md, "scan").
#
# The greps search every file for the three needles; scan also finds
# 127/8, 0.0.0.0 and host.docker.internal, classifies every hit and reads
# only the kinds of file it knows (docs/scan.md), so the comparison is the
# cost of the whole answer against the cost of the first step of the
# manual recipe. Inside a git work tree both use git's file list; outside,
# git grep runs with --no-index and scan walks.
#
# usage: bench/scan.sh LOOPCHECK RUNS TREE...
# needs: git, rg (ripgrep), GNU time (/usr/bin/time)
set -euo pipefail
lc=$(readlink -f "${1:?usage: bench/scan.sh LOOPCHECK RUNS TREE...}")
runs=${2:?RUNS}
shift 2
[[ -x $lc ]] || { echo "scan.sh: no loopcheck at $lc" >&2; exit 2; }
command -v rg >/dev/null || { echo "scan.sh: needs rg (apt-get install ripgrep)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "scan.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
pattern='localhost|127\.0\.0\.1|\[::1\]'
timing=$(mktemp)
trap 'rm -f "$timing"' EXIT

# One command RUNS times; prints "median-seconds peak-KiB".
measure() {
    local times=() peak=0 out
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -o "$timing" -f '%e %M' "$@" >/dev/null 2>&1 || true
        out=$(tail -1 "$timing")
        times+=("${out% *}")
        if ((${out#* } > peak)); then peak=${out#* }; fi
    done
    printf '%s %s\n' "$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")" "$peak"
}

echo "| tree | files | MiB | scan --no-probe | git grep | rg -n | scan / git grep | scan peak | git grep peak | rg peak |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for tree in "$@"; do
    tree=$(readlink -f "$tree")
    if git -C "$tree" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        files=$(git -C "$tree" ls-files -co --exclude-standard | wc -l)
        grep_cmd=(git -C "$tree" grep -n -I -E "$pattern")
    else
        files=$(find "$tree" -type f | wc -l)
        grep_cmd=(git -C "$tree" grep --no-index -n -I -E "$pattern")
    fi
    mib=$(du -sm --exclude=.git "$tree" | cut -f1)
    # Warm the page cache once so every tool reads from memory.
    "${grep_cmd[@]}" >/dev/null 2>&1 || true
    read -r s_t s_m < <(measure "$lc" scan --no-probe --json "$tree")
    read -r g_t g_m < <(measure "${grep_cmd[@]}")
    read -r r_t r_m < <(measure rg -n -e "$pattern" "$tree")
    ratio=$(awk -v a="$s_t" -v b="$g_t" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else print "-" }')
    printf '| %s | %s | %s | %s s | %s s | %s s | %s | %s MiB | %s MiB | %s MiB |\n' \
        "$tree" "$files" "$mib" "$s_t" "$g_t" "$r_t" "$ratio" \
        $((s_m / 1024)) $((g_m / 1024)) $((r_m / 1024))
done
