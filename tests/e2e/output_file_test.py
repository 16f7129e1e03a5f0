#!/usr/bin/env python3
"""--output FILE on every command that reports (issue 36): the file in the
format its name says, stdout still the report, UTF-8 bytes, no colour in a
.txt; a name that says no format is exit 2 before anything runs; a file
that cannot be written is exit 5 with the report still on stdout. Runs the
real binary against a listener and a closed port this script opens on
127.0.0.1, a git tree it writes, and (where ptrace is allowed) a traced
python3.

usage: output_file_test.py LOOPCHECK"""
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile

exe = os.path.abspath(sys.argv[1])
failures = []


def run(args, cwd):
    env = dict(os.environ, COLUMNS="100")
    env.pop("NO_COLOR", None)
    r = subprocess.run([exe, *args], capture_output=True, env=env, timeout=120, cwd=cwd)
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def main():
    listener = socket.socket(socket.AF_INET)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    closed = socket.socket(socket.AF_INET)
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    work = pathlib.Path(tempfile.mkdtemp(prefix="loopcheck_output_"))
    tree = work / "proj"
    tree.mkdir()
    (tree / "app.py").write_text(
        f"import requests\nrequests.get('http://localhost:{closed_port}/x')\n")
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    subprocess.run(["git", "-C", str(tree), "add", "-A"], check=True)
    python = shutil.which("python3")
    probe = f"import socket; socket.socket().connect_ex(('127.0.0.1', {closed_port}))"

    commands = {
        "check": [f"127.0.0.1:{port}"],
        "wait": ["wait", "--for", "2s", f"127.0.0.1:{port}"],
        "staircase": ["staircase", "-n", "1", f"127.0.0.1:{closed_port}"],
        "audit": ["audit"],
        "scan": ["scan", "--no-probe", str(tree)],
        "trace": ["trace", "--", python, "-c", probe],
    }
    for name, args in commands.items():
        for suffix, looks_right in [
                (".json", lambda t: isinstance(json.loads(t), dict)),
                (".md", lambda t: t.lstrip().startswith("#") or "|" in t),
                (".txt", lambda t: "\x1b[" not in t and len(t.strip()) > 0)]:
            out_file = work / f"{name}{suffix}"
            code, out, err = run(["--color", "always", "--output", str(out_file), *args]
                                 if name == "check" else
                                 [args[0], "--color", "always", "--output", str(out_file),
                                  *args[1:]], work)
            if name == "trace" and code == 2 and ("not available" in err or
                                                  "not permitted" in err):
                print(f"trace: skipped, the tracer is not available here: {err.strip()}")
                break
            if code in (2, 5) or not out_file.exists():
                failures.append(f"{name} --output x{suffix}: exit {code}, "
                                f"file {'there' if out_file.exists() else 'missing'}: "
                                f"{err.strip()[:200]}")
                continue
            text = out_file.read_bytes().decode("utf-8")  # UTF-8 or this raises
            try:
                ok = looks_right(text)
            except ValueError:
                ok = False
            if not ok:
                failures.append(f"{name} --output x{suffix}: the file is not {suffix}: "
                                f"{text[:120]!r}")
            if not out.strip():
                failures.append(f"{name} --output x{suffix}: nothing on stdout")

    # scan's SARIF; the check refuses it.
    code, _, err = run(["scan", "--no-probe", "--output", str(work / "s.sarif"), str(tree)], work)
    if code == 2 or json.loads((work / "s.sarif").read_text()).get("version") != "2.1.0":
        failures.append(f"scan --output s.sarif: exit {code} {err.strip()}")
    code, out, err = run(["--output", str(work / "c.sarif"), f"127.0.0.1:{port}"], work)
    if code != 2 or "SARIF is scan's" not in err or out:
        failures.append(f"check --output c.sarif: exit {code}, not 2 before probing: {err}")
    code, out, err = run(["--output", str(work / "c.html"), f"127.0.0.1:{port}"], work)
    if code != 2 or "the name says the format" not in err:
        failures.append(f"check --output c.html: exit {code}, not 2: {err}")
    # A file that cannot be written: exit 5 after the report.
    code, out, err = run(["--output", str(work / "no" / "such" / "dir.json"),
                          f"127.0.0.1:{port}"], work)
    if code != 5 or "cannot write --output" not in err or "OK" not in out:
        failures.append(f"--output into a missing folder: exit {code}, stdout {out[:40]!r}, "
                        f"stderr {err.strip()!r}")
    # listen says why it takes none.
    code, _, err = run(["listen", "--output", "x.json", "127.0.0.1:0"], work)
    if code != 2 or "--output does not apply" not in err:
        failures.append(f"listen --output: exit {code}: {err.strip()}")

    shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
