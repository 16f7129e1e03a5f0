# shellcheck shell=bash
# Client harness: its Debian 12 and 13 roots made in the background (clients_start), its tests checked after the README's (clients_wait).
#
# Sourced by .ci/run, which calls clients_start before the README's build
# and clients_wait after the README's tests: the roots take minutes when
# not cached, and the clients.* tests inside the README's test command wait
# for them (LOOPCHECK_CLIENT_ROOTS). Reads lab_unavailable (lab.sh).
# (tests/clients, docs/hacking.md#the-client-harness-testsclients)

clients_roots=/var/tmp/loopcheck-ci-clients
clients_prepare_pids=()

# Debian 12 and Debian 13 chroots with real clients (Python, requests,
# httpx, anyio, aiohttp, curl, wget, Node, a JDK, Go, Ruby, Perl with LWP,
# PHP), prepared in the background now: unpacked from /var/cache/loopcheck-ci
# in seconds when cached, else debootstrap and apt-get (minutes, once; a
# change of prepare-root.sh's package list or recipe number is a new cache
# key). Issue 25's clients and scenario add about 2 to 3 minutes to the
# clients.* tests on this shared two-core machine (9 more clients: 15 to
# 35 s a scenario with both roots side by side; the v4first-v4only scenario:
# 35 s, 60 s under a load of 15; all six scenarios took 309 s in one run);
# the tarballs grow by about 160 MB (Debian 12) and 135 MB (Debian 13). The clients.* tests, run by the README's test
# command, wait for them (LOOPCHECK_CLIENT_ROOTS); CI=true makes a core
# client that cannot run a failure instead of a skip. Waited for by
# clients_wait.
clients_start() {
    local suite
    if [ -n "$lab_unavailable" ]; then
        # The harness runs inside the lab: no roots to make; clients_scenario.sh skips with
        # this reason.
        export LOOPCHECK_LAB_UNAVAILABLE=$lab_unavailable
        echo "not made: $lab_unavailable"
        return 0
    fi
    $S apt-get install -y debootstrap tar util-linux
    # openai-node, ollama-js and axios from npm, pinned, once into
    # /var/cache/loopcheck-ci/npm-clients (bounded; the harness copies them
    # beside probe_npm.js in each root). npm itself: servers_install.
    $S tests/clients/npm_cache.sh clients
    export CI=${CI:-true}
    for suite in bookworm trixie; do
        # A root left by a run that died is unmounted and removed first.
        $S tests/clients/prepare-root.sh --cleanup "$clients_roots/$suite"
    done
    mkdir -p "$clients_roots"
    for suite in bookworm trixie; do
        $S tests/clients/prepare-root.sh "$suite" "$clients_roots/$suite" >"$clients_roots/$suite.log" 2>&1 &
        clients_prepare_pids+=($!)
    done
    export LOOPCHECK_CLIENT_ROOTS="bookworm=$clients_roots/bookworm trixie=$clients_roots/trixie"
    # Unmounted and removed on any exit, a failed test included.
    ci_cleanups+=(clients_cleanup)
}

clients_cleanup() {
    local pid suite
    for pid in "${clients_prepare_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for suite in bookworm trixie; do
        $S tests/clients/prepare-root.sh --cleanup "$clients_roots/$suite" || true
    done
}

# After the README's tests. CI runs as root with the lab's packages, so a
# skipped test there means the lab or the harness broke, unless the lab
# probe found that this machine cannot host the lab at all (its reason is
# in the summary at the end). docs/clients.md now holds this run's table.
clients_wait() {
    local pid suite
    for pid in "${clients_prepare_pids[@]}"; do wait "$pid" || true; done
    [ ! -d "$clients_roots" ] || cat "$clients_roots"/*.log 2>/dev/null || true
    if [ -n "$lab_unavailable" ]; then
        echo "netns and clients tests skipped: this machine cannot host the lab: $lab_unavailable"
    elif grep -E '^(netns_case|clients_scenario|lab|harness|table|windows_ioctl|node_reuse)(\.sh|\.py): skipped' build/ci/Testing/Temporary/LastTest.log; then
        echo "netns or client harness tests were skipped (reason above)" >&2
        exit 1
    fi
    git --no-pager diff --stat -- docs/clients.md || true
    for suite in bookworm trixie; do
        $S tests/clients/prepare-root.sh --cleanup "$clients_roots/$suite"
    done
}
