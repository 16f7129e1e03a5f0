"""The real loopcheck binary against real packets, inside the netns lab.

netns_case.sh starts each case through lab.sh with the drops it needs; this file
runs inside the namespace: it opens the listeners, runs loopcheck, and checks
outcome, fields and exit code. Timing is only checked where the test is about
a physical delay of whole seconds, in generous bands.

usage: cases.py CASE LOOPCHECK PORT...
"""

import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

# Every loopcheck run is bounded; a hang is a failure, not a stuck test.
RUN_LIMIT_S = 30


class Checks:
    """Collects failed expectations so one run reports all of them."""

    def __init__(self) -> None:
        self.failed = 0

    def expect(self, ok: bool, what: str, got: object = None) -> None:
        status = "ok  " if ok else "FAIL"
        detail = "" if ok or got is None else f" (got {got!r})"
        print(f"{status} {what}{detail}")
        if not ok:
            self.failed += 1

    def between(self, value: float, low: float, high: float, what: str) -> None:
        self.expect(low <= value <= high, f"{what} in [{low:.2f}, {high:.2f}]: {value:.3f}", value)


class Listener:
    """A listening socket whose thread accepts and closes every connection,
    so the accept queue never fills whatever the number of probes. The
    thread holds the object, so it stays open until the process ends."""

    def __init__(self, host: str, port: int, v6only: bool = True) -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            self.sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, int(v6only))
        self.sock.bind((host, port))
        self.sock.listen(64)
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.close()


class Run:
    def __init__(self, argv: list[str]) -> None:
        started = time.monotonic()
        proc = subprocess.run(
            argv, capture_output=True, text=True, timeout=RUN_LIMIT_S, check=False
        )
        self.wall_s = time.monotonic() - started
        self.code = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr
        print(f"$ {' '.join(argv)}  -> exit {self.code} in {self.wall_s:.3f} s")
        if self.err.strip():
            print(self.err.rstrip())

    def json(self) -> dict:
        return json.loads(self.out)


def loopcheck(lc: str, *args: str) -> Run:
    return Run([lc, *args])


def address(target: dict, endpoint: str) -> dict:
    for a in target["addresses"]:
        if a["endpoint"] == endpoint:
            return a
    raise AssertionError(f"{endpoint} not probed; got {[a['endpoint'] for a in target['addresses']]}")


def finding_ids(target: dict) -> list[str]:
    return [f["id"] for f in target["findings"]]


def client(target: dict, id: str, min_version: str | None = None) -> dict:
    """A client row by its stable id (and the first version it covers)."""
    for c in target["clients"]:
        if c["id"] == id and c["versions"]["min"] == min_version:
            return c
    raise AssertionError(f"client {id!r} from {min_version} missing from the report")


def syn_retry_delays() -> list[float]:
    """When Linux sends SYN retransmission 1, 2, ... after the first SYN,
    in seconds: 1 s apart for the first tcp_syn_linear_timeouts retries
    (Linux 6.7+, default 4), doubling from 1 s before that and after."""
    path = Path("/proc/sys/net/ipv4/tcp_syn_linear_timeouts")
    linear = int(path.read_text()) if path.exists() else 0
    delays, at, rto = [], 0.0, 1.0
    for n in range(1, 8):
        at += rto
        delays.append(at)
        if n > linear:
            rto *= 2
    return delays


def refusal_band(k: int) -> tuple[float, float]:
    """Where a refusal whose first K RSTs were dropped ends: at the K-th
    retransmission, give or take scheduling (generous both ways)."""
    at = syn_retry_delays()[k - 1]
    return at - 0.2 * min(at, 1.0), at + 0.8


# --- The cases. ------------------------------------------------------------


