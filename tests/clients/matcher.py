"""The client harness's matcher: which row of loopcheck's client table
speaks for a real client (its id and installed version), and whether the
client's measured connect agrees with that row. Pure; matcher_test.py tests
it on constructed reports, harness.py uses it on real ones."""

from __future__ import annotations

import re

# A real client matches its row when both connect or both fail, and the
# times differ by at most max(50 ms, 20 % of the model's).
TOLERANCE_MS = 50.0
TOLERANCE_FRACTION = 0.20


def version_of(text: str) -> str | None:
    m = re.search(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?", text)
    return ".".join(g for g in m.groups() if g is not None) if m else None


def vtuple(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v)[:3])


def in_range(version: str, versions: dict | None) -> bool:
    versions = versions or {}
    lo, hi = versions.get("min"), versions.get("below")
    v = vtuple(version)
    return (lo is None or vtuple(lo) <= v) and (hi is None or v < vtuple(hi))


def find_row(rows: list[dict], client_id: str, version: str) -> tuple[dict | None, str]:
    """The report's row for this client: same id, min <= version < below.
    Returns (row, how it was found or why none was)."""
    hits = [r for r in rows if r.get("id") == client_id and in_range(version, r.get("versions"))]
    if len(hits) > 1:
        return None, f"{len(hits)} rows for {client_id} {version}: ranges overlap"
    if not hits:
        return None, f"no row for {client_id} {version}"
    return hits[0], "id"


def compare(real: dict, row: dict | None) -> tuple[bool, str]:
    """Same success or failure, and the time within max(50 ms, 20 %)."""
    if row is None:
        return False, "no model row"
    if bool(real["connected"]) != bool(row["connected"]):
        verb = {True: "connected", False: "failed"}
        return False, f"real {verb[bool(real['connected'])]}, model {verb[bool(row['connected'])]}"
    model_ms = float(row["connect_ms"])
    allowed = max(TOLERANCE_MS, TOLERANCE_FRACTION * model_ms)
    diff = float(real["ms"]) - model_ms
    if abs(diff) > allowed:
        return False, f"real {real['ms']:.1f} ms vs model {model_ms:.1f} ms (allowed ±{allowed:.0f})"
    return True, ""
