#!/usr/bin/env python3
"""`loopcheck wait` as a readiness probe (issue 35), against servers this
script starts on 127.0.0.1:
- a plain http.server: an http:// URL is up at its first 2xx;
- one that answers 503 for 1.5 s, then 200: "not yet" until the 200, and
  --expect-status 201 never up (exit 3, the last answer in the report);
- one that accepts and resets, one that accepts and says nothing: not up,
  each with its answer named, and the wait still bounded by --for;
- `-- COMMAND`: runs once up, its exit status is loopcheck's; not run when
  the wait fails; 127 for a command that is not there; the report on
  stderr so stdout is the command's;
- an https:// URL: port only, with the tls-not-checked finding;
- a CI log: the start line and the heartbeat on a pipe; none with -q;
- durations in Go's form (-t 1m30s);
- SIGTERM: exit 143 and the report so far;
- a name that starts resolving after 1 s (a hosts file bind-mounted in a
  private mount namespace): waited for, not exit 4 at once (skipped with
  the reason where unshare -m is not permitted).

Every JSON report is validated against docs/wait.schema.json when its path
is given (and the jsonschema module is there).

usage: wait_ready_test.py LOOPCHECK [WAIT_SCHEMA]"""
import http.server
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

exe = os.path.abspath(sys.argv[1])
failures = []
schema = None
if len(sys.argv) > 2:
    try:
        import jsonschema
        with open(sys.argv[2]) as f:
            schema = json.load(f)
    except ImportError:
        print("note: no jsonschema module; reports are parsed, not validated")


def document(text):
    """The JSON report, validated against the schema when there is one."""
    doc = json.loads(text)
    if schema is not None:
        try:
            jsonschema.validate(doc, schema)
        except jsonschema.ValidationError as e:
            failures.append(f"report does not match docs/wait.schema.json: {e.message}\n{text}")
            print("FAIL schema: " + e.message)
    return doc


def check(ok, what, detail=""):
    if not ok:
        failures.append(f"{what}\n{detail}")
        print(f"FAIL {what}")


def flat(text):
    """The text with its line wraps undone: a report wraps a long line at
    any space, so a phrase is looked for in this."""
    return " ".join(text.split())


def run(args, timeout=60, **kw):
    env = dict(os.environ, COLUMNS="100")
    r = subprocess.run([exe, *args], capture_output=True, env=env, timeout=timeout, **kw)
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


