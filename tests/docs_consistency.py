#!/usr/bin/env python3
"""Every long option --help lists must be documented in docs/usage.md, the
man page and the bash completion, every exit code in README.md, and every
source file (and every header without a source) in docs/hacking.md's
layout; so docs cannot silently fall behind the code."""
import pathlib
import re
import subprocess
import sys

exe, root = sys.argv[1], sys.argv[2]
help_text = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=30).stdout
options = sorted(set(re.findall(r"(--[a-z][a-z0-9-]+)", help_text)))
docs = {
    "docs/usage.md": open(f"{root}/docs/usage.md", encoding="utf-8").read(),
    "docs/loopcheck.1": open(f"{root}/docs/loopcheck.1", encoding="utf-8").read().replace("\\-", "-"),
    "completions/loopcheck.bash": open(f"{root}/completions/loopcheck.bash", encoding="utf-8").read(),
}
failures = []
for option in options:
    for name, text in docs.items():
        if option not in text:
            failures.append(f"{option} is in --help but not in {name}")
readme = open(f"{root}/README.md", encoding="utf-8").read()
for code in ["0", "1", "2", "3", "4", "5", "130"]:
    if f"| {code} |" not in readme:
        failures.append(f"exit code {code} is not in README.md's table")
    if f"  {code} " not in help_text:
        failures.append(f"exit code {code} is not in --help")
hacking = open(f"{root}/docs/hacking.md", encoding="utf-8").read()
src = pathlib.Path(root, "src")
include = pathlib.Path(root, "include", "loopcheck")
files = [p.relative_to(src).as_posix() for p in src.rglob("*.cpp")]
sources = {f[: -len(".cpp")] for f in files}
files += [
    p.relative_to(base).as_posix()
    for base in (include, src)
    for p in base.rglob("*.hpp")
    if p.relative_to(base).as_posix()[: -len(".hpp")] not in sources
]
for name in sorted(files):
    if f"`{name}`" not in hacking:
        failures.append(f"{name} is not in docs/hacking.md's layout")
# Every file opens with a one-line purpose (a comment), so a reader knows
# what it holds before reading it.
openers = [p for base in (src, include) for p in base.rglob("*") if p.suffix in (".cpp", ".hpp")]
for path in openers:
    if not path.read_text(encoding="utf-8").startswith("//"):
        failures.append(f"{path.relative_to(root).as_posix()} does not open with a comment saying "
                        "what it holds")
for f in failures:
    print("FAIL", f)
checked = len(options) * len(docs) + 14 + len(files) + len(openers)
print(f"{checked - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
