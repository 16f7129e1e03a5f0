# shellcheck shell=bash
# server harness: installs the real servers tests/servers starts in the netns lab.
#
# Sourced by .ci/run. Debian 12's packages of the servers docs/servers.md's
# harness runs (uvicorn, gunicorn, Flask, Django, Redis, Node.js,
# PostgreSQL; Python's http.server comes with python3). About 110 MB, well
# under a minute to install; the servers.* tests then take about 90 s
# at -j2 inside the README's test command. Without them (or without the lab)
# those tests skip with the reason. Vite comes from npm, pinned, installed
# once into /var/cache/loopcheck-ci/npm-servers (tests/clients/npm_cache.sh,
# bounded by a timeout; 12 s when not cached, nothing after). Go is not
# installed here: servers.go builds its server with the Debian 12 client
# root's golang-go (clients_start), which saves about a minute of apt-get.
servers_install() {
    $S apt-get install -y --no-install-recommends uvicorn gunicorn python3-flask \
        python3-django redis-server nodejs postgresql
    # Debian's nodejs has no npm; NodeSource's provides it (and conflicts
    # with Debian's npm package).
    command -v npm >/dev/null || $S apt-get install -y --no-install-recommends npm
    $S tests/clients/npm_cache.sh servers
}
