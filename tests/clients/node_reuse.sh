#!/usr/bin/env bash
# Runs node_reuse.js --check with every Node.js at hand: this machine's, and
# the one in each root of LOOPCHECK_CLIENT_ROOTS (prepare-root.sh; waited
# for as clients_scenario.sh does). Exit 77 (skipped) when there is none.
#
# usage: node_reuse.sh
set -euo pipefail
here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
ran=0 failed=0
if command -v node >/dev/null; then
    node "$here/node_reuse.js" --check || failed=1
    ran=1
fi
read -r -a specs <<<"${LOOPCHECK_CLIENT_ROOTS:-}"
for spec in "${specs[@]}"; do
    dir=${spec#*=}
    for _ in $(seq 1 "$((${LOOPCHECK_CLIENT_ROOTS_WAIT:-1500} / 5))"); do
        [[ -e $dir/.loopcheck-clients-ready || -e $dir/.loopcheck-clients-failed ]] && break
        sleep 5
    done
    [[ -e $dir/.loopcheck-clients-ready && -x $dir/usr/bin/node ]] || continue
    tmp=$(mktemp -d "$dir/tmp/node-reuse-XXXXXX")
    cp "$here/node_reuse.js" "$tmp/"
    chroot "$dir" env -i PATH=/usr/bin:/bin node "/tmp/${tmp##*/}/node_reuse.js" --check || failed=1
    rm -rf "$tmp"
    ran=1
done
if ((ran == 0)); then
    echo "node_reuse.sh: skipped: no node here and no client root with one" >&2
    exit 77
fi
exit "$failed"
