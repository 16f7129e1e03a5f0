#!/usr/bin/env bash
# Installs the npm packages the harnesses run, at pinned versions, once, into
# a cache directory that later runs reuse without downloading again.
#
# usage: npm_cache.sh clients|servers     prints the directory's node_modules
#
#   clients: openai (openai-node), ollama (ollama-js), axios: the client
#            harness's probe_npm.js (tests/clients)
#   servers: vite: the server harness (tests/servers)
#
# The directory is $LOOPCHECK_CI_CACHE/npm-SET (default
# /var/cache/loopcheck-ci/npm-SET); its .loopcheck-npm file holds the pinned
# list it was installed from, so a changed pin installs again and an
# unchanged one does nothing. npm runs bounded (LOOPCHECK_NPM_TIMEOUT,
# default 300 s) and with no install scripts (--ignore-scripts: all of these
# are JavaScript, esbuild's and rollup's binaries come as packages of their
# own). Exit 1 with the reason when npm is missing or fails.
set -euo pipefail

case ${1:-} in
clients) pins=(openai@7.59.0 ollama@0.6.4 axios@1.21.1) ;;
# Vite 6: the newest line whose engines take Node.js 18 (Debian 12's) as
# well as 20; Vite 7 and 8 need Node.js >= 20.19.
servers) pins=(vite@6.4.6) ;;
*)
    echo "usage: npm_cache.sh clients|servers" >&2
    exit 2
    ;;
esac
cache=${LOOPCHECK_CI_CACHE:-/var/cache/loopcheck-ci}
dir=$cache/npm-$1
stamp="${pins[*]}"

if [[ -d $dir/node_modules && $(cat "$dir/.loopcheck-npm" 2>/dev/null) == "$stamp" ]]; then
    echo "$dir/node_modules"
    exit 0
fi
command -v npm >/dev/null || {
    echo "npm_cache.sh: npm is not installed (apt-get install npm)" >&2
    exit 1
}
mkdir -p "$cache"
exec 9>"$dir.lock"
flock -w 600 9 || {
    echo "npm_cache.sh: another npm_cache.sh $1 held $dir.lock for 10 minutes" >&2
    exit 1
}
# Installed next to the cache and moved into place whole: a run that dies
# half-way leaves no half directory behind the stamp.
tmp=$(mktemp -d "$cache/npm-$1.XXXXXX")
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
echo "npm_cache.sh: installing ${pins[*]} into $dir (once)" >&2
if ! timeout "${LOOPCHECK_NPM_TIMEOUT:-300}" npm install --prefix "$tmp" --no-audit --no-fund \
    --ignore-scripts --no-package-lock --no-save --loglevel=error "${pins[@]}" >&2; then
    echo "npm_cache.sh: npm install ${pins[*]} failed or took over ${LOOPCHECK_NPM_TIMEOUT:-300} s" >&2
    exit 1
fi
echo "$stamp" >"$tmp/.loopcheck-npm"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
echo "$dir/node_modules"
