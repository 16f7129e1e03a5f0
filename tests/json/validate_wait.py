#!/usr/bin/env python3
"""Runs the real `loopcheck wait --json` against listeners this script opens
itself (up, never up, down, no name) and validates every document against
docs/wait.schema.json. Exit 77 (skipped) when jsonschema is missing."""
import json
import socket
import subprocess
import sys

from schema_check import ipv4_port, load_validator

exe, schema_path = sys.argv[1], sys.argv[2]
validator = load_validator(schema_path)


def localhost_addresses():
    """The addresses getaddrinfo gives for localhost, in its order, once each."""
    seen = []
    for family, _, _, _, sockaddr in socket.getaddrinfo("localhost", None, type=socket.SOCK_STREAM):
        if (family, sockaddr[0]) not in seen:
            seen.append((family, sockaddr[0]))
    return seen


def listen_on_all(addresses):
    """Listeners on one port on every address, or None when some address
    cannot take that port (IPv6 off, the port taken on ::1): a few tries."""
    for _ in range(20):
        sockets = []
        try:
            port = 0
            for family, host in addresses:
                s = socket.socket(family, socket.SOCK_STREAM)
                sockets.append(s)
                if family == socket.AF_INET6:
                    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                s.bind((host, port))
                s.listen(64)
                port = s.getsockname()[1]
            return sockets, port
        except OSError:
            for s in sockets:
                s.close()
    return None


# Every address localhost has here (127.0.0.1 alone, or ::1 too where the
# hosts file lists it), so that "--all-addresses localhost" can succeed.
addresses = localhost_addresses()
opened = listen_on_all(addresses)
if opened is None:
    print(f"FAIL cannot listen on one port on every localhost address {addresses}")
    sys.exit(1)
listeners, open_port = opened
v4_only, v4_port = ipv4_port(listening=True)
closed, closed_port = ipv4_port(listening=False)

runs = [
    ([f"127.0.0.1:{open_port}"], 0),
    (["--all-addresses", f"localhost:{open_port}"], 0),
    (["--for", "200ms", f"127.0.0.1:{closed_port}"], 3),
    (["--for", "200ms", "--down", f"127.0.0.1:{open_port}"], 3),
    (["--down", f"127.0.0.1:{closed_port}"], 0),
    (["nosuch.invalid:80"], 4),
]
if len(addresses) > 1:
    # A server on 127.0.0.1 alone: one address of localhost is up, not all.
    runs += [
        ([f"localhost:{v4_port}"], 0),
        (["--for", "300ms", "--all-addresses", f"localhost:{v4_port}"], 3),
    ]
else:
    print(f"note: localhost is only {addresses[0][1]} here: the one-of-several case is not run")
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