def case_acceptance(c: Checks, lc: str, json_port: int, text_port: int) -> None:
    """The issue's scenario: localhost is ::1 first, the server listens on
    127.0.0.1 only, and ::1's first RST is lost, so the refusal takes one SYN
    retransmission (~1 s) before a sequential client falls back."""
    Listener("127.0.0.1", json_port)
    Listener("127.0.0.1", text_port)

    # Slow for in-order clients, and Node.js 17 to 19 (first address only)
    # fails: PARTIAL, exit 6 (issue 23; docs/diagnosis.md, "The verdict").
    run = loopcheck(lc, "--json", f"localhost:{json_port}")
    c.expect(run.code == 6, "exit code 6 (partial)", run.code)
    report = run.json()
    c.expect(report["exit_code"] == 6, "report exit_code 6", report["exit_code"])
    t = report["targets"][0]
    order = [a["endpoint"] for a in t["addresses"]]
    c.expect(
        order == [f"[::1]:{json_port}", f"127.0.0.1:{json_port}"],
        "localhost probed as ::1, then 127.0.0.1",
        order,
    )
    v6 = address(t, f"[::1]:{json_port}")
    v4 = address(t, f"127.0.0.1:{json_port}")
    c.expect(v6["outcome"] == "refused", "::1 refused", v6["outcome"])
    c.expect(v6["native_name"] == "ECONNREFUSED", "::1 ECONNREFUSED", v6["native_name"])
    low, high = refusal_band(1)
    c.between(v6["latency_ms"]["median"] / 1000, low, high, "::1 refusal (s)")
    c.expect(v6["syn_retransmissions"] == 1, "TCP_INFO: 1 SYN retransmission", v6["syn_retransmissions"])
    c.expect(v4["outcome"] == "accepted", "127.0.0.1 accepted", v4["outcome"])
    c.expect(v4["syn_retransmissions"] == 0, "127.0.0.1: no retransmission", v4["syn_retransmissions"])

    slow = [f for f in t["findings"] if f["id"] == "slow-refusal"]
    c.expect(len(slow) == 1, "one slow-refusal finding", finding_ids(t))
    if slow:
        c.expect(slow[0]["cause"] == "syn-retransmission", "cause syn-retransmission", slow[0]["cause"])
        c.expect(slow[0]["address"] == f"[::1]:{json_port}", "about ::1", slow[0]["address"])
    penalty = [f for f in t["findings"] if f["id"] == "fallback-penalty"]
    c.expect(len(penalty) == 1 and penalty[0]["severity"] == "warning",
             "fallback-penalty warning", [(f["id"], f["severity"]) for f in t["findings"]])

    for name in ("python", "dotnet", "wget"):
        p = client(t, name)
        c.expect(p["connected"] and p["via"] == f"127.0.0.1:{json_port}",
                 f"{name}: connects via 127.0.0.1", (p["connected"], p["via"]))
        c.between(p["connect_ms"] / 1000, low, high + 0.1, f"{name}: connect (s)")
    he = client(t, "python-asyncio")
    c.expect(he["connected"] and he["via"] == f"127.0.0.1:{json_port}",
             "Happy Eyeballs 250 ms: connects via 127.0.0.1", (he["connected"], he["via"]))
    # 250 ms after the ::1 attempt starts plus 127.0.0.1's own connect time.
    c.between(he["connect_ms"] / 1000, 0.25, 0.35, "Happy Eyeballs 250 ms: connect (s)")
    # Node.js 20: the ::1 attempt is cut at 250 ms; Node.js 17 to 19 tries
    # ::1 only and fails with the refusal; off Windows each row also says
    # what Windows would charge.
    n20 = client(t, "node", "20.0.0")
    c.between(n20["connect_ms"] / 1000, 0.25, 0.35, "Node.js 20: connect (s)")
    n18 = client(t, "node", "17.0.0")
    c.expect(not n18["connected"], "Node.js 17 to 19: fails (first address only)", n18["connected"])
    failing = [f for f in t["findings"] if f["id"] == "clients-fail"]
    c.expect(len(failing) == 1 and "Node.js 17 to 19" in failing[0]["message"],
             "clients-fail names Node.js 17 to 19", finding_ids(t))
    c.expect(n20["windows"] is not None, "Node.js 20: an on-Windows prediction", n20["windows"])
    c.expect(t["rewritten"] == f"127.0.0.1:{json_port}", "rewritten to 127.0.0.1:PORT", t["rewritten"])

    # The same situation in plain text (its own port, so its own dropped RST).
    run = loopcheck(lc, "--color", "never", f"localhost:{text_port}")
    c.expect(run.code == 6, "text: exit code 6", run.code)
    first = run.out.splitlines()[0] if run.out else ""
    c.expect(first.startswith("PARTIAL: clients that try addresses in turn wait"),
             "text: verdict starts with PARTIAL: clients that try addresses in turn wait", first)
    c.expect(f"Connect to 127.0.0.1:{text_port} instead of localhost:{text_port}" in run.out,
             "text: the fix names the rewritten address", run.out)


