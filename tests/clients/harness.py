"""Real clients against loopcheck's client table, inside the netns lab.

    harness.py lab-args SCENARIO           the lab.sh options SCENARIO needs
    harness.py run SCENARIO LOOPCHECK OUT  (inside the lab) run it, write OUT

run.sh calls both: it starts lab.sh with the first's options and this file's
`run` inside the namespace. `run` opens the scenario's HTTP servers, runs
loopcheck --json on a port of its own, then every client installed (on this
machine and in each chroot of LOOPCHECK_CLIENT_ROOTS), each on a port of its
own so that each one meets the same lab (its own K lost RSTs) as loopcheck
did, and compares every client with loopcheck's row for that client's id and
installed version: same success or failure, and a time within
max(50 ms, 20 %) of the model's. OUT gets every measurement as JSON (table.py
turns the files into docs/clients.md). Exit 0: all matched; 1: a mismatch,
or (with CI=true) a core client that could not run; 77: nothing could run.

See docs/hacking.md#the-client-harness-testsclients.
"""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from matcher import compare, find_row, version_of

HERE = Path(__file__).resolve().parent
PROBES = HERE / "probes"

# Every client run and loopcheck run is bounded; a hang is a failure.
RUN_LIMIT_S = 60
WARM_PORT = 8099
LOOPCHECK_PORT = 8100
# Clients of environment e use ports 8101 + 20 e + i.
PORTS_PER_ENV = 20
MAX_ENVS = 4

# Clients and loopcheck run at a raised priority (as root): a shared,
# loaded machine otherwise adds its scheduling delays to sub-millisecond
# connects, and what is compared is the clients' algorithms.
NICE = ["nice", "-n", "-20"]



@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    resolver: str  # "v6-first" (hosts file) or "v4-first" (gai.conf)
    server: tuple[str, ...]  # addresses listening on every client port
    k: int  # RSTs lost per connection


SCENARIOS = {
    s.name: s
    for s in (
        Scenario("v4only-k1", "IPv4-only server, localhost ::1 first, 1 RST lost",
                 "v6-first", ("127.0.0.1",), 1),
        Scenario("v4only-k2", "IPv4-only server, localhost ::1 first, 2 RSTs lost",
                 "v6-first", ("127.0.0.1",), 2),
        Scenario("dualstack", "dual-stack server, localhost ::1 first",
                 "v6-first", ("127.0.0.1", "::1"), 1),
        Scenario("v6only", "IPv6-only server, localhost 127.0.0.1 first (gai.conf), 1 RST lost",
                 "v4-first", ("::1",), 1),
        Scenario("nothing", "nothing listening, localhost ::1 first, 1 RST lost",
                 "v6-first", (), 1),
    )
}


@dataclass(frozen=True)
class Client:
    key: str  # stable name in results
    id: str  # the report's clients[].id
    label: str
    core: bool  # in CI, a core client that cannot run fails the run


CLIENTS = (
    Client("python-requests", "python", "Python requests", True),
    Client("python-urllib", "python", "Python urllib", True),
    Client("python-socket", "python", "Python socket.create_connection", True),
    Client("python-asyncio", "python-asyncio", "Python asyncio, happy_eyeballs_delay=0.25", True),
    Client("curl", "curl", "curl", True),
    Client("wget", "wget", "wget", True),
    Client("node-http", "node", "Node http.get", True),
    Client("node-fetch", "node", "Node fetch", True),
    Client("java-socket", "java-socket", "Java Socket", True),
    Client("java-httpclient", "java-httpclient", "Java HttpClient", True),
    Client("go", "go", "Go net.Dial", False),
)
assert len(CLIENTS) < PORTS_PER_ENV


def all_ports() -> list[int]:
    return [LOOPCHECK_PORT] + [
        LOOPCHECK_PORT + 1 + PORTS_PER_ENV * e + i for e in range(MAX_ENVS) for i in range(len(CLIENTS))
    ]


def lab_args(s: Scenario) -> list[str]:
    args = ["--hosts-v6-first" if s.resolver == "v6-first" else "--gai-v4-first"]
    # Per connection: every refused connect costs K retransmissions, a
    # client's retry too, as every refused loopback connect does on Windows.
    for p in all_ports():
        args += ["--drop-rst-conn", f"{p}:{s.k}"]
    return args


# --- Environments: this machine, and chroots with a Debian release's clients.


