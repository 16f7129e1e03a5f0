#!/usr/bin/env python3
"""The Markdown goldens (tests/golden/*.md) as a ticket shows them: each is
rendered with cmark-gfm and every table must keep its column count in every
row (a stray pipe or a line break in a cell would add or drop one), have at
most 5 columns, and no table line may be over 100 characters (issue 24: a
7-column table sat behind a GitHub comment's scrollbar). The client table
and the raw samples are inside <details>; the self-check's report is at most
40 lines. Exit 77 (skipped) where cmark-gfm is not installed."""
import html.parser
import pathlib
import shutil
import subprocess
import sys

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


class Tables(html.parser.HTMLParser):
    """Cells per row of every <table> in cmark-gfm's HTML."""

    def __init__(self):
        super().__init__()
        self.tables = []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append(0)
        elif tag in ("td", "th") and self.tables and self.tables[-1]:
            self.tables[-1][-1] += 1


def source_tables(md):
    """The header cell count of each table in the Markdown source."""
    lines = md.splitlines()
    counts = []
    for i in range(1, len(lines)):
        if lines[i].startswith("|---") and lines[i - 1].startswith("|"):
            counts.append(lines[i].count("|---"))
    return counts


def main():
    golden = pathlib.Path(sys.argv[1])
    if shutil.which("cmark-gfm") is None:
        print("cmark-gfm is not installed: skipped")
        return 77
    files = sorted(golden.glob("*.md"))
    check(len(files) >= 3, f"Markdown goldens in {golden}")
    for path in files:
        md = path.read_text(encoding="utf-8")
        out = subprocess.run(["cmark-gfm", "-e", "table", "--unsafe"], input=md,
                             capture_output=True, text=True, timeout=30, check=True).stdout
        parser = Tables()
        parser.feed(out)
        expected = source_tables(md)
        check(len(parser.tables) == len(expected),
              f"{path.name}: {len(expected)} tables in the source, {len(parser.tables)} rendered")
        for n, (rows, want) in enumerate(zip(parser.tables, expected)):
            check(want <= 5, f"{path.name}: table {n + 1} has {want} columns (at most 5)")
            for r, cells in enumerate(rows):
                check(cells == want,
                      f"{path.name}: table {n + 1} row {r + 1} has {cells} cells, not {want}")
        for line in md.splitlines():
            if line.startswith("|"):
                check(len(line) <= 100, f"{path.name}: a table line of {len(line)} characters: {line}")
        if "Raw samples" in md:
            check("<details>" in out and "<summary>Raw samples</summary>" in out,
                  f"{path.name}: the raw samples in <details>")
        if "| client |" in md:
            before = md[: md.index("| client |")]
            check(before.rfind("<details>") > before.rfind("</details>"),
                  f"{path.name}: the client table inside <details>")
        if "Self-check" in md:
            check(len(md.splitlines()) <= 40,
                  f"{path.name}: the self-check's Markdown is {len(md.splitlines())} lines")
        check("loopcheck " in md and " on " in md, f"{path.name}: version and OS stated")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(files)} Markdown goldens, {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
