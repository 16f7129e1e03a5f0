#!/usr/bin/env python3
"""Every long option --help lists must be documented in docs/usage.md, the
man page and the bash completion, and every exit code in README.md; so docs
cannot silently fall behind the code."""
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
for f in failures:
    print("FAIL", f)
checked = len(options) * len(docs) + 14
print(f"{checked - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
