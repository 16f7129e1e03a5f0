"""The server harness: a real server, started as people start it, inside the
netns lab (localhost is ::1 first, and every refusal on the port takes one SYN
retransmission, as on Windows). loopcheck must name the server and print the
server's own fix; then the server is restarted with exactly that fix applied,
and loopcheck must find nothing slow.

servers_case.sh starts this through lab.sh; it runs inside the namespace.

usage: servers.py SERVER LOOPCHECK RESULTS_DIR
       servers.py port SERVER        (the port SERVER listens on, for lab.sh)
       servers.py table RESULTS_DIR  (docs/servers.md's before/after table)
"""

import glob
import json
import pwd
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUN_LIMIT_S = 60
# The servers are Debian's: run Python ones with Debian's interpreter even
# where another python3 comes first in PATH (pyenv).
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"
START_LIMIT_S = 20
# How long the Go case waits for the Debian 12 client root .ci/run prepares
# in the background (about 40 s from its cached tarball).
ROOT_WAIT_S = 240
GO_CACHE = os.path.join(os.environ.get("LOOPCHECK_CI_CACHE", "/var/cache/loopcheck-ci"), "go-servers")

UVICORN_APP = """
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})
"""

WSGI_APP = """
def app(environ, start_response):
    start_response("200 OK", [])
    return [b"ok"]
"""

FLASK_APP = """
from flask import Flask
app = Flask(__name__)

@app.route("/")
def index():
    return "ok"
"""

DJANGO_MANAGE = """
import sys
from django.conf import settings
from django.urls import path
from django.http import HttpResponse

settings.configure(DEBUG=True, SECRET_KEY="harness", ROOT_URLCONF=__name__,
                   ALLOWED_HOSTS=["*"], INSTALLED_APPS=[])
urlpatterns = [path("", lambda request: HttpResponse("ok"))]

if __name__ == "__main__":
    from django.core.management import execute_from_command_line
    execute_from_command_line(sys.argv)
"""

NODE_SERVER = """
const http = require('http');
const [port, host] = process.argv.slice(2);
const server = http.createServer((req, res) => res.end('ok'));
if (host) server.listen(Number(port), host); else server.listen(Number(port));
"""

# Go net/http: `goserver ADDR` is http.ListenAndServe(ADDR, h), as people
# write it; `goserver ADDR ADDR...` listens on each (net.Listen and
# http.Serve), the generic fix's "listen on both ::1 and 127.0.0.1".
GO_SERVER = """package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
)

func main() {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") })
	if len(os.Args) == 2 {
		fmt.Println(http.ListenAndServe(os.Args[1], h))
		os.Exit(1)
	}
	for _, a := range os.Args[1:] {
		l, err := net.Listen("tcp", a)
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		go http.Serve(l, h)
	}
	select {}
}
"""

# PostgreSQL's programs (Debian keeps them out of PATH), and the user it
# runs as: it refuses root.
PG_BIN = next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)), "")
PG = [
    "runuser", "-u", "postgres", "--", f"{PG_BIN}/postgres", "-D", "pgdata",
    "-c", "unix_socket_directories=", "-c", "fsync=off",
]

