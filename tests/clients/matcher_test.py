"""The client harness's matcher on constructed reports: which row a real
client is compared with (id and version range) and what counts as a match.
No lab, no root: run anywhere with python3 >= 3.9 (the Windows runner's
default; tests/python39.py keeps it so).

    python3 tests/clients/matcher_test.py
"""

from __future__ import annotations

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from matcher import compare, find_row, in_range, version_of  # noqa: E402


def row(id_: str, lo: str | None, hi: str | None, connected: bool = True, ms: float = 1000.0,
        name: str = "") -> dict:
    return {"id": id_, "versions": {"min": lo, "below": hi}, "client": name or id_,
            "algorithm": "x", "connected": connected, "connect_ms": ms, "via": None,
            "attempts": 1, "lower_bound": False, "windows": None}


# The curl ranges issue 13 names, as the model half is to emit them.
CURL = [row("curl", None, "7.78.0", name="a"), row("curl", "7.78.0", "8.2.1", name="b"),
        row("curl", "8.2.1", "8.10.0", name="c"), row("curl", "8.10.0", "8.16.0", name="d"),
        row("curl", "8.16.0", "8.22.0", name="e"), row("curl", "8.22.0", None, name="f")]
NODE = [row("node", None, "17.0.0", name="<=16"), row("node", "17.0.0", "20.0.0", name="17-19"),
        row("node", "20.0.0", "25.2.0", name="20-25.1"), row("node", "25.2.0", None, name=">=25.2")]


class FindRow(unittest.TestCase):
    def name(self, rows: list[dict], id_: str, version: str) -> str | None:
        r, _ = find_row(rows, id_, version)
        return r["client"] if r else None

    def test_min_is_inclusive_below_is_exclusive(self) -> None:
        self.assertEqual(self.name(CURL, "curl", "7.77.0"), "a")
        self.assertEqual(self.name(CURL, "curl", "7.78.0"), "b")
        self.assertEqual(self.name(CURL, "curl", "7.88.1"), "b")
        self.assertEqual(self.name(CURL, "curl", "8.2.0"), "b")
        self.assertEqual(self.name(CURL, "curl", "8.2.1"), "c")
        self.assertEqual(self.name(CURL, "curl", "8.9.1"), "c")
        self.assertEqual(self.name(CURL, "curl", "8.14.1"), "d")
        self.assertEqual(self.name(CURL, "curl", "8.16.0"), "e")
        self.assertEqual(self.name(CURL, "curl", "8.22.0"), "f")

    def test_versions_compare_as_numbers_not_text(self) -> None:
        self.assertEqual(self.name(NODE, "node", "9.11.2"), "<=16")
        self.assertEqual(self.name(NODE, "node", "18.20.4"), "17-19")
        self.assertEqual(self.name(NODE, "node", "20.19.2"), "20-25.1")
        self.assertEqual(self.name(NODE, "node", "25.1.9"), "20-25.1")
        self.assertEqual(self.name(NODE, "node", "25.10.0"), ">=25.2")

    def test_the_id_must_match(self) -> None:
        rows = CURL + NODE + [row("java-socket", None, None, name="js")]
        self.assertEqual(self.name(rows, "java-socket", "17.0.15"), "js")
        r, why = find_row(rows, "java-httpclient", "17.0.15")
        self.assertIsNone(r)
        self.assertIn("no row for java-httpclient", why)

    def test_overlapping_ranges_are_an_error_not_a_pick(self) -> None:
        rows = [row("go", None, "1.22.0"), row("go", "1.20.0", None)]
        r, why = find_row(rows, "go", "1.21.0")
        self.assertIsNone(r)
        self.assertIn("overlap", why)

    def test_missing_versions_object_covers_every_version(self) -> None:
        r = row("wget", None, None)
        del r["versions"]
        self.assertIsNotNone(find_row([r], "wget", "1.21.3")[0])

    def test_a_row_without_an_id_matches_no_client(self) -> None:
        # Rows carry ids since the client table had them; a report without
        # one is not matched by its display name.
        nameless = [{"client": "curl < 8.22", "connected": True, "connect_ms": 200.0}]
        r, why = find_row(nameless, "curl", "7.88.1")
        self.assertIsNone(r)
        self.assertIn("no row for curl", why)


class Compare(unittest.TestCase):
    def real(self, connected: bool, ms: float) -> dict:
        return {"connected": connected, "ms": ms}

    def test_success_and_failure_must_agree(self) -> None:
        ok, why = compare(self.real(False, 1000.0), row("node", None, None, connected=True, ms=1000.0))
        self.assertFalse(ok)
        self.assertIn("real failed, model connected", why)

    def test_50_ms_floor(self) -> None:
        m = row("curl", None, None, ms=0.2)
        self.assertTrue(compare(self.real(True, 50.2), m)[0])
        self.assertFalse(compare(self.real(True, 50.3), m)[0])

    def test_20_percent_above_250_ms(self) -> None:
        m = row("python", None, None, ms=2000.0)
        self.assertTrue(compare(self.real(True, 2400.0), m)[0])
        self.assertTrue(compare(self.real(True, 1600.0), m)[0])
        self.assertFalse(compare(self.real(True, 2401.0), m)[0])
        self.assertFalse(compare(self.real(True, 1599.0), m)[0])

    def test_no_row_is_a_mismatch(self) -> None:
        self.assertEqual(compare(self.real(True, 1.0), None), (False, "no model row"))


class Versions(unittest.TestCase):
    def test_version_strings_of_the_clients(self) -> None:
        self.assertEqual(version_of("curl 7.88.1 (x86_64-pc-linux-gnu) libcurl/7.88.1"), "7.88.1")
        self.assertEqual(version_of("GNU Wget 1.21.3 built on linux-gnu."), "1.21.3")
        self.assertEqual(version_of("17.0.15+6-Debian-1deb12u1"), "17.0.15")
        self.assertEqual(version_of("21+35"), "21")  # Java's first release of a feature
        self.assertTrue(in_range("21", {"min": "17.0.0", "below": None}))

    def test_open_ranges(self) -> None:
        self.assertTrue(in_range("1.0.0", None))
        self.assertTrue(in_range("1.0.0", {"min": None, "below": None}))
        self.assertFalse(in_range("1.0.0", {"min": "1.0.1", "below": None}))


if __name__ == "__main__":
    unittest.main()
