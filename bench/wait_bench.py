#!/usr/bin/env python3
"""The driver of bench/wait.sh: for each waiter, RUNS times, starts it
against a port that is bound but not listening, reads its CPU time over a
window while it waits, then listen()s and times how long the waiter takes
to exit after that. Prints one Markdown row per waiter: median detection
latency (listen() to exit, min..max), and CPU while waiting as a percentage
of one core (median).

CPU is utime+stime+cutime+cstime from /proc/PID/stat (clock ticks, 10 ms):
a shell loop's finished children (nc, sleep) count through cutime/cstime.
The window starts 1 s after the waiter, so start-up (Node's ~0.1 s) is not
counted as waiting.

With HOST "http" the server is an HTTP server on 127.0.0.1 that listens
from the start and answers 503 to every GET until a random moment, then
200: detection is from that moment to the waiter's exit (readiness, not a
port), and COMMAND has {url} (http://127.0.0.1:PORT/health).

usage: wait_bench.py HOST RUNS NAME=COMMAND...   (COMMAND with {host} {port} {url})
"""
import http.server
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time

TICK = os.sysconf("SC_CLK_TCK")
SETTLE_S = 1.0   # start-up, not counted
WINDOW_S = 3.0   # CPU measured over this while the waiter waits
PHASE_S = 1.0    # listen() this much later at most, uniformly
LIMIT_S = 20.0   # a waiter that has not exited by then failed this run


def cpu_ticks(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # fields[0] is state (field 3); utime..cstime are fields 14..17
    return sum(int(x) for x in fields[11:15])


def one_run(host: str, command: str) -> tuple[float, float]:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM)
    # localhost (the lab): the server on 127.0.0.1 only, on the port the
    # lab drops ::1's first RST for; SO_REUSEADDR for back-to-back runs.
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1" if host == "localhost" else host, int(os.environ.get("WAIT_BENCH_PORT", "0"))))
    port = s.getsockname()[1]
    argv = ["sh", "-c", command.format(host=host, port=port)]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(SETTLE_S)
    c0 = cpu_ticks(proc.pid)
    time.sleep(WINDOW_S)
    c1 = cpu_ticks(proc.pid)
    if proc.poll() is not None:
        raise RuntimeError(f"{command} exited {proc.returncode} before the server listened")
    # listen() at a random phase of the waiter's poll cycle: at a fixed
    # offset from its start, a loop polling every second would meet the
    # listener at the same point of its cycle every run (measured: a
    # constant 0.1 s for the nc loop), not on average half an interval late.
    time.sleep(random.uniform(0.0, PHASE_S))
    # A blocking wait: Popen.wait(timeout=...) polls with sleeps of up to
    # 50 ms, which would add to every latency. A timer kills a waiter that
    # never ends.
    watchdog = threading.Timer(LIMIT_S, proc.kill)
    watchdog.start()
    s.listen(64)
    listened = time.monotonic()
    proc.wait()
    detect = time.monotonic() - listened
    watchdog.cancel()
    s.close()
    if detect >= LIMIT_S:
        return float("inf"), (c1 - c0) / TICK / WINDOW_S * 100
    if proc.returncode != 0:
        raise RuntimeError(f"{command} exited {proc.returncode}")
    return detect, (c1 - c0) / TICK / WINDOW_S * 100


class Health(http.server.BaseHTTPRequestHandler):
    """503 until the server's `ready` is set, then 200."""
    def do_GET(self):
        self.send_response(200 if self.server.ready else 503)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def one_http_run(command: str) -> tuple[float, float]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Health)
    server.ready = False
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    url = f"http://127.0.0.1:{port}/health"
    argv = ["sh", "-c", command.format(host="127.0.0.1", port=port, url=url)]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(SETTLE_S)
    c0 = cpu_ticks(proc.pid)
    time.sleep(WINDOW_S)
    c1 = cpu_ticks(proc.pid)
    if proc.poll() is not None:
        raise RuntimeError(f"{command} exited {proc.returncode} on a 503")
    time.sleep(random.uniform(0.0, PHASE_S))
    watchdog = threading.Timer(LIMIT_S, proc.kill)
    watchdog.start()
    server.ready = True
    ready = time.monotonic()
    proc.wait()
    detect = time.monotonic() - ready
    watchdog.cancel()
    server.shutdown()
    server.server_close()
    cpu = (c1 - c0) / TICK / WINDOW_S * 100
    if detect >= LIMIT_S:
        return float("inf"), cpu
    if proc.returncode != 0:
        raise RuntimeError(f"{command} exited {proc.returncode}")
    return detect, cpu


def fmt_ms(x: float) -> str:
    return "never" if x == float("inf") else f"{x * 1000:.1f}"


def main() -> int:
    host, runs = sys.argv[1], int(sys.argv[2])
    what = "HTTP 503 -> 200" if host == "http" else host
    print(f"| waiter ({what}) | detection ms, median [min..max] | CPU while waiting, % of one core |")
    print("|---|---|---|")
    for spec in sys.argv[3:]:
        name, command = spec.split("=", 1)
        det, cpu = [], []
        for _ in range(runs):
            d, c = one_http_run(command) if host == "http" else one_run(host, command)
            det.append(d)
            cpu.append(c)
        print(f"| {name} | {fmt_ms(statistics.median(det))} [{fmt_ms(min(det))}..{fmt_ms(max(det))}]"
              f" | {statistics.median(cpu):.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
