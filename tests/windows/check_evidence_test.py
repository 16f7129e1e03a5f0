#!/usr/bin/env python3
"""The Windows job's assertions (check_evidence.py) on recorded reports: they
pass on what real Windows should give and fail on what the bugs gave."""

import copy
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_evidence as ce  # noqa: E402


def probe_report(default_ms, fast_ms, limit="4", option="applied"):
    """`loopcheck --json 127.0.0.1:PORT` as Windows 11 should answer a closed port."""
    return {
        "schema": "loopcheck/1",
        "system": {"os": "Windows", "windows_build": 26100,
                   "tcp_settings": {"MaxSynRetransmissions": limit}},
        "targets": [{"addresses": [{
            "endpoint": "127.0.0.1:50123", "outcome": "refused",
            "latency_ms": {"count": 1, "median": default_ms},
            "without_syn_retries": {"outcome": "refused",
                                    "latency_ms": {"count": 1, "median": fast_ms}},
            "samples_without_syn_retries": [{"syn_option": option}],
        }]}],
    }


def staircase_report(medians, options=None, step=None):
    options = options or ["applied"] * len(medians)
    fit = None if step is None else {"step_ms": step, "intercept_ms": medians[0],
                                     "limits": list(range(len(medians)))}
    return {"schema": "loopcheck-staircase/1", "addresses": [{
        "endpoint": "127.0.0.1:50124", "shape": "retried" if step and step > 100 else "flat",
        "kernel_count": "missing", "conclusion": "", "fit": fit,
        "steps": [{"limit": i, "outcome": "refused", "option": o, "option_error": None,
                   "latency_ms": {"median": m}} for i, (m, o) in enumerate(zip(medians, options))],
    }]}


def audit_report(port, pid, process):
    return {"schema": "loopcheck-audit/1", "ports": [
        {"port": port, "listeners": [{"endpoint": f"127.0.0.1:{port}", "pid": pid,
                                      "process": process}]}]}


class Probe(unittest.TestCase):
    def test_windows_default_retry_cost_passes(self):
        self.assertEqual(ce.check_probe(probe_report(2004.6, 0.9), "127.0.0.1"), [])

    def test_server_template_with_two_retries_passes(self):
        self.assertEqual(ce.check_probe(probe_report(1003.2, 0.8, limit="2"), "::1"), [])

    def test_no_retry_cost_fails(self):
        # What Wine (or a stack that does not retry) gives.
        failures = ce.check_probe(probe_report(0.4, 0.3), "127.0.0.1")
        self.assertEqual(len(failures), 1)
        self.assertIn("at least 400 ms", failures[0])

    def test_limit_zero_configured_expects_no_cost(self):
        self.assertEqual(ce.check_probe(probe_report(0.5, 0.4, limit="0"), "127.0.0.1"), [])

    def test_unreadable_limit_fails(self):
        failures = ce.check_probe(probe_report(2004.6, 0.9, limit="unknown"), "127.0.0.1")
        self.assertIn("could not be read", failures[0])

    def test_refused_option_fails(self):
        failures = ce.check_probe(probe_report(2004.6, 2003.1, option="refused"), "127.0.0.1")
        self.assertTrue(any("not applied" in f for f in failures))
        self.assertTrue(any("at least 400 ms" in f for f in failures))

    def test_unpaired_fails(self):
        r = probe_report(2004.6, 0.9)
        r["targets"][0]["addresses"][0]["without_syn_retries"] = None
        self.assertIn("no no-SYN-retry twin", ce.check_probe(r, "127.0.0.1")[0])


class Staircase(unittest.TestCase):
    clean = [0.9, 501.4, 1002.2, 1503.8, 2004.1, 2505.0]

    def test_clean_500ms_staircase_passes(self):
        self.assertEqual(ce.check_staircase(staircase_report(self.clean, step=500.8)), [])

    def test_the_limit_zero_bug_fails(self):
        # Limit 0 sent as 0 (the system default): ~2 s at limit 0, and the
        # fit over 0..5 comes out near 214 ms per step.
        buggy = [2004.0] + self.clean[1:]
        failures = ce.check_staircase(staircase_report(buggy, step=214.7))
        self.assertTrue(any("limit 0 took 2004.000 ms" in f for f in failures))
        self.assertTrue(any("fitted step 214.700 ms" in f for f in failures))

    def test_step_outside_twenty_percent_fails(self):
        self.assertTrue(ce.check_staircase(staircase_report(self.clean, step=399.0)))
        self.assertTrue(ce.check_staircase(staircase_report(self.clean, step=601.0)))
        self.assertEqual(ce.check_staircase(staircase_report(self.clean, step=400.0)), [])

    def test_option_refused_fails(self):
        # Wine: no fit, every limit refused by the OS.
        failures = ce.check_staircase(
            staircase_report([0.1] * 6, options=["refused"] * 6, step=None))
        self.assertTrue(any("not applied" in f for f in failures))
        self.assertTrue(any("no fit" in f for f in failures))


class Audit(unittest.TestCase):
    def test_owner_shown_passes(self):
        self.assertEqual(ce.check_audit(audit_report(50125, 4242, "python.exe"), 50125, 4242,
                                        "Python.exe"), [])

    def test_owner_hidden_fails(self):
        failures = ce.check_audit(audit_report(50125, 4242, None), 50125, 4242, "python.exe")
        self.assertIn("expected 'python.exe'", failures[0])

    def test_no_pid_fails(self):
        failures = ce.check_audit(audit_report(50125, None, None), 50125, 4242, "python.exe")
        self.assertIn("pid None", failures[0])

    def test_port_missing_fails(self):
        r = audit_report(50125, 4242, "python.exe")
        self.assertIn("not in the report", ce.check_audit(r, 50126, 4242, "python.exe")[0])
        r2 = copy.deepcopy(r)
        r2["ports"][0]["listeners"] = []
        self.assertIn("no listener row", ce.check_audit(r2, 50125, 4242, "python.exe")[0])


if __name__ == "__main__":
    unittest.main()
