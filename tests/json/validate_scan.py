#!/usr/bin/env python3
"""Runs the real `loopcheck scan --json` on a small tree written here (a
listener on 127.0.0.1 this script opens, and with --no-probe) and validates
every document against docs/scan.schema.json. Exit 77 (skipped) when
jsonschema is missing."""
import json
import pathlib
import subprocess
import sys
import tempfile

from schema_check import ipv4_port, load_validator

exe, schema_path = sys.argv[1], sys.argv[2]
validator = load_validator(schema_path)
listening, port = ipv4_port(listening=True)
failures = 0
with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp)
    (root / "a.py").write_text(f"import requests\nrequests.get('http://localhost:{port}/')\n"
                               "host = '127.0.0.1'\nADMIN = 'me@localhost'\n", encoding="utf-8")
    (root / "n.ipynb").write_text(json.dumps({"cells": [{"cell_type": "code", "source": [
        "import httpx\n", f"httpx.get('http://127.0.0.1:{port}/')\n"]}]}), encoding="utf-8")
    (root / "bin.py").write_bytes(b"\0\x01localhost:1")
    for args in (["--json"], ["--json", "--no-probe"], ["--json", "--strict"]):
        p = subprocess.run([exe, "scan", *args, tmp], capture_output=True, text=True, timeout=60)
        doc = json.loads(p.stdout)
        errors = list(validator.iter_errors(doc))
        for e in errors:
            print(f"FAIL {args}: {e.message} at {list(e.absolute_path)}")
        failures += len(errors)
        if not any("cell" in h for h in doc["hits"]):
            print(f"FAIL {args}: the notebook hit carries no cell")
            failures += 1
        print(f"{'ok  ' if not errors else 'FAIL'} scan {' '.join(args)}: exit {p.returncode}, "
              f"{len(doc['hits'])} hits")
listening.close()
sys.exit(1 if failures else 0)