def case_k2(c: Checks, lc: str, port: int) -> None:
    """Two lost RSTs: the refusal comes with the second SYN retransmission."""
    run = loopcheck(lc, "--json", f"127.0.0.1:{port}")
    c.expect(run.code == 1, "exit code 1 (slow)", run.code)
    t = run.json()["targets"][0]
    a = address(t, f"127.0.0.1:{port}")
    c.expect(a["outcome"] == "refused", "refused", a["outcome"])
    low, high = refusal_band(2)
    c.between(a["latency_ms"]["median"] / 1000, low, high, "refusal (s)")
    c.expect(a["syn_retransmissions"] == 2, "TCP_INFO: 2 SYN retransmissions", a["syn_retransmissions"])
    slow = [f for f in t["findings"] if f["id"] == "slow-refusal"]
    c.expect(len(slow) == 1 and slow[0]["cause"] == "syn-retransmission",
             "slow-refusal, cause syn-retransmission", [(f["id"], f["cause"]) for f in t["findings"]])
    c.expect("server-down" in finding_ids(t), "server-down: nothing accepts", finding_ids(t))


def case_silence(c: Checks, lc: str, port: int) -> None:
    """SYNs to a listening port dropped: no answer at all, which loopcheck
    must call a timeout (not a refusal) and end at its --timeout."""
    Listener("127.0.0.1", port)
    for timeout_s, short in ((3, False), (1, True)):
        run = loopcheck(lc, "--json", "--timeout", f"{timeout_s}s", f"127.0.0.1:{port}")
        c.expect(run.code == 3, f"--timeout {timeout_s}s: exit code 3 (nothing accepts)", run.code)
        c.expect(run.wall_s < timeout_s + 3, f"--timeout {timeout_s}s: ends within timeout + 3 s", run.wall_s)
        t = run.json()["targets"][0]
        a = address(t, f"127.0.0.1:{port}")
        c.expect(a["outcome"] == "timeout", f"--timeout {timeout_s}s: outcome timeout", a["outcome"])
        c.expect(a["latency_ms"]["median"] >= timeout_s * 1000 * 0.95,
                 f"--timeout {timeout_s}s: waited the whole timeout", a["latency_ms"]["median"])
        # Every retransmission due before the timeout was sent and counted.
        due = sum(1 for d in syn_retry_delays() if d < timeout_s - 0.1)
        if due:
            c.expect((a["syn_retransmissions"] or 0) >= due,
                     f"--timeout {timeout_s}s: TCP_INFO counted >= {due} retransmission(s)",
                     a["syn_retransmissions"])
        ids = finding_ids(t)
        c.expect("no-answer" in ids, f"--timeout {timeout_s}s: no-answer finding", ids)
        c.expect("slow-refusal" not in ids, f"--timeout {timeout_s}s: no slow-refusal", ids)
        c.expect(("short-timeout" in ids) == short,
                 f"--timeout {timeout_s}s: short-timeout {'present' if short else 'absent'}", ids)