@dataclass
class Env:
    name: str  # "host", "bookworm", "trixie"
    title: str  # for the table
    root: Path | None
    index: int
    work: Path = field(default=Path())  # probe files, as seen from outside
    inner: str = ""  # the same directory as seen by the client

    def cmd(self, argv: list[str]) -> list[str]:
        if self.root is None:
            return NICE + argv
        return NICE + ["chroot", str(self.root), "env", "-i", "PATH=/usr/local/bin:/usr/bin:/bin",
                "HOME=/root", "LC_ALL=C.UTF-8", "GOCACHE=/var/cache/loopcheck-go/build", *argv]

    def has(self, tool: str) -> bool:
        if self.root is None:
            return shutil.which(tool) is not None
        return any((self.root / d / tool).exists() for d in ("usr/local/bin", "usr/bin", "bin"))


SUITE_TITLES = {"bookworm": "Debian 12", "trixie": "Debian 13"}


def environments() -> list[Env]:
    """LOOPCHECK_CLIENT_ROOTS="SUITE=DIR ...": the chroots prepare-root.sh
    made; without it, the clients installed on this machine. With roots,
    this machine's own clients run too only with LOOPCHECK_CLIENTS_HOST=1."""
    spec = os.environ.get("LOOPCHECK_CLIENT_ROOTS", "").split()
    envs: list[Env] = []
    if not spec or os.environ.get("LOOPCHECK_CLIENTS_HOST") == "1":
        envs.append(Env("host", "this machine", None, 0))
    for item in spec:
        suite, _, d = item.partition("=")
        envs.append(Env(suite, SUITE_TITLES.get(suite, suite), Path(d), len(envs)))
    if len(envs) > MAX_ENVS:
        raise SystemExit(f"harness.py: at most {MAX_ENVS} environments")
    return envs


# --- The servers. ------------------------------------------------------------


