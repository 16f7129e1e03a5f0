#!/usr/bin/env python3
"""Runs the real `loopcheck wait --json` against listeners this script opens
itself (up, never up, down, no name) and validates every document against
docs/wait.schema.json. Exit 77 (skipped) when jsonschema is missing."""
import json
import socket
import subprocess
import sys
import urllib.parse

try:
    import jsonschema
except ImportError:
    print("skipped: the python3 jsonschema module is not installed (apt-get install python3-jsonschema)")
    sys.exit(77)

exe, schema_path = sys.argv[1], sys.argv[2]
with open(schema_path, encoding="utf-8") as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
# Validators resolve every "$ref" against "$id": a relative "$id" makes
# Debian 12's jsonschema 4.10 look for a URL it cannot open (validate_report.py).
if not urllib.parse.urlsplit(schema.get("$id", "")).scheme:
    print(f"FAIL the schema's $id {schema.get('$id')!r} is not an absolute URI")
    sys.exit(1)
validator = jsonschema.Draft202012Validator(schema)

listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.bind(("127.0.0.1", 0))
listener.listen(64)
open_port = listener.getsockname()[1]
closed = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
closed.bind(("127.0.0.1", 0))  # bound, never listening: refused
closed_port = closed.getsockname()[1]

runs = [
    ([f"127.0.0.1:{open_port}"], 0),
    (["--all-addresses", f"localhost:{open_port}"], 0),
    (["--for", "200ms", f"127.0.0.1:{closed_port}"], 3),
    (["--for", "200ms", "--down", f"127.0.0.1:{open_port}"], 3),
    (["--down", f"127.0.0.1:{closed_port}"], 0),
    (["nosuch.invalid:80"], 4),
]
failed = 0
doc = None
for args, want in runs:
    proc = subprocess.run([exe, "wait", "--json", *args], capture_output=True, text=True, timeout=60)
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        print(f"FAIL {args}: stdout is not JSON ({e}); stderr: {proc.stderr.strip()}")
        failed += 1
        continue
    errors = list(validator.iter_errors(doc))
    for e in errors:
        print(f"FAIL {args}: {'/'.join(map(str, e.path))}: {e.message}")
    ok = not errors and proc.returncode == want and doc["exit_code"] == want
    if proc.returncode != want or doc["exit_code"] != want:
        print(f"FAIL {args}: exit {proc.returncode}, exit_code {doc['exit_code']}, want {want}")
    failed += 0 if ok else 1
    print(f"{'ok  ' if ok else 'FAIL'} wait {' '.join(args)}: exit {proc.returncode}")

# The schema must be able to say no.
broken = dict(doc or {})
broken.pop("goal", None)
if validator.is_valid(broken):
    print("FAIL the schema accepts a document without 'goal'")
    failed += 1
sys.exit(1 if failed else 0)
