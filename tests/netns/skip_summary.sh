#!/usr/bin/env bash
# Prints, after CTest's summary (CTEST_CUSTOM_POST_TEST, tests/CMakeLists.txt),
# every lab test that skipped in this run and why, from the reasons
# record_skip.sh kept; with --clear (CTEST_CUSTOM_PRE_TEST) forgets the last
# run's. Says nothing when every lab test ran or none was selected.
set -u
dir=$1
if [[ ${2:-} == --clear ]]; then
    rm -rf "$dir"
    exit 0
fi
shopt -s nullglob
files=("$dir"/*.txt)
((${#files[@]} > 0)) || exit 0
echo
echo "Real-packet lab tests NOT RUN (${#files[@]}), so \"passed\" does not cover them:"
for f in "${files[@]}"; do
    printf '  %s: %s\n' "$(basename "$f" .txt)" "$(cat "$f")"
done
echo "To run them: install README's packages (nftables, iproute2) and run the tests as root."
exit 0