def case_expect(c: Checks, lc: str, fast_port: int, slow_port: int) -> None:
    """--expect refused: a fast refusal is what a harness wants (exit 0); a
    refusal stalled by a lost RST is still slow (exit 1)."""
    run = loopcheck(lc, "--json", "--expect", "refused", f"127.0.0.1:{fast_port}")
    c.expect(run.code == 0, "fast refusal, --expect refused: exit 0", run.code)
    a = address(run.json()["targets"][0], f"127.0.0.1:{fast_port}")
    c.expect(a["outcome"] == "refused", "fast port refused", a["outcome"])
    c.expect(a["syn_retransmissions"] == 0, "fast port: no retransmission", a["syn_retransmissions"])

    run = loopcheck(lc, "--json", "--expect", "refused", f"127.0.0.1:{slow_port}")
    c.expect(run.code == 1, "slow refusal, --expect refused: exit 1", run.code)
    t = run.json()["targets"][0]
    a = address(t, f"127.0.0.1:{slow_port}")
    c.expect(a["outcome"] == "refused", "slow port refused", a["outcome"])
    c.expect("slow-refusal" in finding_ids(t), "slow-refusal finding", finding_ids(t))


def case_concurrency(c: Checks, lc: str, port_a: int, port_b: int) -> None:
    """Two addresses each stalled by two lost RSTs (~2 s each) in one call
    finish together, not one after the other. The margin is a whole second
    on each side: in series the run would take at least the sum (~4 s); it
    must end within the slower address plus 1 s of start-up and scheduling."""
    run = loopcheck(lc, "--json", f"127.0.0.1:{port_a}", f"127.0.0.1:{port_b}")
    c.expect(run.code == 1, "exit code 1 (slow)", run.code)
    targets = run.json()["targets"]
    lat = []
    for t, port in zip(targets, (port_a, port_b)):
        a = address(t, f"127.0.0.1:{port}")
        c.expect(a["outcome"] == "refused" and a["syn_retransmissions"] == 2,
                 f"127.0.0.1:{port} refused after 2 retransmissions",
                 (a["outcome"], a["syn_retransmissions"]))
        lat.append(a["latency_ms"]["median"] / 1000)
    low, _ = refusal_band(2)
    c.expect(min(lat) >= low, f"each address stalled at least {low:.1f} s", lat)
    c.expect(run.wall_s < max(lat) + 1.0,
             f"one call took {run.wall_s:.2f} s < slower address {max(lat):.2f} s + 1 s "
             f"(in series: >= {sum(lat):.2f} s)", run.wall_s)


