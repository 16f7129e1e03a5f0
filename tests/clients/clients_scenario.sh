#!/usr/bin/env bash
# Runs one scenario of the client harness: real clients against loopcheck's
# client table in the netns lab (harness.py inside lab.sh).
#
# usage: clients_scenario.sh SCENARIO LOOPCHECK [RESULTS_DIR]
#
# RESULTS_DIR (default: the current directory) gets clients-SCENARIO.json
# for table.py. LOOPCHECK_CLIENT_ROOTS="bookworm=DIR trixie=DIR" adds the
# chroots prepare-root.sh made (and leaves this machine's own clients out
# unless LOOPCHECK_CLIENTS_HOST=1); a root still being prepared is waited
# for, up to LOOPCHECK_CLIENT_ROOTS_WAIT seconds (default 1500). Exit 77 with
# the reason when the lab cannot run here; with CI=true the chroots must be
# given (docs/hacking.md#the-client-harness-testsclients).
set -euo pipefail
here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")

if (($# < 2 || $# > 3)); then
    echo "usage: clients_scenario.sh SCENARIO LOOPCHECK [RESULTS_DIR]" >&2
    exit 2
fi
scenario=$1 loopcheck=$2 results=${3:-$PWD}
skip() {
    echo "clients_scenario.sh: skipped: $*" >&2
    exit 77
}
# .ci/run's probe found that the netns lab cannot run on this machine.
[[ -z ${LOOPCHECK_LAB_UNAVAILABLE:-} ]] || {
    echo "clients_scenario.sh: skipped (this machine cannot host the lab): $LOOPCHECK_LAB_UNAVAILABLE" >&2
    exit 77
}
command -v python3 >/dev/null || skip "python3 is not installed (it runs the harness)"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' || skip "the harness needs python3 >= 3.10"
[[ -x $loopcheck ]] || {
    echo "clients_scenario.sh: $loopcheck is not an executable" >&2
    exit 2
}
lab_args=$(python3 "$here/harness.py" lab-args "$scenario") || exit 2

roots=()
read -r -a specs <<<"${LOOPCHECK_CLIENT_ROOTS:-}"
if [[ ${CI:-} == true ]]; then
    for suite in bookworm trixie; do
        [[ " ${specs[*]} " == *" $suite="* ]] || {
            echo "clients_scenario.sh: CI=true but LOOPCHECK_CLIENT_ROOTS has no $suite root" >&2
            exit 1
        }
    done
fi
waited=0
limit=${LOOPCHECK_CLIENT_ROOTS_WAIT:-1500}
for spec in "${specs[@]}"; do
    dir=${spec#*=}
    # prepare-root.sh may still be running in the background (.ci/run
    # starts it early): wait for its verdict.
    until [[ -e $dir/.loopcheck-clients-ready || -e $dir/.loopcheck-clients-failed ]]; do
        ((waited < limit)) || {
            echo "clients_scenario.sh: $dir was not ready after ${limit}s" >&2
            exit 1
        }
        ((waited % 60)) || echo "clients_scenario.sh: waiting for prepare-root.sh to finish $dir" >&2
        sleep 5
        waited=$((waited + 5))
    done
    if [[ -e $dir/.loopcheck-clients-failed ]]; then
        echo "clients_scenario.sh: the root $dir could not be prepared: $(cat "$dir/.loopcheck-clients-failed")" >&2
        exit 1
    fi
    roots+=(--root "$dir")
done

mkdir -p "$results"
out=$(readlink -f "$results")/clients-$scenario.json
rm -f "$out"
# shellcheck disable=SC2086 # lab_args is a list of words without spaces
exec "$here/../netns/lab.sh" $lab_args "${roots[@]}" --time-limit 500 -- \
    python3 "$here/harness.py" run "$scenario" "$(readlink -f "$loopcheck")" "$out"
