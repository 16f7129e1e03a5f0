#!/usr/bin/env bash
# What compiling fmt once (cmake/fmt_once.cpp) saves: CPU seconds to compile
# each given source with fmt as a library, as the self-contained and cross
# builds do, and header-only (FMT_HEADER_ONLY), which is what they would do
# without it. The release preset's flags; interleaved, RUNS rounds.
#
# usage: bench/fmt_once.sh [RUNS] [SOURCE...]   (from the source tree; needs GNU time)
set -euo pipefail
runs=${1:-3}
shift || true
[ $# -gt 0 ] || set -- src/core/diagnose/diagnose.cpp src/report/text/check.cpp src/run/check.cpp
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
flags=(-Iinclude -Isrc -std=c++20 -O3 -DNDEBUG -fno-math-errno -fno-trapping-math
       -ffunction-sections -fdata-sections -c -o "$out/x.o")
printf 'load average before: %s\n\n| source | fmt | CPU s (median of %s) |\n|---|---|---:|\n' \
    "$(cut -d' ' -f1 /proc/loadavg)" "$runs"
for f in "$@"; do
    for mode in library header-only; do : >"$out/$mode"; done
    for _ in $(seq "$runs"); do
        /usr/bin/time -f '%U %S' -a -o "$out/library" c++ "${flags[@]}" "$f"
        /usr/bin/time -f '%U %S' -a -o "$out/header-only" c++ "${flags[@]}" -DFMT_HEADER_ONLY=1 "$f"
    done
    for mode in library header-only; do
        printf '| %s | %s | %s |\n' "$f" "$mode" \
            "$(awk '{print $1 + $2}' "$out/$mode" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
    done
done
