#!/usr/bin/env bash
# Checks the lab itself: CMD's exit code comes back, the namespace and what
# CMD left running in it are gone after a normal exit and after SIGTERM, and
# --hosts-v6-first and --gai-v4-first change localhost inside the lab only.
set -euo pipefail
lab=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lab.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

check() { # check DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then
        echo "ok   $what"
    else
        echo "FAIL $what"
        failed=1
    fi
}

# shellcheck disable=SC2317 # called through check/eval
ns_exists() { ip netns list | awk '{print $1}' | grep -qx "$1"; }
# Ended, or a zombie: an init that does not reap (some VMs' PID 1) leaves
# killed orphans as zombies, which kill -0 still finds.
gone() { ! kill -0 "$1" 2>/dev/null || [[ $(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) == Z ]]; }

# 1. A failing command: its exit code, and no namespace left behind.
rc=0
# shellcheck disable=SC2016 # expanded by the inner sh
"$lab" -- sh -c 'echo "$LOOPCHECK_LAB_NS" >"$1"; exit 3' sh "$work/ns1" || rc=$?
((rc != 77)) || exit 77 # the lab says why on stderr
check "CMD's exit code 3 comes back" test "$rc" -eq 3
ns=$(cat "$work/ns1")
check "the lab named its namespace ($ns)" test -n "$ns"
check "namespace $ns deleted after exit" eval "! ns_exists '$ns'"

# 2. SIGTERM while CMD runs, with a process CMD left in the background.
# shellcheck disable=SC2016 # expanded by the inner sh
"$lab" -- sh -c 'sleep 60 & echo "$LOOPCHECK_LAB_NS $!" >"$1.tmp"; mv "$1.tmp" "$1"; wait' \
    sh "$work/ns2" &
lab_pid=$!
for _ in $(seq 100); do
    [[ -s $work/ns2 ]] && break
    sleep 0.1
done
read -r ns bg <"$work/ns2"
check "the background process $bg runs in $ns" eval "ns_exists '$ns' && kill -0 '$bg'"
kill -TERM "$lab_pid"
for _ in $(seq 100); do
    gone "$lab_pid" && break
    sleep 0.1
done
rc=0
if gone "$lab_pid"; then wait "$lab_pid" || rc=$?; fi
check "lab.sh ended on SIGTERM with 143 (got $rc)" test "$rc" -eq 143
check "namespace $ns deleted after SIGTERM" eval "! ns_exists '$ns'"
check "the background process $bg was ended" gone "$bg"

# 3. The hosts file: ::1 first inside, the machine's own file untouched.
before=$(cksum </etc/hosts)
first=$("$lab" --hosts-v6-first -- getent ahosts localhost | awk 'NR == 1 {print $1}')
check "localhost is ::1 first inside the lab (got $first)" test "$first" = "::1"
check "/etc/hosts outside the lab unchanged" test "$(cksum </etc/hosts)" = "$before"

# 4. gai.conf: 127.0.0.1 first inside, the machine's gai.conf untouched (or
# still absent).
gai_before=$(cksum </etc/gai.conf 2>/dev/null || echo absent)
order=$("$lab" --gai-v4-first -- getent ahosts localhost | awk '$2 == "STREAM" { printf "%s ", $1 }')
check "localhost is 127.0.0.1, then ::1 with --gai-v4-first (got '$order')" test "$order" = "127.0.0.1 ::1 "
check "/etc/gai.conf outside the lab unchanged" \
    test "$(cksum </etc/gai.conf 2>/dev/null || echo absent)" = "$gai_before"

exit "$failed"
