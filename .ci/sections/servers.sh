# shellcheck shell=bash
# server harness: installs the real servers tests/servers starts in the netns lab.
#
# Sourced by .ci/run. Debian 12's packages of the servers docs/servers.md's
# harness runs (uvicorn, gunicorn, Flask, Django, Redis, Node.js,
# PostgreSQL; Python's http.server comes with python3). About 110 MB, well
# under a minute to install; the nine servers.* tests then take about 90 s
# at -j2 inside the README's test command. Without them (or without the lab)
# those tests skip with the reason.
servers_install() {
    $S apt-get install -y --no-install-recommends uvicorn gunicorn python3-flask \
        python3-django redis-server nodejs postgresql
}
