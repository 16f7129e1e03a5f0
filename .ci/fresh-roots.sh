# shellcheck shell=bash
# CI on fresh machines: the README's two commands, exactly as README.md has
# them, in a fresh Debian 12 (bookworm) and a fresh Debian 13 (trixie) root,
# so that nothing installed on the CI machine by hand can hide a missing
# step. Trixie is the project's proof for g++ 14, fmt 10, spdlog 1.15 and
# Catch2 3. Sourced by .ci/run, which calls, in this order:
#
#   fresh_roots_start      early: makes both roots and downloads their
#                          packages in the background, while the host builds
#   fresh_roots_run        later: waits for that, then in each root the
#                          README's commands (timed); in trixie first the
#                          release tarball's binary, before anything is
#                          installed there
#   fresh_roots_cleanup    unmounts and removes both roots (the caller's
#                          EXIT trap calls it too)
#
# The roots come from .ci/make-root (cached bare roots outside the clone).
# ccache keeps one directory per suite outside the clone,
# /var/cache/loopcheck-ci/ccache-SUITE, bind-mounted into the root; a root
# of the host's own release uses the host's ccache directory ($CCACHE_DIR)
# instead: the same g++ and headers, compiler checked by content and paths
# made relative (CCACHE_BASEDIR) give the same hashes, so its builds are
# mostly hits on what the host compiled minutes before.
# Each step is bounded with timeout.

FRESH_CACHE=${LOOPCHECK_CI_CACHE:-/var/cache/loopcheck-ci}
FRESH_SUITES=(bookworm trixie)
FRESH_WORK=
FRESH_PID=

# The lines of the Nth ```sh block under README.md's build heading.
readme_block() {
    awk -v want="$1" '
        /^## / { in_section = ($0 == "## Build, install and run"); next }
        in_section && /^```sh$/ { n++; in_block = 1; next }
        in_block && /^```$/ { in_block = 0; next }
        in_block && n == want { print }
    ' README.md
}

# Runs a command in ROOT with a clean environment, as root, from /src (the
# clone's copy) when there is one.
in_root() {
    local root=$1 limit=$2
    shift 2
    timeout "$limit" chroot "$root" /usr/bin/env -i \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive CTEST_PARALLEL_LEVEL=2 CMAKE_BUILD_PARALLEL_LEVEL=2 \
        CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_DIR=/var/cache/ccache CCACHE_BASEDIR=/src \
        CCACHE_COMPILERCHECK=content \
        bash -c 'if [ -d /src ]; then cd /src; fi; exec "$@"' bash "$@"
}

# Background part: the roots, the clone copied in, and every package the
# README's first command installs (plus ccache) downloaded, not installed.
fresh_roots_prepare() {
    local suite root packages cache
    # The package list of the README's own apt-get line, so the two cannot
    # drift; a README without one fails here.
    packages=$(readme_block 1 | grep -oE 'apt-get install -y [^&|;]+' | sed 's/apt-get install -y //')
    [ -n "$packages" ] || { echo "no 'apt-get install -y' in README's first command" >&2; return 1; }
    for suite in "${FRESH_SUITES[@]}"; do
        root=$FRESH_WORK/$suite
        timeout 1200 .ci/make-root "$suite" "$root"
        cache=$FRESH_CACHE/ccache-$suite
        if [ -n "${CCACHE_DIR:-}" ] && [ "$suite" = "$(. /etc/os-release && echo "${VERSION_CODENAME:-}")" ]; then
            cache=$CCACHE_DIR
        fi
        mkdir -p "$root/src" "$root/var/cache/ccache" "$cache"
        mount --bind "$cache" "$root/var/cache/ccache"
        # The clone as committed plus what is not ignored: no build trees.
        git ls-files -z --cached --others --exclude-standard |
            tar --null -T - -cf - | tar -xf - -C "$root/src"
        # shellcheck disable=SC2086 # the package list is words
        in_root "$root" 900 sh -c "apt-get update -q && apt-get install -q -y --download-only ccache $packages" \
            >"$FRESH_WORK/$suite.prepare.log" 2>&1 ||
            { tail -n 30 "$FRESH_WORK/$suite.prepare.log"; return 1; }
    done
}

