"""The real clients and how each is run and timed: on this machine or in a
chroot with a Debian release's clients (LOOPCHECK_CLIENT_ROOTS), each
through a small probe program (probes/) that prints one JSON line, or, for
curl and wget, from the tool's own output. harness.py runs them inside the
netns lab and compares them with loopcheck's rows (matcher.py)."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from matcher import version_of

HERE = Path(__file__).resolve().parent
PROBES = HERE / "probes"

# Every client run and loopcheck run is bounded; a hang is a failure.
RUN_LIMIT_S = 60
WARM_PORT = 8099
MAX_ENVS = 4

# Clients and loopcheck run at a raised priority (as root): a shared,
# loaded machine otherwise adds its scheduling delays to sub-millisecond
# connects, and what is compared is the clients' algorithms.
NICE = ["nice", "-n", "-20"]


@dataclass(frozen=True)
class Client:
    key: str  # stable name in results
    id: str  # the report's clients[].id
    label: str
    core: bool  # in CI, a core client that cannot run fails the run
    # The scenarios it runs in; None: all of them.
    scenarios: tuple[str, ...] | None = None


NPM_SCENARIOS = ("v4only-k1", "dualstack", "v6only", "nothing")

CLIENTS = (
    Client("python-requests", "python", "Python requests", True),
    Client("python-urllib", "python", "Python urllib", True),
    Client("python-socket", "python", "Python socket.create_connection", True),
    Client("python-asyncio", "python-asyncio", "Python asyncio, happy_eyeballs_delay=0.25", True),
    Client("python-asyncio-default", "python-asyncio-default", "Python asyncio.open_connection, no delay",
           True),
    Client("python-httpx", "python", "Python httpx.Client", True),
    Client("python-httpx-async", "python-httpx-async", "Python httpx.AsyncClient", True),
    Client("python-aiohttp", "python-aiohttp", "Python aiohttp", True),
    Client("curl", "curl", "curl", True),
    Client("wget", "wget", "wget", True),
    Client("node-http", "node", "Node http.get", True),
    Client("node-fetch", "node", "Node fetch", True),
    Client("node-net-noauto", "node-no-autoselect", "Node net.connect, autoSelectFamily false", True),
    # The npm SDKs (npm_cache.sh clients): openai-node and ollama-js call
    # the global fetch, axios calls http.request; all on the node rows. Not
    # in v4only-k2 and v4first-v4only, to keep CI's time: there the node rows
    # differ from v4only-k1 and dualstack only by the stall's length and the
    # resolver's order, which http.get and fetch on the same Node.js prove
    # (all six scenarios were measured once, all matched: docs/clients.md's
    # intro). Saves about 20 s a run.
    Client("node-openai", "node", "Node openai (openai-node)", True, NPM_SCENARIOS),
    Client("node-ollama", "node", "Node ollama (ollama-js)", True, NPM_SCENARIOS),
    Client("node-axios", "node", "Node axios", True, NPM_SCENARIOS),
    Client("java-socket", "java-socket", "Java Socket", True),
    Client("java-httpclient", "java-httpclient", "Java HttpClient", True),
    Client("go", "go", "Go net.Dial", False),
    Client("ruby", "ruby", "Ruby Net::HTTP", True),
    Client("perl-http-tiny", "perl", "Perl HTTP::Tiny", True),
    Client("perl-lwp", "perl", "Perl LWP::UserAgent", True),
    Client("php", "php", "PHP file_get_contents", True),
)


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
        # lexists: /usr/bin/php is a link to /etc/alternatives/php, an
        # absolute link that only resolves inside the root.
        return any(os.path.lexists(self.root / d / tool) for d in ("usr/local/bin", "usr/bin", "bin"))


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
    r = json_line(run_bounded(env.cmd(["python3", f"{env.inner}/probe.py", mode, "localhost",
                                       str(warm), str(port)])))
    if "unavailable" in r:  # the probe could not import the library
        raise Unavailable(r["unavailable"])
    return r


def node_probe(env: Env, mode: str, warm: int, port: int) -> dict:
    if not env.has("node"):
        raise Unavailable("node is not installed")
    return json_line(run_bounded(env.cmd(["node", f"{env.inner}/probe.js", mode, "localhost",
                                          str(warm), str(port)])))


def npm_cache() -> Path:
    """Where npm_cache.sh clients installed the npm SDKs."""
    return Path(os.environ.get("LOOPCHECK_CI_CACHE", "/var/cache/loopcheck-ci")) / "npm-clients" / "node_modules"


def npm_probe(env: Env, sdk: str, warm: int, port: int) -> dict:
    if not env.has("node"):
        raise Unavailable("node is not installed")
    if not (env.work / "node_modules" / sdk).is_dir():
        raise Unavailable(f"the npm package {sdk} is not installed (tests/clients/npm_cache.sh clients)")
    r = json_line(run_bounded(env.cmd(["node", f"{env.inner}/probe_npm.js", sdk, "localhost",
                                       str(warm), str(port)])))
    # The table's version cell: Node.js's (it picks the row) and the package's.
    r["package_version"] = r.pop("package", "?")
    return r


def script_probe(env: Env, tool: str, argv: list[str], warm: int, port: int,
                 needs: str | None = None) -> dict:
    """A probe script run by `tool` (ruby, perl, php); `needs` is a module
    the script loads, checked first so that its absence is a skip."""
    if not env.has(tool):
        raise Unavailable(f"{tool} is not installed")
    if needs:
        check = run_bounded(env.cmd([tool, f"-M{needs}", "-e", "1"]))
        if check.returncode != 0:
            raise Unavailable(f"{tool} has no {needs}")
    return json_line(run_bounded(env.cmd([tool, *argv, "localhost", str(warm), str(port)])))


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
        case "python-asyncio-default":
            return python_probe(env, "asyncio-default", w, port)
        case "python-httpx":
            return python_probe(env, "httpx", w, port)
        case "python-httpx-async":
            return python_probe(env, "httpx-async", w, port)
        case "python-aiohttp":
            return python_probe(env, "aiohttp", w, port)
        case "node-net-noauto":
            return node_probe(env, "net-noauto", w, port)
        case "ruby":
            return script_probe(env, "ruby", [f"{env.inner}/probe.rb"], w, port)
        case "perl-http-tiny":
            return script_probe(env, "perl", [f"{env.inner}/probe.pl", "http-tiny"], w, port)
        case "perl-lwp":
            return script_probe(env, "perl", [f"{env.inner}/probe.pl", "lwp"], w, port,
                                needs="LWP::UserAgent")
        case "php":
            return script_probe(env, "php", [f"{env.inner}/probe.php"], w, port)
        case "curl":
            return curl_probe(env, w, port)
        case "wget":
            return wget_probe(env, w, port)
        case "node-http":
            return node_probe(env, "http", w, port)
        case "node-fetch":
            return node_probe(env, "fetch", w, port)
        case "node-openai":
            return npm_probe(env, "openai", w, port)
        case "node-ollama":
            return npm_probe(env, "ollama", w, port)
        case "node-axios":
            return npm_probe(env, "axios", w, port)
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
    # The npm SDKs beside probe_npm.js, where Node's require finds them:
    # hard links into the cache when it is on the same file system, else
    # a copy (about 40 MB).
    if npm_cache().is_dir():
        try:
            shutil.copytree(npm_cache(), env.work / "node_modules", symlinks=True, copy_function=os.link)
        except OSError:
            shutil.rmtree(env.work / "node_modules", ignore_errors=True)
            shutil.copytree(npm_cache(), env.work / "node_modules", symlinks=True)
    if env.has("javac"):
        subprocess.run(env.cmd(["javac", "-d", f"{env.inner}/java", f"{env.inner}/Probe.java"]),
                       capture_output=True, text=True, timeout=300, check=False)
    if env.has("go"):
        proc = subprocess.run(env.cmd(["go", "build", "-o", f"{env.inner}/dial", f"{env.inner}/dial.go"]),
                              capture_output=True, text=True, timeout=600, check=False)
        if proc.returncode != 0:
            env.go_missing = f"go build failed: {proc.stderr.strip()[-200:]}"  # type: ignore[attr-defined]
