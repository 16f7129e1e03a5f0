#!/usr/bin/env python3
"""N closed loopback ports in one loopcheck call, beside a bare connect()
loop making the same N refusals (issue 24's aims: 1,000 closed targets in
< 50 ms, 10,000 in < 0.3 s with a peak under 64 MiB).

Closed ports are held bound without listening, so every connect is refused
for certain. Wall time is the median of interleaved runs of each loopcheck
given (output to /dev/null, the default text report), CPU time from wait4,
the peak RSS from GNU time's %M; the bare loop is bench/connect_loop.c
(built here with cc) to one of the ports, N times.

usage: bench/scale_closed.py [--runs R] [--sizes 1000,10000] LOOPCHECK [LABEL=LOOPCHECK]...
"""
import argparse
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def closed_ports(n):
    held = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(("127.0.0.1", 0))
        held.append(s)
    return held, [s.getsockname()[1] for s in held]


def run_once(argv):
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def peak_mib(argv):
    with tempfile.NamedTemporaryFile(mode="r") as f:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", f.name, *argv],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return int(f.read().split()[-1]) / 1024


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=11)
    p.add_argument("--sizes", default="1000,10000")
    p.add_argument("loopchecks", nargs="+", help="PATH or LABEL=PATH")
    args = p.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, max(sizes) + 4200)), hard))
    tools = [(x.split("=", 1) if "=" in x else (x, x)) for x in args.loopchecks]
    loop = Path(tempfile.mkdtemp()) / "connect_loop"
    subprocess.run(["cc", "-O2", "-o", str(loop), str(ROOT / "bench" / "connect_loop.c")], check=True)
    held, ports = closed_ports(max(sizes))
    print(f"load average before: {os.getloadavg()[0]:.1f}; {args.runs} interleaved runs, medians\n")
    print("| targets | tool | wall ms | CPU ms | peak RSS MiB | exit |")
    print("|---:|---|---:|---:|---:|---|")
    for n in sizes:
        argvs = [(label, [path] + [f"127.0.0.1:{port}" for port in ports[:n]]) for label, path in tools]
        argvs.append(("bare connect() loop", [str(loop), "127.0.0.1", str(ports[0]), str(n)]))
        walls = {label: [] for label, _ in argvs}
        cpus = {label: [] for label, _ in argvs}
        codes = {label: set() for label, _ in argvs}
        for _ in range(args.runs):
            for label, argv in argvs:
                w, c, code = run_once(argv)
                walls[label].append(w)
                cpus[label].append(c)
                codes[label].add(code)
        for label, argv in argvs:
            print(f"| {n:,} | {label} | {statistics.median(walls[label]) * 1000:.1f} | "
                  f"{statistics.median(cpus[label]) * 1000:.1f} | {peak_mib(argv):.1f} | "
                  f"{','.join(map(str, sorted(codes[label])))} |")
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")
    del held
    return 0


if __name__ == "__main__":
    sys.exit(main())