fresh_roots_start() {
    FRESH_WORK=$(mktemp -d /var/tmp/loopcheck-ci-roots.XXXXXX)
    [ "$(readme_block 1 | wc -l)" = 1 ] && [ "$(readme_block 2 | wc -l)" = 1 ] &&
        [ -z "$(readme_block 3)" ] ||
        { echo "README's build section must hold two one-line sh blocks" >&2; return 1; }
    fresh_roots_prepare >"$FRESH_WORK/prepare.log" 2>&1 &
    FRESH_PID=$!
}

fresh_roots_cleanup() {
    [ -n "$FRESH_WORK" ] || return 0
    [ -z "$FRESH_PID" ] || { kill "$FRESH_PID" 2>/dev/null; wait "$FRESH_PID" 2>/dev/null; } || true
    local suite
    for suite in "${FRESH_SUITES[@]}"; do
        .ci/make-root --cleanup "$FRESH_WORK/$suite" || true
    done
    rm -rf --one-file-system "$FRESH_WORK"
    FRESH_WORK= FRESH_PID=
}

# The release tarball's binary in a root where nothing but the base system
# is installed: Debian 12's libfmt9 and libspdlog1.10 do not exist there.
# It must print its version and find a closed port closed (exit 3).
fresh_root_tarball() {
    local root=$1 tarball=$2 port_file out rc=0 helper
    rm -rf "$root/opt/loopcheck"
    mkdir -p "$root/opt/loopcheck"
    tar -xzf "$tarball" -C "$root/opt/loopcheck" --strip-components=1
    in_root "$root" 30 /opt/loopcheck/bin/loopcheck --version
    # The chroot shares the host's network: a host socket bound but never
    # listening is a port that refuses for certain.
    port_file=$FRESH_WORK/closed-port
    python3 -c '
import socket, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1], flush=True)
time.sleep(120)  # held until killed below
' >"$port_file" &
    helper=$!
    for _ in $(seq 50); do [ -s "$port_file" ] && break; sleep 0.1; done
    out=$(in_root "$root" 60 /opt/loopcheck/bin/loopcheck "127.0.0.1:$(cat "$port_file")") || rc=$?
    kill "$helper" 2>/dev/null || true
    echo "$out"
    [ "$rc" = 3 ] && grep -q '^DOWN: ' <<<"$out" ||
        { echo "the tarball's loopcheck in $root: exit $rc, expected 3 and a DOWN verdict" >&2; return 1; }
}

# Runs the README's two commands in the root, as README.md has them.
fresh_root_readme() {
    local root=$1 started=$SECONDS
    readme_block 1 >"$root/root/readme-1.sh"
    readme_block 2 >"$root/root/readme-2.sh"
    # ccache only: it is not part of the build, and it was downloaded with
    # the README's packages.
    in_root "$root" 300 apt-get install -q -y --no-download ccache >/dev/null
    echo "--- $(cat "$root/root/readme-1.sh")"
    in_root "$root" 3600 bash -e /root/readme-1.sh
    echo "--- $(cat "$root/root/readme-2.sh")"
    in_root "$root" 3600 bash -e /root/readme-2.sh
    printf '%s: the README'"'"'s two commands took %ss\n' "${root##*/}" "$((SECONDS - started))"
}

fresh_roots_run() {
    local tarball=$1 suite root started
    started=$SECONDS
    wait "$FRESH_PID" || { cat "$FRESH_WORK/prepare.log"; FRESH_PID=; return 1; }
    FRESH_PID=
    printf 'fresh roots ready after a further %ss of waiting\n' "$((SECONDS - started))"
    for suite in "${FRESH_SUITES[@]}"; do
        root=$FRESH_WORK/$suite
        section "Fresh Debian root: $suite"
        if [ "$suite" = trixie ]; then
            fresh_root_tarball "$root" "$tarball"
        fi
        fresh_root_readme "$root"
    done
    fresh_roots_cleanup
}
