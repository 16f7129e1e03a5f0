#!/usr/bin/env bash
# Runs one netns integration case: the lab set-up it needs (lab.sh) around
# its checks (cases.py, inside the namespace).
#
# usage: netns_case.sh CASE LOOPCHECK
#
# Each case has a namespace of its own, so the fixed ports below cannot
# collide with anything on the machine or with a case running in parallel.
set -euo pipefail
here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")

if (($# != 2)); then
    echo "usage: netns_case.sh CASE LOOPCHECK" >&2
    exit 2
fi
case_name=$1 loopcheck=$2
if ! command -v python3 >/dev/null; then
    echo "netns_case.sh: skipped: python3 is not installed (it parses loopcheck --json)" >&2
    exit 77
fi
[[ -x $loopcheck ]] || {
    echo "netns_case.sh: $loopcheck is not an executable" >&2
    exit 2
}

case $case_name in
acceptance) # one port for the --json run, one for the text run
    lab=(--hosts-v6-first --drop-rst 8001:1 --drop-rst 8002:1)
    ports=(8001 8002)
    ;;
k2)
    lab=(--drop-rst 8001:2)
    ports=(8001)
    ;;
silence)
    lab=(--drop-syn 8001)
    ports=(8001)
    ;;
expect) # 8001 refuses at once, 8002 after one retransmission
    lab=(--drop-rst 8002:1)
    ports=(8001 8002)
    ;;
concurrency)
    lab=(--drop-rst 8001:2 --drop-rst 8002:2)
    ports=(8001 8002)
    ;;
wait) # one port for the plain run, one for --strict; ::1 refuses after ~1 s
    lab=(--hosts-v6-first --drop-rst 8001:1 --drop-rst 8002:1)
    ports=(8001 8002)
    ;;
wait-slow) # every refusal takes a retransmission, ::1 first
    lab=(--hosts-v6-first --drop-rst-conn 8001:1)
    ports=(8001)
    ;;
*)
    echo "netns_case.sh: unknown case '$case_name'" >&2
    exit 2
    ;;
esac

exec "$here/lab.sh" "${lab[@]}" --time-limit 90 -- \
    python3 "$here/cases.py" "$case_name" "$(readlink -f "$loopcheck")" "${ports[@]}"
