# shellcheck shell=bash
# Windows: loopcheck cross-built with MinGW-w64, its tests and tests/windows/wine_e2e.sh run under Wine (docs/windows.md).
#
# Sourced by .ci/run, which calls the functions below in this order. Wine
# runs loopcheck's Winsock code for real, but on Linux's TCP stack: it
# cannot show Windows' SYN retries after a reset. Every step is bounded.
# The fuzzers run in the background meanwhile (sanitizers.sh).

wine_started=
wine_work=

windows_install() {
    wine_started=$SECONDS
    $S apt-get install -y g++-mingw-w64-x86-64-posix wine64 wine python3 unzip
}

windows_build() {
    export CMAKE_BUILD_PARALLEL_LEVEL=2
    timeout 1200 cmake --preset windows-cross
    timeout 1800 cmake --build --preset windows-cross
}

# A throwaway prefix, used by the Catch2 suite and by wine_e2e.sh;
# wine_cleanup removes it at the end of the section and on any exit.
windows_prefix() {
    export WINEDEBUG=-all
    # No Mono or Gecko installer prompts: loopcheck needs neither.
    export WINEDLLOVERRIDES="mscoree,mshtml="
    WINEPREFIX=$(mktemp -d /tmp/loopcheck-wine.XXXXXX)
    export WINEPREFIX
    wine_work=$(mktemp -d /tmp/loopcheck-wine-run.XXXXXX)
    ci_cleanups+=(wine_cleanup)
    # One wineserver for the whole section, started before anything else uses
    # the prefix (-p: it stays until wine_cleanup's -k). Without it each run
    # starts its own server, which lingers 3 s after its last client: a run
    # then pays ~1.1 s of start-up, and may meet a server on its way out.
    timeout 30 wineserver -p
    # Create the prefix now, so the first test run does not pay for it (or hang
    # on it).
    timeout 300 wineboot -i
    # A new Wine 8 prefix reports Windows 7 (6.1.7601), below the 16299 gate
    # where loopcheck pairs loopback probes with SIO_TCP_INITIAL_RTO. Report
    # Windows 10 so the paired path runs.
    timeout 60 wine reg add 'HKCU\Software\Wine' /v Version /d win10 /f
}

wine_cleanup() {
    timeout 30 wineserver -k 2>/dev/null || true
    rm -rf "$WINEPREFIX" "$wine_work"
}

windows_tests() {
    timeout 900 ctest --preset windows-cross
}

windows_zip() {
    timeout 600 cpack --preset windows-cross
    unzip -o -d "$wine_work/zip" build/windows-cross/loopcheck-*-windows-x86_64.zip
}

# loopcheck.exe's end-to-end checks in this prefix: a closed port, a
# listener, the zip's copy, the self-check and staircase (a test script, not
# a CTest test: it needs the prefix made above). The last Windows step:
# the prefix goes with it.
windows_e2e() {
    tests/windows/wine_e2e.sh build/windows-cross/loopcheck.exe "$wine_work/zip"
    wine_cleanup
    printf 'Windows section: %ss\n' "$((SECONDS - wine_started))"
}
