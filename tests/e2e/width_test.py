#!/usr/bin/env python3
"""Every command's text output fits the width it was given (issue 24):
COLUMNS=80 and COLUMNS=120, and 100 on a pipe with COLUMNS unset. Runs the
real binary against listeners and closed ports this script opens on
127.0.0.1: the self-check, a check of a listener and of a closed port,
several targets, audit, staircase, wait and scan. Also: the self-check is
at most 15 lines at 80 columns, a single target at most 24.

usage: width_test.py LOOPCHECK"""
import os
import pathlib
import socket
import subprocess
import sys
import tempfile

exe = sys.argv[1]
failures = []


def run(args, columns):
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    if columns:
        env["COLUMNS"] = str(columns)
    r = subprocess.run([exe, *args], capture_output=True, text=True, env=env, timeout=120)
    return r.stdout


def main():
    listener = socket.socket(socket.AF_INET)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    closed = socket.socket(socket.AF_INET)  # bound, never listening: refused
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    tree = tempfile.mkdtemp()
    pathlib.Path(tree, "app.py").write_text(
        "import requests\nrequests.get('http://localhost:11434/api/generate')\n")
    commands = {
        "self-check": [],
        "listener": [f"localhost:{port}"],
        "closed": [f"127.0.0.1:{closed_port}"],
        "listener -v": ["-v", f"localhost:{port}"],
        "many": [f"127.0.0.1:{closed_port}"] * 6,
        "audit": ["audit", str(port)],
        "staircase": ["staircase", "-n", "1", f"127.0.0.1:{closed_port}"],
        "wait": ["wait", "--for", "200ms", f"127.0.0.1:{closed_port}"],
        "scan": ["scan", "--no-probe", tree],
    }
    for name, args in commands.items():
        for columns, width in ((80, 80), (120, 120), (None, 100)):
            out = run(args, columns)
            if not out:
                failures.append(f"{name}: no output")
            for line in out.splitlines():
                if len(line) > width:
                    failures.append(f"{name} at {width}: {len(line)} columns: {line}")
    self_check = run([], 80).splitlines()
    if len(self_check) > 15:
        failures.append(f"self-check: {len(self_check)} lines at 80 columns")
    for name in ("listener", "closed"):
        lines = run(commands[name], 80).splitlines()
        if len(lines) > 24:
            failures.append(f"{name}: {len(lines)} lines at 80 columns")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(commands)} commands at 3 widths, {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
