#!/usr/bin/env python3
"""What the first real Windows run must show, checked on loopcheck's own JSON.

Run on Windows (the GitHub workflow's Windows job does, after the tests):

    python tests/windows/check_evidence.py --exe path\\to\\loopcheck.exe --out evidence

It holds a closed port on 127.0.0.1 and ::1 and a listener of its own, runs

    loopcheck --json 127.0.0.1:PORT      loopcheck --json [::1]:PORT
    loopcheck staircase --json           loopcheck audit LISTENER_PORT --json

writes each report to --out, and checks (docs/windows.md, "Unconfirmed on
real Windows"):

- probe: a refused loopback connect with the default stack is at least
  400 ms slower than its no-SYN-retry twin, wherever the MaxSynRetransmissions
  loopcheck read is 1 or more (the twin's option must have been applied);
- staircase: the fitted step is 500 ms +-20 %, and limit 0 (sent as
  TCP_INITIAL_RTO_NO_SYN_RETRANSMISSIONS) is refused in under 50 ms;
- audit: the listener this script opened shows its owner (this python).

The check_* functions take parsed reports and return a list of failures, so
tests/windows/check_evidence_test.py exercises them on any OS. Exit status:
0 all held, 1 a check failed, 2 loopcheck could not be run.
"""

import argparse
import json
import os
import socket
import subprocess
import sys

RETRY_COST_MIN_MS = 400.0
STEP_MS = 500.0
STEP_TOLERANCE = 0.20
LIMIT0_MAX_MS = 50.0


def configured_limit(report):
    """MaxSynRetransmissions as loopcheck read it, or None when it could not."""
    value = report.get("system", {}).get("tcp_settings", {}).get("MaxSynRetransmissions")
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def check_probe(report, label):
    """The paired probe of one refused loopback address shows the retry cost."""
    failures = []
    limit = configured_limit(report)
    source = report.get("system", {}).get("tcp_settings", {}).get(
        "MaxSynRetransmissions source", "")
    if limit is None:
        return [f"{label}: MaxSynRetransmissions could not be read "
                f"({report.get('system', {}).get('tcp_settings')}), so the expected "
                "retry cost is unknown"]
    targets = report.get("targets") or []
    addresses = targets[0].get("addresses") if targets else None
    if not addresses:
        return [f"{label}: the report has no address"]
    a = addresses[0]
    if a.get("outcome") != "refused":
        failures.append(f"{label}: the default-stack probe was {a.get('outcome')}, not refused")
    fast = a.get("without_syn_retries")
    if not fast:
        return failures + [f"{label}: no no-SYN-retry twin (was the probe paired?)"]
    if fast.get("outcome") != "refused":
        failures.append(f"{label}: the no-retry twin was {fast.get('outcome')}, not refused")
    options = {s.get("syn_option") for s in a.get("samples_without_syn_retries", [])}
    if options != {"applied"}:
        failures.append(f"{label}: SIO_TCP_INITIAL_RTO was not applied to every twin: "
                        f"{sorted(o or 'null' for o in options)}")
    default_ms = a["latency_ms"]["median"]
    fast_ms = fast["latency_ms"]["median"]
    cost = default_ms - fast_ms
    print(f"{label}: default {default_ms:.3f} ms, without SYN retries {fast_ms:.3f} ms, "
          f"retry cost {cost:.3f} ms, MaxSynRetransmissions={limit}"
          + (f" ({source})" if source else ""))
    if limit >= 1 and cost < RETRY_COST_MIN_MS:
        failures.append(f"{label}: the default stack was only {cost:.3f} ms slower than the "
                        f"no-retry twin, expected at least {RETRY_COST_MIN_MS:.0f} ms with "
                        f"MaxSynRetransmissions={limit}")
    return failures


