#!/usr/bin/env python3
"""Runs the real loopcheck with --json in several situations, against
listeners this script opens itself, and validates every document against
docs/report.schema.json. Exit 77 (skipped) when jsonschema is missing."""
import json
import subprocess
import sys

from schema_check import ipv4_port, load_validator

exe, schema_path = sys.argv[1], sys.argv[2]
validator = load_validator(schema_path)

listener, open_port = ipv4_port(listening=True)
closed, closed_port = ipv4_port(listening=False)

runs = [
    [],  # the self-check
    [f"127.0.0.1:{open_port}"],
    [f"localhost:{open_port}", f"127.0.0.1:{closed_port}"],
    ["-n", "3", "--emulate", "sequential", "--emulate", "happy-eyeballs=100ms", f"http://localhost:{open_port}/v1"],
    ["nosuch.invalid:80"],
    ["--expect", "refused", f"127.0.0.1:{closed_port}"],
]
failed_runs = 0
for args in runs:
    failures = 0
    proc = subprocess.run([exe, "--json", *args], capture_output=True, text=True, timeout=60)
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        print(f"FAIL {args}: stdout is not JSON ({e}); stderr: {proc.stderr.strip()}")
        failed_runs += 1
        continue
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    for e in errors:
        print(f"FAIL {args}: {'/'.join(map(str, e.path))}: {e.message}")
    failures += len(errors)
    if doc["exit_code"] != proc.returncode:
        print(f"FAIL {args}: exit_code {doc['exit_code']} but the process exited {proc.returncode}")
        failures += 1
    if "--emulate" in args:
        # --emulate runs once per round of -n (issue 13).
        for t in doc["targets"]:
            for e in t["emulations"]:
                if len(e["rounds"]) != int(args[args.index("-n") + 1]):
                    print(f"FAIL {args}: {e['strategy']} ran {len(e['rounds'])} round(s)")
                    failures += 1
    failed_runs += 1 if failures else 0
    print(f"{'ok  ' if not failures else 'FAIL'} {' '.join(args) or '(self-check)'}: exit {proc.returncode}")

# The schema must be able to say no: a document missing a required field,
# with an unknown outcome, or with a stray field fails.
broken = json.loads(proc.stdout)
del broken["exit_code"]
bad_outcome = json.loads(proc.stdout)
bad_outcome["targets"][0]["addresses"][0]["outcome"] = "maybe"
stray = json.loads(proc.stdout)
stray["targets"][0]["surprise"] = 1
for name, doc in (("missing exit_code", broken), ("unknown outcome", bad_outcome), ("stray field", stray)):
    if validator.is_valid(doc):
        print(f"FAIL the schema accepts a document with a {name}")
        failed_runs += 1

print(f"{len(runs) - failed_runs} passed, {failed_runs} failed")
sys.exit(1 if failed_runs else 0)