class Servers:
    """HTTP listeners: each answers any request with 200 and closes. Every
    accepted connection is noted with its port and local address, which
    says which address a client connected to, whatever the client reports."""

    def __init__(self) -> None:
        # port -> [(address that accepted, time.monotonic_ns() of accept)]
        self.accepted: dict[int, list[tuple[str, int]]] = {}
        self.lock = threading.Lock()
        self.socks: list[socket.socket] = []

    def listen(self, host: str, port: int) -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        s = socket.socket(family, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        s.bind((host, port))
        s.listen(128)
        self.socks.append(s)
        threading.Thread(target=self._accept, args=(s, host, port), daemon=True).start()

    def _accept(self, s: socket.socket, host: str, port: int) -> None:
        while True:
            try:
                conn, _ = s.accept()
            except OSError:
                return
            now = time.monotonic_ns()
            with self.lock:
                self.accepted.setdefault(port, []).append((host, now))
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    @staticmethod
    def _answer(conn: socket.socket) -> None:
        conn.settimeout(5)
        try:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(4096)
                if not chunk:
                    return  # a bare TCP client: connected and closed
                data += chunk
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        except OSError:
            pass
        finally:
            conn.close()

    def count(self, port: int) -> int:
        with self.lock:
            return len(self.accepted.get(port, []))

    def first(self, port: int, since: int, wait_s: float = 0.0) -> tuple[str, int] | None:
        """The first connection accepted on port after the first `since`
        ones (those belong to earlier tries): (address, accept time)."""
        # A client may be done before this process's accept thread has run.
        deadline = time.monotonic() + wait_s
        while True:
            with self.lock:
                hosts = list(self.accepted.get(port, []))[since:]
            if hosts or time.monotonic() >= deadline:
                break
            time.sleep(0.01)
        return hosts[0] if hosts else None

    def via(self, port: int, since: int, wait_s: float = 0.0) -> str | None:
        first = self.first(port, since, wait_s)
        if first is None:
            return None
        h = first[0]
        return f"[{h}]:{port}" if ":" in h else f"{h}:{port}"


# --- Running the clients. --------------------------------------------------


def run_bounded(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=RUN_LIMIT_S, check=False)


def json_line(proc: subprocess.CompletedProcess[str]) -> dict:
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError(f"no result (exit {proc.returncode}): {(proc.stderr or proc.stdout).strip()[-300:]}")


class Unavailable(Exception):
    """The client is not installed in this environment."""


def python_probe(env: Env, mode: str, warm: int, port: int) -> dict:
    if not env.has("python3"):
        raise Unavailable("python3 is not installed")
    if mode == "requests":
        check = run_bounded(env.cmd(["python3", "-c", "import requests"]))
        if check.returncode != 0:
            raise Unavailable("python3 has no requests module")
    return json_line(run_bounded(env.cmd(["python3", f"{env.inner}/probe.py", mode, "localhost",
                                          str(warm), str(port)])))


def node_probe(env: Env, mode: str, warm: int, port: int) -> dict:
    if not env.has("node"):
        raise Unavailable("node is not installed")
    return json_line(run_bounded(env.cmd(["node", f"{env.inner}/probe.js", mode, "localhost",
                                          str(warm), str(port)])))


def java_probe(env: Env, mode: str, warm: int, port: int) -> dict:
    if not env.has("java"):
        raise Unavailable("java is not installed")
    # Compiled once per environment (stage_probes) where javac is there;
    # else the single-file source launch (JDK 11+) compiles it every time.
    program = ["-cp", f"{env.inner}/java", "Probe"] if (env.work / "java" / "Probe.class").exists() \
        else [f"{env.inner}/Probe.java"]
    proc = run_bounded(env.cmd(["java", *program, mode, "localhost", str(warm), str(port)]))
    if proc.returncode != 0 and "jdk.compiler" in proc.stderr:
        raise Unavailable("java cannot run a source file (a JRE without jdk.compiler; install a JDK)")
    r = json_line(proc)
    r["version"] = version_of(r["version"])
    return r


def go_probe(env: Env, warm: int, port: int) -> dict:
    binary = env.work / "dial"
    if not binary.exists():
        raise Unavailable(getattr(env, "go_missing", "go is not installed"))
    return json_line(run_bounded(env.cmd([f"{env.inner}/dial", "localhost", str(warm), str(port)])))


def curl_probe(env: Env, warm: int, port: int) -> dict:
    """curl's own clock: time_connect (start to TCP connected) for the timed
    transfer; on a failed connect, time_total (start to the failure)."""
    if not env.has("curl"):
        raise Unavailable("curl is not installed")
    version = version_of(run_bounded(env.cmd(["curl", "--version"])).stdout) or "?"
    fmt = "%{time_connect} %{time_total} %{exitcode} %{remote_ip}\\n"
    proc = run_bounded(env.cmd(["curl", "-s", "--connect-timeout", "50", "-w", fmt,
                                "-o", "/dev/null", f"http://localhost:{warm}/",
                                "-o", "/dev/null", f"http://localhost:{port}/"]))
    lines = [line.split() for line in proc.stdout.splitlines() if line.strip()]
    if len(lines) != 2:
        raise RuntimeError(f"curl -w gave {proc.stdout!r} (exit {proc.returncode})")
    t_connect, t_total, code, remote = lines[1] + [""] * (4 - len(lines[1]))
    ok = code == "0"
    return {"version": version, "connected": ok,
            "ms": float(t_connect if ok else t_total) * 1000,
            "peer": remote or None, "error": None if ok else f"curl exit {code}"}


def wget_probe(env: Env, warm: int, port: int) -> dict:
    """wget has no clock of its own to print: this reads its log as it is
    written (wget writes it unbuffered) and stamps each piece on arrival.
    Start: the timed URL's "--DATE--  URL" line, written before it
    resolves; end: "connected." or the last "failed:" of that URL."""
    if not env.has("wget"):
        raise Unavailable("wget is not installed")
    version = version_of(run_bounded(env.cmd(["wget", "--version"])).stdout) or "?"
    # The warm-up names 127.0.0.1, not localhost: when every address of a
    # host wget has connected to before in the same run refuses, wget looks
    # the name up again and tries them all once more (measured: 4.1 s instead
    # of 2.0 s with nothing listening), which a warm-up must not cause.
    proc = subprocess.Popen(env.cmd(["wget", "--tries=1", "--timeout=50", "-O", "/dev/null",
                                     f"http://127.0.0.1:{warm}/", f"http://localhost:{port}/"]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    pieces: list[tuple[float, bytes]] = []
    fd = proc.stderr.fileno()
    deadline = time.monotonic() + RUN_LIMIT_S
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            pieces.append((time.perf_counter(), chunk))
    proc.kill() if proc.poll() is None else None
    proc.wait()
    # Each byte's arrival time, then search the text.
    text = b""
    stamps: list[float] = []
    for t, chunk in pieces:
        text += chunk
        stamps += [t] * len(chunk)
    log = text.decode(errors="replace")
    start_at = log.find(f"  http://localhost:{port}/")
    if start_at < 0:
        raise RuntimeError(f"wget never started the timed URL: {log[-300:]!r}")
    rest = log[start_at:]
    ok_at = rest.find("connected.")
    if ok_at >= 0:
        end_at, connected = start_at + ok_at, True
    else:
        fail_at = rest.rfind("failed:")
        if fail_at < 0:
            raise RuntimeError(f"wget log has neither 'connected.' nor 'failed:': {rest[-300:]!r}")
        end_at, connected = start_at + fail_at, False
    # Map character offsets to byte offsets for the stamps.
    start_b = len(log[:start_at].encode())
    end_b = len(log[:end_at].encode())
    error = None if connected else rest[rest.rfind("failed:"):].splitlines()[0]
    return {"version": version, "connected": connected, "ms": (stamps[end_b] - stamps[start_b]) * 1000,
            "error": error}


def measure(env: Env, client: Client, port: int) -> dict:
    w = WARM_PORT
    match client.key:
        case "python-requests":
            return python_probe(env, "requests", w, port)
        case "python-urllib":
            return python_probe(env, "urllib", w, port)
        case "python-socket":
            return python_probe(env, "socket", w, port)
        case "python-asyncio":
            return python_probe(env, "asyncio", w, port)
        case "curl":
            return curl_probe(env, w, port)
        case "wget":
            return wget_probe(env, w, port)
        case "node-http":
            return node_probe(env, "http", w, port)
        case "node-fetch":
            return node_probe(env, "fetch", w, port)
        case "java-socket":
            return java_probe(env, "socket", w, port)
        case "java-httpclient":
            return java_probe(env, "httpclient", w, port)
        case "go":
            return go_probe(env, w, port)
    raise AssertionError(client.key)


def stage_probes(env: Env, keep: list[Path]) -> None:
    """Puts the probe sources where the environment's clients can read them
    and builds the Go dialer with the environment's own Go."""
    if env.root is None:
        env.work = Path(tempfile.mkdtemp(prefix="loopcheck-probes-"))
        env.inner = str(env.work)
    else:
        tmp = env.root / "tmp"
        tmp.mkdir(exist_ok=True)
        env.work = Path(tempfile.mkdtemp(prefix="loopcheck-probes-", dir=tmp))
        env.inner = "/tmp/" + env.work.name
    keep.append(env.work)
    for f in PROBES.iterdir():
        shutil.copy(f, env.work / f.name)
    os.chmod(env.work, 0o755)
    if env.has("javac"):
        subprocess.run(env.cmd(["javac", "-d", f"{env.inner}/java", f"{env.inner}/Probe.java"]),
                       capture_output=True, text=True, timeout=300, check=False)
    if env.has("go"):
        proc = subprocess.run(env.cmd(["go", "build", "-o", f"{env.inner}/dial", f"{env.inner}/dial.go"]),
                              capture_output=True, text=True, timeout=600, check=False)
        if proc.returncode != 0:
            env.go_missing = f"go build failed: {proc.stderr.strip()[-200:]}"  # type: ignore[attr-defined]


# --- One scenario. ---------------------------------------------------------


def run(scenario: Scenario, loopcheck: str, out: Path) -> int:
    servers = Servers()
    for host in ("127.0.0.1", "::1"):
        servers.listen(host, WARM_PORT)
    for p in all_ports():
        for host in scenario.server:
            servers.listen(host, p)

    envs = environments()
    keep: list[Path] = []
    try:
        for env in envs:
            stage_probes(env, keep)

        started = time.monotonic()
        proc = run_bounded(NICE + [loopcheck, "--json", f"localhost:{LOOPCHECK_PORT}"])
        print(f"$ loopcheck --json localhost:{LOOPCHECK_PORT} -> exit {proc.returncode} "
              f"in {time.monotonic() - started:.3f} s")
        report = json.loads(proc.stdout)
        target = report["targets"][0]
        rows = target.get("clients", [])
        addresses = [(a["endpoint"], a["outcome"], a["latency_ms"]["median"]) for a in target["addresses"]]
        print("  addresses: " + ", ".join(f"{e} {o} {ms:.1f} ms" for e, o, ms in addresses))

        ci = os.environ.get("CI") == "true"
        print_lock = threading.Lock()

        def one(env: Env, i: int, client: Client) -> tuple[dict, bool]:
            """Measures one client; returns its result and whether it failed."""
            port = LOOPCHECK_PORT + 1 + PORTS_PER_ENV * env.index + i
            r = {"scenario": scenario.name, "env": env.name, "env_title": env.title,
                 "client": client.key, "id": client.id, "label": client.label, "port": port}
            began = time.monotonic()
            try:
                tries = []
                while True:
                    mark = servers.count(port)
                    real = measure(env, client, port)
                    real["via"] = servers.via(port, mark, 2.0 if real["connected"] else 0.0)
                    accepted = servers.first(port, mark)
                    if client.key == "java-httpclient" and real["connected"] and accepted:
                        # A client without a connect hook (Java HttpClient)
                        # times its whole request; the server's accept, on
                        # the same CLOCK_MONOTONIC, comes just after the
                        # connect. Both bound the connect from above: the
                        # smaller one is the closer.
                        since_start = (accepted[1] - int(real["start_ns"])) / 1e6
                        if 0 <= since_start < real["ms"]:
                            real["request_ms"] = real["ms"]
                            real["ms"] = since_start
                            real["timed"] = "to the server's accept"
                    tries.append(real)
                    row, how = find_row(rows, client.id, real["version"])
                    ok, why = compare(real, row)
                    # A time off the model is measured twice more and the
                    # median of the three decides: on a shared machine one
                    # connect can lose tens of ms to scheduling, while a wrong
                    # model is off every time. (Each try meets the same lab:
                    # the RST drops are per connection.) A different outcome
                    # is not retried.
                    if ok or row is None or bool(real["connected"]) != bool(row["connected"]) \
                            or len(tries) == 3:
                        break
                if len(tries) == 3:
                    real = sorted(tries, key=lambda t: t["ms"])[1]
                    ok, why = compare(real, row)
                if len(tries) > 1:
                    real = dict(real, tries_ms=[round(t["ms"], 1) for t in tries])
            except Unavailable as e:
                r["skipped"] = str(e)
                bad = ci and client.core
                line = f"{'FAIL' if bad else 'skip'} {env.name:8} {client.label}: {e}"
            except Exception as e:  # noqa: BLE001 - reported as the harness's failure
                r["error"] = f"the harness could not measure it: {e}"
                bad = True
                line = f"FAIL {env.name:8} {client.label}: {r['error']}"
            else:
                r["wall_s"] = round(time.monotonic() - began, 2)
                r.update(real=real, model=row, found_by=how, match=ok, why=why or how)
                bad = not ok
                model = (f"{'ok' if row['connected'] else 'fails'} {row['connect_ms']:.1f} ms"
                         if row else "-")
                retried = f" tries {real['tries_ms']}" if "tries_ms" in real else ""
                line = (f"{'ok  ' if ok else 'FAIL'} {env.name:8} {client.label} {real['version']}: "
                        f"real {'ok' if real['connected'] else 'fails'} {real['ms']:.1f} ms via {real['via']}"
                        f"{retried}, model {model} ({how}){' ' + why if why else ''} [{r['wall_s']} s]")
            with print_lock:
                print(line, flush=True)
            return r, bad

        # One thread per environment (at most LOOPCHECK_CLIENTS_JOBS at
        # once, default 2): a client mostly waits out a stall, so two run
        # side by side cost little precision and halve the wall time. Within
        # an environment the clients run one after another.
        jobs = max(1, int(os.environ.get("LOOPCHECK_CLIENTS_JOBS", "2")))
        per_env: dict[str, list[tuple[dict, bool]]] = {}
        slots = threading.Semaphore(jobs)

        def env_worker(env: Env) -> None:
            with slots:
                per_env[env.name] = [one(env, i, c) for i, c in enumerate(CLIENTS)]

        threads = [threading.Thread(target=env_worker, args=(e,)) for e in envs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        results = [r for e in envs for r, _ in per_env.get(e.name, [])]
        failed = sum(bad for e in envs for _, bad in per_env.get(e.name, []))
    finally:
        for d in keep:
            shutil.rmtree(d, ignore_errors=True)

    out.write_text(json.dumps({
        "scenario": scenario.name, "title": scenario.title, "kernel": os.uname().release,
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "loopcheck": {"version": run_bounded([loopcheck, "--version"]).stdout.strip(),
                      "exit": proc.returncode, "addresses": addresses, "clients": rows},
        "results": results,
    }, indent=1) + "\n")
    measured = [r for r in results if "real" in r]
    if not measured and not failed:
        print("harness.py: skipped: no client is installed", file=sys.stderr)
        return 77
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "lab-args" and argv[1] in SCENARIOS:
        print(" ".join(lab_args(SCENARIOS[argv[1]])))
        return 0
    if len(argv) == 4 and argv[0] == "run" and argv[1] in SCENARIOS:
        return run(SCENARIOS[argv[1]], argv[2], Path(argv[3]))
    print(__doc__, file=sys.stderr)
    print(f"scenarios: {' '.join(SCENARIOS)}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