def late_wait(lc: str, port: int, *flags: str) -> tuple[Run, float]:
    """Starts `loopcheck wait localhost:PORT` with nothing listening, opens
    an IPv4-only listener once the waiter has begun its second connect (at
    least 0.5 s after it started), and returns the run and the time from
    listen() to the waiter's exit.

    Waiting for the waiter's own trace, not a fixed sleep: on a loaded
    machine (or under ASan) the waiter could still be starting after 0.5 s,
    and its first connect then met the listener at once, so the time after
    listen() measured its start-up, not what the test is about."""
    argv = [lc, "wait", "--json", "--for", "10s", "-vv", *flags, f"localhost:{port}"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    err_lines: list[str] = []
    connects = threading.Semaphore(0)

    def read_stderr() -> None:
        for line in proc.stderr:
            err_lines.append(line)
            if "connect(" in line:
                connects.release()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    started = time.monotonic()
    for _ in range(2):  # bounded: a waiter that never connects fails below
        connects.acquire(timeout=10)
    time.sleep(max(0.0, 0.5 - (time.monotonic() - started)))
    Listener("127.0.0.1", port)
    listened = time.monotonic()
    out_parts: list[str] = []
    out_reader = threading.Thread(target=lambda: out_parts.append(proc.stdout.read()), daemon=True)
    out_reader.start()
    try:
        proc.wait(timeout=RUN_LIMIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    detect = time.monotonic() - listened
    out_reader.join(timeout=5)
    reader.join(timeout=5)
    out = "".join(out_parts)
    err = "".join(line for line in err_lines if "connect(" not in line and "trace" not in line)
    run = Run.__new__(Run)
    run.code, run.out, run.err, run.wall_s = proc.returncode, out, err, detect
    print(f"$ {' '.join(argv)}  -> exit {run.code}, {detect * 1000:.1f} ms after listen()")
    if err.strip():
        print(err.rstrip())
    return run, detect


def case_wait(c: Checks, lc: str, port: int, strict_port: int) -> None:
    """loopcheck wait with localhost ::1 first, ::1 refusing only after a
    lost RST (~1 s) and the server on 127.0.0.1 only: the wait ends as soon
    as 127.0.0.1 accepts, without waiting for ::1's refusal, and says what
    in-order clients pay; --strict makes that exit 1."""
    run, detect = late_wait(lc, port)
    c.expect(run.code == 0, "exit 0 (up)", run.code)
    c.expect(detect < 0.5, f"detected {detect * 1000:.0f} ms after listen(), before ::1's "
             "~1 s refusal", detect)
    report = run.json()
    t = report["targets"][0]
    c.expect([a["address"] for a in t["addresses"]] == ["::1", "127.0.0.1"],
             "resolver order ::1, 127.0.0.1", [a["address"] for a in t["addresses"]])
    c.expect(t["winner"] == "127.0.0.1", "winner 127.0.0.1", t["winner"])
    texts = [f["message"] for f in report["findings"]]
    c.expect(any("comes first in resolver order" in x and "Python, .NET" in x for x in texts),
             "the order warning names in-order clients", texts)
    c.expect(all(f["severity"] == "warning" for f in report["findings"]), "only warnings",
             report["findings"])

    strict, detect = late_wait(lc, strict_port, "--strict")
    c.expect(strict.code == 1, "--strict: exit 1", strict.code)
    c.expect(detect < 0.5, f"--strict: detected {detect * 1000:.0f} ms after listen()", detect)
    c.expect(any(f["severity"] == "error" for f in strict.json()["findings"]),
             "--strict: the order finding is an error", strict.json()["findings"])


def case_wait_slow(c: Checks, lc: str, port: int) -> None:
    """loopcheck wait where every refusal takes a SYN retransmission (~1 s,
    the first RST of each connection lost, as every loopback refusal is
    slow on Windows without the no-retry option): a listener that appears
    while connects are unanswered is seen within the overlap gap (125 ms),
    not when the connect in flight is retransmitted."""
    run, detect = late_wait(lc, port)
    c.expect(run.code == 0, "exit 0 (up)", run.code)
    c.expect(detect < 0.3, f"detected {detect * 1000:.0f} ms after listen(), well before the "
             "~1 s retransmission of the connects in flight", detect)
    t = run.json()["targets"][0]
    c.expect(t["winner"] == "127.0.0.1", "winner 127.0.0.1", t["winner"])
    v4 = next(a for a in t["addresses"] if a["address"] == "127.0.0.1")
    c.expect(v4["timeline"][-1]["outcome"] == "accepted", "127.0.0.1's timeline ends accepted",
             v4["timeline"])


CASES = {
    "wait": case_wait,
    "wait-slow": case_wait_slow,
    "acceptance": case_acceptance,
    "k2": case_k2,
    "silence": case_silence,
    "expect": case_expect,
    "concurrency": case_concurrency,
}


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] not in CASES:
        print(f"usage: cases.py {{{','.join(CASES)}}} LOOPCHECK PORT...", file=sys.stderr)
        return 2
    c = Checks()
    try:
        CASES[argv[1]](c, argv[2], *(int(p) for p in argv[3:]))
    except (AssertionError, KeyError, TypeError, ValueError, subprocess.TimeoutExpired) as e:
        c.expect(False, f"{type(e).__name__}: {e}")
    print(f"{argv[1]}: {'passed' if c.failed == 0 else f'{c.failed} check(s) failed'}")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
