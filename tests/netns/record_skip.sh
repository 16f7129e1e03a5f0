#!/usr/bin/env bash
# Runs one lab test (netns.*, clients.*) and, when it skips (exit 77),
# keeps its reason, the script's "...: skipped: WHY" line, in
# $LOOPCHECK_SKIP_DIR/TEST.txt; tests/netns/skip_summary.sh prints them all
# after CTest's own summary, so that "100% tests passed" never hides a lab
# that did not run. stderr still reaches CTest as it was written.
# Usage: record_skip.sh TEST-NAME COMMAND [ARG...]
set -uo pipefail
name=$1
shift
dir=${LOOPCHECK_SKIP_DIR:-}
[[ -n $dir ]] || exec "$@"
mkdir -p "$dir"
rm -f "$dir/$name.txt"
err=$(mktemp)
trap 'rm -f "$err"' EXIT
"$@" 2> >(tee "$err" >&2)
code=$?
wait # tee has written everything
if ((code == 77)); then
    why=$(grep -m1 'skipped' "$err" | sed -E 's/^[^:]*: skipped( \([^)]*\))?: //')
    echo "${why:-no reason given}" >"$dir/$name.txt"
fi
exit "$code"
