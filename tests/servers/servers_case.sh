#!/usr/bin/env bash
# Runs one server of the server harness (servers.py) in the netns lab:
# localhost is ::1 first and every refusal on the server's port takes one SYN
# retransmission, as on Windows; the server starts with its usual bind, then
# with the fix loopcheck printed.
#
# usage: servers_case.sh SERVER LOOPCHECK [RESULTS_DIR]
#
# Exit 77 with the reason when the lab cannot run here (lab.sh's reasons) or
# the server is not installed (.ci/sections/servers.sh installs them).
set -euo pipefail
here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")

if (($# < 2 || $# > 3)); then
    echo "usage: servers_case.sh SERVER LOOPCHECK [RESULTS_DIR]" >&2
    exit 2
fi
server=$1 loopcheck=$2 results=${3:-$PWD}
[[ -z ${LOOPCHECK_LAB_UNAVAILABLE:-} ]] || {
    echo "servers_case.sh: skipped (this machine cannot host the lab): $LOOPCHECK_LAB_UNAVAILABLE" >&2
    exit 77
}
command -v python3 >/dev/null || {
    echo "servers_case.sh: skipped: python3 is not installed (it runs the harness)" >&2
    exit 77
}
[[ -x $loopcheck ]] || {
    echo "servers_case.sh: $loopcheck is not an executable" >&2
    exit 2
}
port=$(python3 "$here/servers.py" port "$server") || exit 2
mkdir -p "$results"
# The Go case may first wait for the Debian 12 client root (servers.py
# ROOT_WAIT_S) and build there.
limit=100
[[ $server != go ]] || limit=400
exec "$here/../netns/lab.sh" --hosts-v6-first --drop-rst-conn "$port:1" --time-limit "$limit" -- \
    python3 "$here/servers.py" "$server" "$(readlink -f "$loopcheck")" "$(readlink -f "$results")"
