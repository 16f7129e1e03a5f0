# shellcheck shell=bash
# Sanitizers: one clang build with ASan and UBSan (the `fuzz` preset) gives
# both the whole suite under the sanitizers and the libFuzzer targets, which
# run in two background lanes (fuzz_start, fuzz_wait).
#
# One build, not two: a gcc `asan` build beside the clang fuzz build cost
# ~5 min of CI's 30 for the same sanitizers over the same code (the fuzz
# build instruments every file anyway).
#
# Sourced by .ci/run, which calls fuzz_start just before the Windows
# section and fuzz_wait just after it: the Windows section mostly waits
# (apt, Wine's start, socket timeouts), and -max_total_time is wall time,
# so the fuzzers run beside it instead of after it.

sanitizers_build() {
    apt-get install -y clang libclang-rt-14-dev
    cmake --preset fuzz && cmake --build --preset fuzz
}

# The suite as the gcc `asan` build ran it: without the client and server
# harnesses, which measure other programs against the model, take minutes,
# and ran in the README's tests (tests/CMakeLists.txt leaves them out of a
# sanitizer build).
sanitizers_suite() {
    ctest --preset fuzz
}

fuzz_logs=()
fuzz_pids=()

# run_fuzzers NAME...: each target for a bounded time, at a low priority,
# on a copy of its corpus. Any crash, leak, sanitizer report or >5 s input
# fails it.
run_fuzzers() {
    local name work
    for name in "$@"; do
        work=$(mktemp -d)
        cp fuzz/corpus/"$name"/* "$work"/
        if ! timeout 120 nice -n 10 build/fuzz/fuzz/fuzz_"$name" -max_total_time=40 -max_len=4096 \
            -timeout=5 "$work" >"$work.log" 2>&1; then
            tail -n 60 "$work.log"
            echo "fuzz_$name failed"
            return 1
        fi
        echo "fuzz_$name: $(grep -E '^Done' "$work.log")"
        rm -rf "$work" "$work.log"
    done
}

# Starts the targets (built by sanitizers_build) in two lanes (five and four) in
# the background (one lane alone left the run waiting ~3 min for it after
# Windows). Waited for by fuzz_wait.
fuzz_start() {
    fuzz_logs=("$(mktemp)" "$(mktemp)")
    run_fuzzers target duration hosts scan_classify scan_pins >"${fuzz_logs[0]}" 2>&1 &
    fuzz_pids=($!)
    run_fuzzers emulation listeners untrusted scan_notebook >"${fuzz_logs[1]}" 2>&1 &
    fuzz_pids+=($!)
    ci_cleanups+=(fuzz_cleanup)
}

fuzz_cleanup() { kill "${fuzz_pids[@]}" 2>/dev/null || true; }

# Both lanes' results: their logs, and a failure if either failed.
fuzz_wait() {
    local pid fuzz_rc=0
    for pid in "${fuzz_pids[@]}"; do wait "$pid" || fuzz_rc=$?; done
    cat "${fuzz_logs[@]}"
    rm -f "${fuzz_logs[@]}"
    [ "$fuzz_rc" = 0 ] || { echo "fuzzing failed (above)" >&2; exit 1; }
}
