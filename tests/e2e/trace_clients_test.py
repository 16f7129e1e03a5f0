#!/usr/bin/env python3
"""Real clients under `loopcheck trace --windows-order --json`, against a
server this script starts on 127.0.0.1 only and against a closed port (bound
on 127.0.0.1 and ::1, never listening): what was recorded, the report's
groups and the exit code. Python socket.create_connection (blocking and with
a timeout), requests, asyncio with and without happy_eyeballs_delay, Node.js
net.connect and fetch, curl, Java Socket, a static Go program built here.

A client not installed here is skipped with the reason; so is the whole test
(exit 77) when the trace itself is refused (no ptrace, no namespace for
--windows-order), with the report's reason. Usage: trace_clients_test.py
LOOPCHECK [DOCS_DIR] (with DOCS_DIR every report is validated against
trace.schema.json when jsonschema is installed)."""
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading

EXE = sys.argv[1]
SCHEMA = os.path.join(sys.argv[2], "trace.schema.json") if len(sys.argv) > 2 else None
failures = 0
skipped = []


def fail(what):
    global failures
    failures += 1
    print(f"FAIL {what}")


class Quiet(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


def start_server():
    """An HTTP server on 127.0.0.1 only, as uvicorn and Ollama start."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def closed_port():
    """A port bound on 127.0.0.1 and ::1 that never listens: refused on both."""
    for _ in range(20):
        v4 = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        v4.bind(("127.0.0.1", 0))
        port = v4.getsockname()[1]
        v6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        try:
            v6.bind(("::1", port))
            return port, (v4, v6)
        except OSError:
            v4.close()
            v6.close()
    raise RuntimeError("no port free on both 127.0.0.1 and ::1")


validator = None
if SCHEMA:
    try:
        import jsonschema

        with open(SCHEMA, encoding="utf-8") as f:
            validator = jsonschema.Draft202012Validator(json.load(f))
    except ImportError:
        print("note: jsonschema missing, reports not validated")


def trace(args, timeout=120):
    p = subprocess.run([EXE, "trace", "--windows-order", "--json", "--", *args],
                       capture_output=True, text=True, timeout=timeout)
    try:
        doc = json.loads(p.stdout)
    except json.JSONDecodeError:
        fail(f"{args}: no JSON (exit {p.returncode}): {p.stderr.strip()[:300]}")
        return p.returncode, None
    if validator:
        for e in validator.iter_errors(doc):
            fail(f"{args}: schema: {e.message} at {list(e.absolute_path)}")
    return p.returncode, doc


def connects_to(doc, port):
    return [c for c in doc["connects"] if c["port"] == port]


def group_of(doc, port):
    return next((g for g in doc["groups"] if g["port"] == port), None)


def check(name, args, port, *, runtime, v6_first, exit_code, server_up=True):
    """Runs one client and asserts what the trace recorded."""
    code, doc = trace(args)
    if doc is None:
        return
    seen = connects_to(doc, port)
    outcomes = [(c["family"], c["outcome"]) for c in seen]
    where = f"{name} ({'server' if server_up else 'closed port'})"
    if not seen:
        fail(f"{where}: no connect to port {port} recorded ({doc['mode']}: {doc['mode_reason']})")
        return
    if v6_first and outcomes[0] != ("ipv6", "refused"):
        fail(f"{where}: first connect {outcomes[0]}, wanted ('ipv6', 'refused')")
    if not v6_first and seen[0]["family"] != "ipv4":
        fail(f"{where}: first connect {outcomes[0]}, wanted IPv4 first")
    if server_up and ("ipv4", "accepted") not in outcomes:
        fail(f"{where}: no accepted 127.0.0.1 connect in {outcomes}")
    if not server_up and any(o == "accepted" for _, o in outcomes):
        fail(f"{where}: a connect to a closed port was accepted: {outcomes}")
    g = group_of(doc, port)
    if g is None:
        fail(f"{where}: no group for port {port}")
    elif runtime and g["runtime"] != runtime:
        fail(f"{where}: runtime {g['runtime']!r}, wanted {runtime!r}")
    elif runtime in ("go", "node", "python") and not g["runtime_version"]:
        fail(f"{where}: no {runtime} version read from the executable")
    if v6_first and server_up and g and g["fallbacks"] < 1:
        fail(f"{where}: no fallback counted in {g}")
    if code != exit_code:
        fail(f"{where}: exit {code}, wanted {exit_code} ({doc['exit_reason']}: {doc['summary']})")
    win = g["windows"]["per_connection_ms"] if g else {}
    print(f"{'ok  ' if True else ''} {where}: {outcomes} runtime {g and g['runtime']} "
          f"{g and g['runtime_version']} exit {code} ({doc['exit_reason']}), on Windows "
          f"{win.get('min')}..{win.get('max')} ms per connection")


def have(tool):
    return shutil.which(tool) is not None


def python_has(module):
    return subprocess.run(["python3", "-c", f"import {module}"], capture_output=True).returncode == 0


PY_CONNECT = ("import socket, sys\n"
              "s = socket.create_connection(('localhost', int(sys.argv[1])){})\n"
              "s.close()\n")
PY_ASYNCIO = ("import asyncio, sys\n"
              "async def main():\n"
              "    r, w = await asyncio.open_connection('localhost', int(sys.argv[1]){})\n"
              "    w.close()\n"
              "asyncio.run(main())\n")
NODE_NET = ("const s = require('net').connect({host: 'localhost', port: +process.argv[1]});"
            "s.on('connect', () => s.end()); s.on('error', e => { console.error(e.code); process.exit(1); });")
NODE_FETCH = ("fetch('http://localhost:' + process.argv[1] + '/').then(r => r.text())"
              ".catch(e => { console.error(e.cause && e.cause.code); process.exit(1); });")
JAVA_SOCKET = ("public class Probe { public static void main(String[] a) throws Exception {"
               " new java.net.Socket(\"localhost\", Integer.parseInt(a[0])).close(); } }")
GO_DIAL = ("package main\nimport (\"net\"; \"os\")\n"
           "func main() { c, err := net.Dial(\"tcp\", \"localhost:\" + os.Args[1]); "
           "if err != nil { os.Exit(1) }; c.Close() }\n")


def usage_errors():
    """No command, or an option trace does not take: one line, exit 2."""
    for args, words in ((["trace"], "no command to run"),
                        (["trace", "--"], "no command to run"),
                        (["trace", "-t", "5s", "--", "true"], "-t"),
                        (["trace", "--count", "3", "--", "true"], "--count")):
        p = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=30)
        lines = p.stderr.strip().splitlines()
        if p.returncode != 2 or len(lines) != 1 or words not in lines[0] or p.stdout:
            fail(f"{args}: exit {p.returncode}, stderr {p.stderr!r}, stdout {p.stdout[:80]!r}")
        else:
            print(f"ok   {' '.join(args)}: exit 2, {lines[0]}")


def main():
    usage_errors()
    # Is tracing with Windows' order possible here at all?
    code, doc = trace(["true"])
    if doc is None:
        return 1
    if doc["mode"] == "none" or not doc["windows_order"]:
        if failures:
            return 1
        print(f"SKIP: trace here ran mode {doc['mode']} ({doc['mode_reason']}); "
              f"windows_order {doc['windows_order']} ({doc['windows_order_note']})")
        return 77

    server, up = start_server()
    down, holders = closed_port()
    tmp = tempfile.mkdtemp(prefix="loopcheck-trace-")
    try:
        clients = []
        if have("python3"):
            clients += [
                ("python socket.create_connection", ["python3", "-c", PY_CONNECT.format("")], "python", True, 1),
                ("python socket.create_connection timeout=3", ["python3", "-c", PY_CONNECT.format(", timeout=3")], "python", True, 1),
                ("python asyncio", ["python3", "-c", PY_ASYNCIO.format("")], "python", True, 1),
                ("python asyncio happy_eyeballs_delay=0.25", ["python3", "-c", PY_ASYNCIO.format(", happy_eyeballs_delay=0.25")], "python", True, 1),
            ]
            if python_has("requests"):
                clients.append(("python requests", ["python3", "-c", "import requests, sys\nrequests.get(f'http://localhost:{sys.argv[1]}/', timeout=5)\n"], "python", True, 1))
            else:
                skipped.append("requests: not importable by python3 (apt-get install python3-requests)")
        else:
            skipped.append("python3 not installed")
        if have("node"):
            # Node.js turns SYN retries off on Windows loopback: nothing to pay.
            clients += [("node net.connect", ["node", "-e", NODE_NET], "node", True, 0),
                        ("node fetch", ["node", "-e", NODE_FETCH], "node", True, 0)]
        else:
            skipped.append("node not installed")
        if have("curl"):
            # curl >= 7.78 answers localhost itself, 127.0.0.1 first before 8.2.1.
            ver = subprocess.run(["curl", "--version"], capture_output=True, text=True).stdout.split()[1]
            v6_first = tuple(int(x) for x in ver.split(".")[:3]) >= (8, 2, 1)
            clients.append(("curl", ["curl", "-s", "-o", "/dev/null", "http://localhost:{port}/"], "curl", v6_first, 0))
        else:
            skipped.append("curl not installed")
        if have("java"):
            src = os.path.join(tmp, "Probe.java")
            with open(src, "w", encoding="utf-8") as f:
                f.write(JAVA_SOCKET)
            # Java prefers IPv4 and tries one address.
            clients.append(("java Socket", ["java", src], "java", False, 0))
        else:
            skipped.append("java not installed")
        go = shutil.which("go") or ("/usr/local/go/bin/go" if os.path.exists("/usr/local/go/bin/go") else None)
        if go:
            with open(os.path.join(tmp, "dial.go"), "w", encoding="utf-8") as f:
                f.write(GO_DIAL)
            env = dict(os.environ, CGO_ENABLED="0", GOCACHE=os.path.join(tmp, "gocache"),
                       GOFLAGS="-mod=mod", GO111MODULE="off")
            b = subprocess.run([go, "build", "-o", os.path.join(tmp, "dial"), os.path.join(tmp, "dial.go")],
                               capture_output=True, text=True, env=env, timeout=600)
            if b.returncode == 0:
                # "go" and its version from the binary's build info: the run
                # layer reads it (a static binary has no name to go by).
                clients.append(("go net.Dial (static)", [os.path.join(tmp, "dial")], "go", True, None))
            else:
                skipped.append(f"go build failed: {b.stderr.strip()[:200]}")
        else:
            skipped.append("go not installed")

        for name, args, runtime, v6_first, exit_up in clients:
            for port, is_up in ((up, True), (down, False)):
                argv = [a.replace("{port}", str(port)) for a in args]
                if "{port}" not in " ".join(args):
                    argv.append(str(port))
                # Against the closed port every client itself fails: its own
                # non-zero status is the exit code (curl: 7).
                if is_up:
                    want = exit_up
                else:
                    want = 7 if runtime == "curl" else 1
                if want is None:  # Go: the version decides what Windows costs
                    want = 1 if not is_up else None
                check(name, argv, port, runtime=runtime, v6_first=v6_first or False,
                      exit_code=want if want is not None else trace_exit_any(), server_up=is_up)
    finally:
        server.shutdown()
        for h in holders:
            h.close()
        shutil.rmtree(tmp, ignore_errors=True)
    for s in skipped:
        print(f"skip {s}")
    return 1 if failures else 0


class _Any(int):
    """Any exit code (the Go program's: Go before 1.21 pays on Windows)."""

    def __ne__(self, other):
        return other not in (0, 1)


def trace_exit_any():
    return _Any(0)


if __name__ == "__main__":
    sys.exit(main())