# Each server: the port its default bind uses, the files it serves, how it is
# started before (its default bind, or the bind people give it) and after
# (with the fix loopcheck prints applied), the server id loopcheck must name,
# and the words of the fix that must appear (the setting applied after).
SERVERS = {
    "uvicorn": {
        "port": 8000,
        "files": {"app.py": UVICORN_APP},
        "needs": ["uvicorn"],
        "before": ["uvicorn", "app:app"],
        "after": ["uvicorn", "--host", "localhost", "app:app"],
        "fix": "start uvicorn with --host localhost",
    },
    "uvicorn-reload": {
        # The trap: with --reload uvicorn binds one AF_INET socket itself,
        # so the fix is to drop it and use --host localhost.
        "id": "uvicorn",
        "port": 8000,
        "files": {"app.py": UVICORN_APP},
        "needs": ["uvicorn"],
        "before": ["uvicorn", "--reload", "app:app"],
        "after": ["uvicorn", "--host", "localhost", "app:app"],
        "fix": "Or drop --reload and --workers and start uvicorn with --host localhost",
    },
    "gunicorn": {
        "port": 8000,
        "files": {"wsgi.py": WSGI_APP},
        "needs": ["gunicorn"],
        "before": ["gunicorn", "wsgi:app"],
        "after": ["gunicorn", "-b", "127.0.0.1:8000", "-b", "[::1]:8000", "wsgi:app"],
        "fix": "-b 127.0.0.1:8000 -b [::1]:8000",
    },
    "flask": {
        "port": 5000,
        "files": {"hello.py": FLASK_APP},
        "needs": ["flask"],
        "before": ["flask", "--app", "hello", "run"],
        "after": ["flask", "--app", "hello", "run", "--host", "::"],
        "fix": "start Flask with --host ::",
    },
    "django": {
        "port": 8000,
        "files": {"manage.py": DJANGO_MANAGE},
        "needs": [PY],
        "module": "django",
        "before": [PY, "manage.py", "runserver"],
        "after": [PY, "manage.py", "runserver", "-6", "[::]:8000"],
        "fix": "runserver -6 [::]:8000",
    },
    "python-http-server": {
        # Without --bind it takes getaddrinfo's first passive address:
        # 0.0.0.0 with glibc, IPv4 only.
        "port": 8000,
        "files": {},
        "needs": [PY],
        "before": [PY, "-m", "http.server"],
        "after": [PY, "-m", "http.server", "--bind", "::", "8000"],
        "fix": "python3 -m http.server --bind :: 8000",
    },
    "node": {
        # listen(port, '127.0.0.1'), the bind of many Express apps.
        "port": 3000,
        "files": {"server.js": NODE_SERVER},
        "needs": ["node"],
        "before": ["node", "server.js", "3000", "127.0.0.1"],
        "after": ["node", "server.js", "3000"],
        "fix": "listen(3000) with no host",
    },
    "vite": {
        # `npx vite` in a project with vite in node_modules (npm_cache.sh
        # servers): server.host defaults to 'localhost', and Node.js's
        # listen(5173, 'localhost') binds dns.lookup's first answer, ::1
        # here. So it is not slow but partial: the clients that try only
        # 127.0.0.1 (Node.js < 17, Java) fail.
        "port": 5173,
        "files": {"index.html": "<p>ok</p>\n"},
        "npm": "servers",
        "needs": ["npx"],
        "before": ["npx", "vite"],
        "after": ["npx", "vite", "--host", "::"],
        "fix": "start Vite with --host ::",
        "before_verdict": "PARTIAL: localhost:5173 connects via [::1]:5173, but 127.0.0.1:5173 is "
                          "refused only after",
    },
    "go": {
        # http.ListenAndServe("localhost:8000"): Go listens on the first
        # IPv4 address of a name (net/dial.go ListenConfig.Listen,
        # addrs.first(isIPv4)), 127.0.0.1 whatever the resolver's order. A
        # Go server is a binary of its own name: loopcheck cannot tell it is
        # Go, so the generic fix is the one to print and apply.
        "port": 8000,
        "files": {"server.go": GO_SERVER},
        "go": "goserver",
        "needs": [],
        "id": None,
        "before": ["./goserver", "localhost:8000"],
        "after": ["./goserver", "127.0.0.1:8000", "[::1]:8000"],
        "fix": "make goserver listen on both ::1 and 127.0.0.1",
    },
    "redis": {
        # Debian's redis.conf binds 127.0.0.1 -::1 already: the trap is
        # bind 127.0.0.1 alone.
        "port": 6379,
        "files": {},
        "needs": ["redis-server"],
        "before": ["redis-server", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        "after": ["redis-server", "--bind", "127.0.0.1", "-::1", "--save", "", "--appendonly", "no"],
        "fix": "bind 127.0.0.1 -::1",
    },
    "postgresql": {
        # listen_addresses' default, localhost, already binds both: the
        # trap is the address people write instead.
        "port": 5432,
        "files": {},
        "needs": ["runuser", f"{PG_BIN}/postgres", f"{PG_BIN}/initdb"],
        "user": "postgres",
        "setup": [["runuser", "-u", "postgres", "--", f"{PG_BIN}/initdb", "-D", "pgdata",
                   "--auth=trust", "--no-sync"]],
        "before": [*PG, "-c", "listen_addresses=127.0.0.1"],
        "after": [*PG, "-c", "listen_addresses=localhost"],
        "fix": "listen_addresses = 'localhost'",
    },
}


class Checks:
    def __init__(self) -> None:
        self.failed = 0

    def expect(self, ok: bool, what: str, got: object = None) -> None:
        detail = "" if ok or got is None else f" (got {got!r})"
        print(f"{'ok  ' if ok else 'FAIL'} {what}{detail}", flush=True)
        self.failed += not ok


def missing(name: str, spec: dict) -> str:
    """Why SERVER cannot run on this machine; empty when it can."""
    for program in spec["needs"]:
        if shutil.which(program) is None:
            return f"{program} is not installed"
    if "user" in spec:
        try:
            pwd.getpwnam(spec["user"])
        except KeyError:
            return f"there is no user {spec['user']}"
    if "go" in spec and go_toolchain() is None:
        return ("go is not installed here (golang-go) nor in a Debian 12 client root "
                "(LOOPCHECK_CLIENT_ROOTS, tests/clients/prepare-root.sh)")
    if "npm" in spec and not npm_modules(spec["npm"]).is_dir():
        return f"the npm packages are not installed (tests/clients/npm_cache.sh {spec['npm']})"
    module = spec.get("module")
    if module:
        probe = subprocess.run([PY, "-c", f"import {module}"], capture_output=True)
        if probe.returncode != 0:
            return f"{PY} cannot import {module}"
    return ""


def npm_modules(name: str) -> Path:
    """Where tests/clients/npm_cache.sh NAME installed its packages."""
    return Path(os.environ.get("LOOPCHECK_CI_CACHE", "/var/cache/loopcheck-ci")) / f"npm-{name}" / "node_modules"


def go_toolchain() -> list | None:
    """How to run `go`: this machine's, else the Debian 12 client root's
    (prepare-root.sh installs golang-go there; the servers section does not
    install Go again). None when neither is there."""
    if shutil.which("go"):
        return []
    for spec in os.environ.get("LOOPCHECK_CLIENT_ROOTS", "").split():
        suite, _, root = spec.partition("=")
        if suite == "bookworm":
            # .ci/run prepares the roots in the background: wait for it.
            deadline = time.monotonic() + ROOT_WAIT_S
            while not os.path.exists(f"{root}/.loopcheck-clients-ready") and time.monotonic() < deadline:
                time.sleep(2)
            if os.path.exists(f"{root}/.loopcheck-clients-ready") and os.path.exists(f"{root}/usr/bin/go"):
                return ["chroot", root]
    return None


def build_go(spec: dict, cwd: str) -> None:
    """Builds the Go server in cwd. In a root: there, statically (the pure
    Go resolver, which reads this lab's hosts file), then copied out."""
    prefix = go_toolchain() or []
    binary = spec["go"]
    if not prefix:
        subprocess.run(["go", "build", "-o", binary, "server.go"], cwd=cwd, check=True,
                       capture_output=True, timeout=300,
                       env=dict(os.environ, GOCACHE=GO_CACHE))
        return
    root = Path(prefix[1])
    inner = Path(tempfile.mkdtemp(prefix="loopcheck-go-", dir=root / "tmp"))
    try:
        shutil.copy(Path(cwd) / "server.go", inner / "server.go")
        where = "/tmp/" + inner.name
        subprocess.run([*prefix, "env", "-i", "PATH=/usr/bin:/bin", "HOME=/root", "CGO_ENABLED=0",
                        "GOCACHE=/var/cache/loopcheck-go/build", "go", "build", "-o",
                        f"{where}/{binary}", f"{where}/server.go"],
                       check=True, capture_output=True, timeout=300)
        shutil.copy(inner / binary, Path(cwd) / binary)
    finally:
        shutil.rmtree(inner, ignore_errors=True)


def listening(port: int) -> bool:
    for host in ("127.0.0.1", "::1"):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.settimeout(0.2)
            if s.connect_ex((host, port)) == 0:
                return True
    return False


class Server:
    """One server process (and its children) in its own process group."""

    def __init__(self, argv: list, cwd: str, port: int) -> None:
        self.log = open(Path(cwd) / "server.log", "ab")
        self.proc = subprocess.Popen(argv, cwd=cwd, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        # The refused family's probes cost a retransmission each: poll with
        # the accepting one, and give the server a moment to open the rest.
        deadline = time.monotonic() + START_LIMIT_S
        while not listening(port):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                log = (Path(cwd) / "server.log").read_text(errors="replace")
                raise RuntimeError(f"{argv} did not start listening on {port}:\n{log}")
            time.sleep(0.2)
        time.sleep(0.5)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def loopcheck(lc: str, port: int) -> tuple:
    proc = subprocess.run([lc, "--json", f"localhost:{port}"], capture_output=True, text=True,
                          timeout=RUN_LIMIT_S)
    report = json.loads(proc.stdout)
    return proc.returncode, report["targets"][0]


def client_costs(target: dict) -> dict:
    """Each client row's predicted connect here (ms; None when it fails):
    sequential, Happy Eyeballs and one-address clients alike."""
    return {f"{c['id']} {c['client']}": c["connect_ms"] if c["connected"] else None
            for c in target["clients"]}


def run_server(name: str, lc: str, results: Path) -> int:
    spec = SERVERS[name]
    port = spec["port"]
    c = Checks()
    row = {"server": name, "port": port, "before_argv": spec["before"],
           "after_argv": spec["after"]}
    with tempfile.TemporaryDirectory(prefix=f"loopcheck-{name}-") as cwd:
        os.chmod(cwd, 0o755)
        for file, text in spec["files"].items():
            (Path(cwd) / file).write_text(text)
        if "user" in spec:
            user = pwd.getpwnam(spec["user"])
            os.chown(cwd, user.pw_uid, user.pw_gid)
        if "npm" in spec:
            # A project's node_modules, as `npm install vite` leaves it.
            (Path(cwd) / "node_modules").symlink_to(npm_modules(spec["npm"]))
        if "go" in spec:
            build_go(spec, cwd)
        for argv in spec.get("setup", []):
            subprocess.run(argv, cwd=cwd, check=True, capture_output=True, timeout=60)

        server = Server(spec["before"], cwd, port)
        try:
            code, t = loopcheck(lc, port)
        finally:
            server.stop()
        ids = {(l.get("server") or {}).get("id") for l in t["listeners"]}
        row["before"] = {"exit_code": code, "verdict": t["verdict"],
                         "listening": sorted(l["endpoint"] for l in t["listeners"]),
                         "server": sorted(i for i in ids if i), "fix": t["fix"]}
        print(f"before: {t['verdict']}")
        for f in t["fix"]:
            print(f"  fix: {f}")
        # Slow for the clients that try ::1 first and fall back, and partial
        # since some (Node.js 17 to 19) never try 127.0.0.1 (issue 23's rules).
        verdict = spec.get("before_verdict", "PARTIAL: clients that try addresses in turn wait")
        c.expect(code == 6 and t["verdict"].startswith(verdict),
                 f"before: exit code 6 (partial), the verdict starts {verdict!r}", (code, t["verdict"]))
        want = spec.get("id", name)
        c.expect(ids == {want}, f"before: every listener named {want}" if want else
                 "before: no listener named (not recognised: the generic fix)", ids)
        own = [f for f in t["fix"] if spec["fix"] in f]
        c.expect(len(own) == 1, f"before: the fix names {spec['fix']!r}", t["fix"])
        row["before"]["own_fix"] = own[0] if own else None

        server = Server(spec["after"], cwd, port)
        try:
            code, t = loopcheck(lc, port)
        finally:
            server.stop()
        costs = client_costs(t)
        row["after"] = {"exit_code": code, "verdict": t["verdict"],
                        "listening": sorted(l["endpoint"] for l in t["listeners"]),
                        "clients_ms": costs}
        print(f"after: {t['verdict']}")
        c.expect(code == 0, "after: exit code 0 (healthy)", code)
        c.expect(t["verdict"].startswith("OK"), "after: verdict OK", t["verdict"])
        c.expect(not any(f["id"] == "fallback-penalty" for f in t["findings"]),
                 "after: no fallback-penalty finding", [f["id"] for f in t["findings"]])
        c.expect(bool(costs) and all(ms is not None and ms < 100 for ms in costs.values()),
                 "after: every client row connects in under 100 ms", costs)
    row["passed"] = c.failed == 0
    results.mkdir(parents=True, exist_ok=True)
    (results / f"server-{name}.json").write_text(json.dumps(row, indent=1) + "\n")
    return 1 if c.failed else 0


def table(results: Path) -> int:
    """The before/after table for docs/servers.md, from the runs' results."""
    print("| server | started as | loopcheck before | its fix, applied | loopcheck after |")
    print("|---|---|---|---|---|")
    for name in SERVERS:
        path = results / f"server-{name}.json"
        if not path.exists():
            print(f"| {name} | (not run) | | | |")
            continue
        r = json.loads(path.read_text())
        before, after = r["before"], r["after"]
        v = before["verdict"]
        # The slow fallback's wait, or (Vite on ::1 alone) the slow refusal
        # of the address the failing clients try.
        wait = "waits " + v.split(" waits ")[1].split(" before")[0] if " waits " in v else \
            "refused after " + v.split(" only after ")[1].split(",")[0] + ", some clients fail" \
            if " only after " in v else "-"
        print(f"| {name} | `{shlex.join(r['before_argv'])}` | exit {before['exit_code']}, "
              f"{wait}: {', '.join(before['listening'])} | `{shlex.join(r['after_argv'])}` | exit "
              f"{after['exit_code']}: {', '.join(after['listening'])}; every client "
              f"{max(after['clients_ms'].values()):.1f} ms at most |")
    return 0


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "port":
        print(SERVERS[sys.argv[2]]["port"])
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "table":
        return table(Path(sys.argv[2]))
    if len(sys.argv) != 4 or sys.argv[1] not in SERVERS:
        print(__doc__, file=sys.stderr)
        return 2
    name, lc, results = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    why = missing(name, SERVERS[name])
    if why:
        print(f"servers.py: skipped: {why}", file=sys.stderr)
        return 77
    return run_server(name, lc, results)


if __name__ == "__main__":
    sys.exit(main())
