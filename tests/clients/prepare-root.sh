#!/usr/bin/env bash
# Makes a chroot with one Debian release's real clients for the client
# harness (tests/clients, docs/hacking.md#the-client-harness-testsclients).
#
# usage: prepare-root.sh SUITE DIR      SUITE: bookworm (Debian 12) or trixie (13)
#        prepare-root.sh --cleanup DIR
#
# DIR comes from .ci/make-root SUITE DIR (a fresh minbase root with /proc and
# /dev/pts). The clients are installed with apt-get inside it once; the
# resulting root is kept as $LOOPCHECK_CI_CACHE/clients-SUITE-KEY.tar (default
# /var/cache/loopcheck-ci), KEY a hash of the package list and of this
# script's recipe number, so a later run unpacks it in seconds instead of installing again.
# When DIR is ready, DIR/.loopcheck-clients-ready holds the clients'
# versions; on failure DIR/.loopcheck-clients-failed holds the reason (clients_scenario.sh
# waits for one of the two, so this can run in the background early).
set -euo pipefail
here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
repo=$(readlink -f "$here/../..")
cache=${LOOPCHECK_CI_CACHE:-/var/cache/loopcheck-ci}

# The clients the harness runs, the same list for both releases. Java's
# single-file source launch (java Probe.java) needs the compiler module, which
# is in the JDK package, not in the JRE. httpx (sync, and AsyncClient on
# anyio), aiohttp, Ruby, Perl (HTTP::Tiny in perl, LWP in libwww-perl) and PHP
# run the python-httpx-async, python-aiohttp, ruby, perl and php rows.
packages=(python3 python3-requests curl wget nodejs default-jdk-headless golang-go
    python3-httpx python3-anyio python3-aiohttp ruby perl libwww-perl php-cli)

if (($# != 2)); then
    echo "usage: prepare-root.sh bookworm|trixie DIR | prepare-root.sh --cleanup DIR" >&2
    exit 2
fi
if [[ $1 == --cleanup ]]; then
    exec "$repo/.ci/make-root" --cleanup "$2"
fi
suite=$1 dir=$2

fail() {
    echo "prepare-root.sh: $suite: $*" >&2
    mkdir -p "$dir"
    echo "$*" >"$dir/.loopcheck-clients-failed"
    exit 1
}

[[ $suite == bookworm || $suite == trixie ]] || fail "unknown suite (bookworm or trixie)"
# Debian 13's Wine (10) runs the Windows clients of windows_ioctl.py; Debian
# 12's Wine 8 cannot start Go >= 1.22 programs (no bcryptprimitives.dll).
[[ $suite == bookworm ]] || packages+=(wine64 wine)
# aiohttp >= 3.10 connects through aiohappyeyeballs (Debian 13 only).
[[ $suite == bookworm ]] || packages+=(python3-aiohappyeyeballs)
(($(id -u) == 0)) || fail "needs root (make-root, chroot)"
rm -f "$dir/.loopcheck-clients-ready" "$dir/.loopcheck-clients-failed"
"$repo/.ci/make-root" "$suite" "$dir" || fail ".ci/make-root $suite $dir failed"

# Bump when a step below changes what ends up in the root.
recipe=3
key=$(echo "$suite ${packages[*]} $recipe" | sha256sum | cut -c1-12)
tar=$cache/clients-$suite-$key.tar
mkdir -p "$cache"
exec 7>"$cache/clients-$suite.lock"
flock -w 1800 7 || fail "another prepare-root.sh $suite held the lock for 30 minutes"

in_root() { chroot "$dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }

if [[ -s $tar ]]; then
    tar --numeric-owner -C "$dir" -xf "$tar" || fail "cannot unpack $tar"
else
    echo "prepare-root.sh: installing ${packages[*]} into the $suite root (once; cached in $tar)" >&2
    log=$dir/.loopcheck-clients.log
    if ! { timeout 900 chroot "$dir" apt-get update &&
        in_root timeout 1500 apt-get install -y --no-install-recommends "${packages[@]}"; } >"$log" 2>&1; then
        tail -n 20 "$log" >&2
        fail "apt-get in the $suite root failed (log: $log)"
    fi
    # Go compiles the standard library packages a program imports on first
    # use (Go >= 1.20 ships none precompiled): build a dialer once so the
    # cache in the tarball holds them and the harness's build is quick.
    mkdir -p "$dir/var/cache/loopcheck-go/src"
    cp "$here/probes/dial.go" "$dir/var/cache/loopcheck-go/src/"
    in_root env GOCACHE=/var/cache/loopcheck-go/build \
        timeout 600 go build -o /var/cache/loopcheck-go/dial /var/cache/loopcheck-go/src/dial.go >>"$log" 2>&1 ||
        fail "go build in the $suite root failed (log: $log)"
    # The same dialer for Windows, for windows_ioctl.py.
    in_root env GOCACHE=/var/cache/loopcheck-go/build GOOS=windows GOARCH=amd64 CGO_ENABLED=0 \
        timeout 600 go build -o /var/cache/loopcheck-go/dial.exe /var/cache/loopcheck-go/src/dial.go \
        >>"$log" 2>&1 || fail "go build for Windows in the $suite root failed (log: $log)"
    # /proc and /dev are mounts make-root makes again, and the downloaded
    # packages may be a bind mount of a cache shared between runs (issue
    # 15's make-root): all left out, and the cache left alone.
    tar --numeric-owner --one-file-system -C "$dir" --exclude=./proc --exclude=./dev \
        --exclude=./var/cache/apt/archives --exclude=./.loopcheck-clients.log \
        -cf "$tar.part" . || fail "cannot write $tar"
    mv "$tar.part" "$tar"
    # Tarballs of an older package list or script are of no use any more.
    find "$cache" -maxdepth 1 -name "clients-$suite-*.tar" ! -name "${tar##*/}" -delete
fi
exec 7>&-
if [[ $suite == trixie ]]; then
    # npm's Windows builds of Node.js for windows_ioctl.py, kept beside the
    # roots' tarballs and checked against the registry's sha1.
    python3 "$here/windows_ioctl.py" fetch "$cache/node-win" ||
        fail "could not fetch the Node.js Windows builds (windows_ioctl.py fetch)"
fi

# What is installed, for the log and the harness's table.
# shellcheck disable=SC2016 # dpkg-query's format, not the shell's
versions=$(in_root dpkg-query -W -f '${Package} ${Version}\n' "${packages[@]}" 2>/dev/null |
    sort -u) || fail "dpkg-query in the root failed"
echo "$versions" >"$dir/.loopcheck-clients-ready"
echo "prepare-root.sh: $suite root ready in $dir" >&2
