#!/bin/sh
# trace_unprivileged.sh RUN_TESTS: the tracer's tests ([trace]) again as the
# unprivileged user nobody, when CTest runs as root: the tracer must work
# without privilege (seccomp under no_new_privs, ptrace of its own child,
# --windows-order in a user namespace). Exit 77 (skip) with the reason
# where that cannot be arranged.
set -u
tests=${1:?usage: trace_unprivileged.sh RUN_TESTS}
if [ "$(id -u)" != 0 ]; then
    echo "skipped: not root, so the ordinary run of [trace] is already unprivileged"
    exit 77
fi
if ! command -v setpriv >/dev/null 2>&1 || ! uid=$(id -u nobody 2>/dev/null); then
    echo "skipped: setpriv or the user nobody is missing"
    exit 77
fi
gid=$(id -g nobody)
as_nobody() { setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@"; }
if ! as_nobody test -x "$tests"; then
    echo "skipped: nobody cannot reach $tests (a build directory under a private home)"
    exit 77
fi
cd /tmp && exec env -u HOME TMPDIR=/tmp setpriv --reuid="$uid" --regid="$gid" --clear-groups \
    "$tests" "[trace]"