def check_staircase(report):
    """Every address's fitted step is ~500 ms, and limit 0 is fast."""
    failures = []
    addresses = report.get("addresses") or []
    if not addresses:
        return ["staircase: no address was probed"]
    for a in addresses:
        where = a.get("endpoint", "?")
        fit = a.get("fit")
        steps = {s.get("limit"): s for s in a.get("steps", [])}
        zero = steps.get(0)
        if zero is None:
            failures.append(f"staircase {where}: no limit 0")
        else:
            zero_ms = zero["latency_ms"]["median"]
            if zero.get("option") != "applied":
                failures.append(f"staircase {where}: limit 0 was not applied "
                                f"({zero.get('option')} {zero.get('option_error')})")
            if zero.get("outcome") != "refused" or zero_ms >= LIMIT0_MAX_MS:
                failures.append(f"staircase {where}: limit 0 took {zero_ms:.3f} ms "
                                f"({zero.get('outcome')}), expected a refusal under "
                                f"{LIMIT0_MAX_MS:.0f} ms")
        if not fit:
            failures.append(f"staircase {where}: no fit ({a.get('shape')}): {a.get('conclusion')}")
            continue
        step = fit["step_ms"]
        print(f"staircase {where}: {step:.3f} ms per retry, {fit['intercept_ms']:.3f} ms at "
              f"none, shape {a.get('shape')}, kernel count {a.get('kernel_count')}")
        low, high = STEP_MS * (1 - STEP_TOLERANCE), STEP_MS * (1 + STEP_TOLERANCE)
        if not low <= step <= high:
            failures.append(f"staircase {where}: fitted step {step:.3f} ms, expected "
                            f"{low:.0f}..{high:.0f} ms")
        if a.get("shape") != "retried":
            failures.append(f"staircase {where}: shape {a.get('shape')}, expected retried")
    return failures


def check_audit(report, port, pid, process):
    """The listener on `port` is shown with its owner: `pid` and `process`."""
    for p in report.get("ports") or []:
        if p.get("port") != port:
            continue
        for listener in p.get("listeners") or []:
            print(f"audit: port {port}: {listener.get('endpoint')} pid {listener.get('pid')} "
                  f"process {listener.get('process')}")
            if listener.get("pid") != pid:
                return [f"audit: port {port} shows pid {listener.get('pid')}, expected {pid}"]
            if (listener.get("process") or "").lower() != process.lower():
                return [f"audit: port {port} shows process {listener.get('process')!r}, "
                        f"expected {process!r}"]
            return []
        return [f"audit: port {port} has no listener row"]
    return [f"audit: port {port} is not in the report "
            f"(listener_table: {report.get('listener_table')})"]


def run_json(exe, args, out_path):
    """Runs loopcheck with `args`, saves stdout to out_path, returns the parsed report."""
    proc = subprocess.run([exe] + args, capture_output=True, text=True, timeout=600,
                          encoding="utf-8")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(proc.stdout)
    if proc.stderr:
        sys.stderr.write(proc.stderr)
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        raise RuntimeError(f"{' '.join(args)}: exit {proc.returncode}, no JSON on stdout ({e})")


def hold_closed_ports():
    """A port bound (not listening) on 127.0.0.1 and the same port on ::1."""
    for _ in range(20):
        v4 = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        v4.bind(("127.0.0.1", 0))
        port = v4.getsockname()[1]
        v6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        try:
            v6.bind(("::1", port))
            return port, [v4, v6]
        except OSError:
            v4.close()
            v6.close()
    raise RuntimeError("no port free on both 127.0.0.1 and ::1")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--exe", required=True, help="loopcheck.exe to check")
    parser.add_argument("--out", required=True, help="directory for the JSON reports")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    failures = []
    try:
        port, held = hold_closed_ports()
        for label, target, name in (("127.0.0.1", f"127.0.0.1:{port}", "probe-ipv4.json"),
                                    ("::1", f"[::1]:{port}", "probe-ipv6.json")):
            report = run_json(args.exe, ["--json", target], os.path.join(args.out, name))
            failures += check_probe(report, label)
        for s in held:
            s.close()

        report = run_json(args.exe, ["staircase", "--json"],
                          os.path.join(args.out, "staircase.json"))
        failures += check_staircase(report)

        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        lport = listener.getsockname()[1]
        report = run_json(args.exe, ["audit", str(lport), "--json"],
                          os.path.join(args.out, "audit.json"))
        failures += check_audit(report, lport, os.getpid(), os.path.basename(sys.executable))
        listener.close()
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as e:
        print(f"could not run loopcheck: {e}", file=sys.stderr)
        return 2
    for f in failures:
        print(f"FAIL: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