class Flaky(http.server.BaseHTTPRequestHandler):
    """503 until `ready_at` (monotonic), then 200."""
    ready_at = 0.0
    gets = 0

    def do_GET(self):
        type(self).gets += 1
        code = 200 if time.monotonic() >= self.ready_at else 503
        self.send_response(code)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def http_server(handler):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def raw_server(mode):
    """Accepts and resets ("reset") or accepts and holds ("hang")."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(64)
    held = []

    def loop():
        while True:
            try:
                c, _ = s.accept()
            except OSError:
                return
            if mode == "reset":
                c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                c.close()
            else:
                held.append(c)

    threading.Thread(target=loop, daemon=True).start()
    return s, s.getsockname()[1]


def test_http(port_ok):
    code, out, err = run(["wait", "--json", "-t", "5s", f"http://localhost:{port_ok}/health?token=s3cret"])
    check(code == 0, "http.server: up, exit 0", out + err)
    doc = document(out)
    t = doc["targets"][0]
    check(t["http_path"] == "/health?token=***", "the GET's path is shown redacted", t["http_path"])
    check("s3cret" not in out + err, "the query's value reaches no report", out + err)
    winner = [a for a in t["addresses"] if a["address"] == t["winner"]][0]
    check(winner["last_answer"]["status"] == 200 and winner["answers"] >= 1,
          "the winner's last answer is the 200", json.dumps(winner))
    check(doc["expect_status"] == "200-399", "expect_status in the JSON", out)


def test_not_yet():
    Flaky.ready_at = time.monotonic() + 1.5
    Flaky.gets = 0
    server, port = http_server(Flaky)
    start = time.monotonic()
    code, out, err = run(["wait", "-t", "10s", f"http://127.0.0.1:{port}/"])
    took = time.monotonic() - start
    check(code == 0, "503 then 200: up, exit 0", out + err)
    check(took >= 1.4, f"503 is not yet: up only after the 200 ({took:.2f} s)", out)
    check("(GET /: 200 OK)" in flat(out), "the headline names the answer", out)
    check(Flaky.gets <= 30, f"GETs are paced, not 40 a second ({Flaky.gets} in {took:.1f} s)")
    code, out, err = run(["wait", "-t", "1s", "--expect-status", "201", f"http://127.0.0.1:{port}/"])
    check(code == 3, "--expect-status 201 against a 200: exit 3", out + err)
    check("answered 200 OK" in flat(out) and "expects 201" in flat(out),
          "the report gives the last answer and the expectation", out)
    server.shutdown()


def test_reset_and_hang():
    for mode, says in [("reset", "reset before a status line"), ("hang", "no status line within")]:
        sock, port = raw_server(mode)
        start = time.monotonic()
        code, out, err = run(["wait", "-t", "2s", f"http://127.0.0.1:{port}/"])
        took = time.monotonic() - start
        check(code == 3, f"{mode}: an accept without an answer is not up (exit 3)", out + err)
        check(says in flat(out), f"{mode}: the report says '{says}'", out)
        check(took < 4.0, f"{mode}: the wait stays bounded by --for ({took:.2f} s)", out)
        sock.close()


def test_command(port_ok, closed_port):
    code, out, err = run(["wait", "-t", "5s", f"http://127.0.0.1:{port_ok}/", "--",
                          sys.executable, "-c", "print('from the command'); raise SystemExit(7)"])
    check(code == 7, "-- COMMAND: its exit status is loopcheck's", f"{code}\n{out}\n{err}")
    check(out == "from the command\n", "stdout is the command's alone", out)
    check("up on 127.0.0.1" in flat(err), "the report went to stderr", err)
    code, out, err = run(["wait", "-q", "-t", "5s", f"127.0.0.1:{port_ok}", "--", "true"])
    check(code == 0 and err == "" and out == "", "-q: nothing but the command's output", err)
    code, out, err = run(["wait", "-t", "300ms", f"127.0.0.1:{closed_port}", "--",
                          sys.executable, "-c", "print('ran')"])
    check(code == 3 and "ran" not in out, "a failed wait does not run the command", out + err)
    code, out, err = run(["wait", "-t", "5s", f"127.0.0.1:{port_ok}", "--", "no-such-command-x"])
    check(code == 127 and "cannot run no-such-command-x" in err,
          "a command that is not there: 127 and one line", err)


def test_https(port_ok):
    code, out, err = run(["wait", "--json", "-t", "2s", f"https://127.0.0.1:{port_ok}/"])
    doc = document(out)
    ids = [f["id"] for f in doc["findings"]]
    check(code == 0 and "tls-not-checked" in ids and doc["targets"][0]["tls_unchecked"],
          "https://: port only, and the report says so", out)


def test_ci_log(closed_port):
    code, out, err = run(["wait", "-t", "6s", f"127.0.0.1:{closed_port}"])
    lines = err.splitlines()
    check(code == 3, "nothing listens: exit 3", out + err)
    check(lines and lines[0].startswith("loopcheck wait: up to 6 s for"),
          "a CI log starts with the start line", err)
    beats = [l for l in lines if l.startswith("waiting for ")]
    check(len(beats) == 1 and "(5 s of 6 s)" in beats[0] and "refused" in beats[0],
          "one heartbeat at 5 s with each address's state", err)
    code, out, err = run(["wait", "-q", "-t", "300ms", f"127.0.0.1:{closed_port}"])
    check(err == "", "-q: no start line, no heartbeat", err)


def test_durations(port_ok):
    code, out, err = run(["wait", "--json", "-t", "1m30s", f"127.0.0.1:{port_ok}"])
    check(code == 0 and document(out)["for_ms"] == 90000, "-t 1m30s is 90 s", out + err)
    code, out, err = run(["wait", "--for", "1h1s", f"127.0.0.1:{port_ok}"])
    check(code == 2 and "at most 1 hour" in err, "above 1 hour: exit 2", err)


def test_sigterm(closed_port):
    p = subprocess.Popen([exe, "wait", "--json", "-t", "30s", f"127.0.0.1:{closed_port}"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.5)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=10)
    out = out.decode()
    check(p.returncode == 143, f"SIGTERM: exit 143 (got {p.returncode})", err.decode())
    doc = document(out)
    check(doc["interrupted"] and doc["terminated"] and doc["exit_code"] == 143,
          "the report so far says it was SIGTERM", out)


def test_late_name(port_ok):
    unshare = shutil.which("unshare")
    if os.geteuid() != 0 or not unshare:
        print("SKIP a name that resolves late: needs root and unshare -m for a private /etc/hosts")
        return
    probe = subprocess.run([unshare, "-m", "true"], capture_output=True, timeout=30)
    if probe.returncode != 0:
        # In a chroot whose / is no mount point, unshare cannot make the
        # new namespace's mounts private ("cannot change root filesystem
        # propagation"): CI's fresh Debian roots.
        print("SKIP a name that resolves late: unshare -m is not permitted here: " +
              probe.stderr.decode("utf-8", "replace").strip())
        return
    work = tempfile.mkdtemp(prefix="loopcheck_wait_")
    hosts = os.path.join(work, "hosts")
    with open(hosts, "w") as f:
        f.write("127.0.0.1 localhost loopcheck-hosts-probe\n")
    # Exit 98: this system's resolver does not read /etc/hosts for a name
    # (a minimal root without nsswitch.conf asks DNS first and stops there).
    script = (f"mount --bind {hosts} /etc/hosts || exit 99; "
              f"getent hosts loopcheck-hosts-probe >/dev/null || exit 98; "
              f"(sleep 1; echo '127.0.0.1 compose-db' >> {hosts}) & "
              f"exec {exe} wait --json -t 10s compose-db:{port_ok}")
    r = subprocess.run([unshare, "-m", "sh", "-c", script], capture_output=True, timeout=30)
    if r.returncode == 99:
        print("SKIP a name that resolves late: bind-mounting /etc/hosts is not permitted here")
        return
    if r.returncode == 98:
        print("SKIP a name that resolves late: this system's resolver does not read /etc/hosts "
              "for other names (getent hosts finds no name added there)")
        return
    out = r.stdout.decode()
    check(r.returncode == 0, "a name that resolves after 1 s is waited for (exit 0)", out + r.stderr.decode())
    t = document(out)["targets"][0]
    check(t["resolved_ms"] is not None and t["resolved_ms"] >= 900 and t["resolve_attempts"] >= 3,
          "the report says when the name resolved and how often it was asked", json.dumps(t))


def main():
    server, port_ok = http_server(Flaky)
    Flaky.ready_at = 0.0
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    test_http(port_ok)
    test_not_yet()
    test_reset_and_hang()
    test_command(port_ok, closed_port)
    test_https(port_ok)
    test_ci_log(closed_port)
    test_durations(port_ok)
    test_sigterm(closed_port)
    test_late_name(port_ok)
    server.shutdown()
    if failures:
        print(f"{len(failures)} failed")
        for f in failures:
            print("---\n" + f)
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
