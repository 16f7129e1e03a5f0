#!/usr/bin/env bash
# The official SARIF 2.1.0 JSON schema, fetched once from the npm registry
# and kept outside the clone; prints its path.
#
# The file is `sarif-2.1.0.json` as the SARIF SDK (Microsoft's, by the
# standard's editors) ships it inside @microsoft/sarif-multitool-linux: no
# one here writes or edits the schema. The package is large (~43 MB, the
# multitool's binaries), so only the schema is kept:
# $LOOPCHECK_CI_CACHE/sarif/sarif-2.1.0.json (default
# /var/cache/loopcheck-ci). `npm pack` downloads the tarball without running
# anything from it. Exit 1 with the reason when npm is missing or fails.
set -euo pipefail

pin=@microsoft/sarif-multitool-linux@5.7.0
cache=${LOOPCHECK_CI_CACHE:-/var/cache/loopcheck-ci}
dir=$cache/sarif
schema=$dir/sarif-2.1.0.json
if [[ -s $schema && $(cat "$dir/.loopcheck-sarif" 2>/dev/null) == "$pin" ]]; then
    echo "$schema"
    exit 0
fi
command -v npm >/dev/null || {
    echo "sarif_schema.sh: npm is not installed (apt-get install npm)" >&2
    exit 1
}
mkdir -p "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$(cd "$work" && timeout "${LOOPCHECK_NPM_TIMEOUT:-300}" npm pack --silent "$pin" | tail -1)
tar -xzf "$work/$tarball" -C "$work" package/sarif-2.1.0.json
mv "$work/package/sarif-2.1.0.json" "$schema"
echo "$pin" >"$dir/.loopcheck-sarif"
echo "$schema"
