#!/usr/bin/env python3
"""`loopcheck --help` and every `loopcheck COMMAND --help` fit in 80
columns and end with the pointer to the man page; the man page
(docs/loopcheck.1) has a section per command with its synopsis, options,
exit status and examples, and names every option that command's --help
lists. The man page is read as groff renders it where groff is installed,
else from its source.
Usage: help_test.py LOOPCHECK_EXE SOURCE_DIR"""
import os
import re
import shutil
import subprocess
import sys

exe, root = sys.argv[1], sys.argv[2]
failures = []
checked = 0
commands = {"check": [], "audit": ["audit"], "staircase": ["staircase"], "wait": ["wait"],
            "listen": ["listen"], "scan": ["scan"], "completion": ["completion"]}


def check(ok, message):
    global checked
    checked += 1
    if not ok:
        failures.append(message)


helps = {}
for name, words in commands.items():
    # A wide terminal must not widen the help: 80 columns whatever COLUMNS says.
    env = dict(os.environ, COLUMNS="200")
    run = subprocess.run([exe, *words, "--help"], capture_output=True, text=True, timeout=30,
                         env=env)
    check(run.returncode == 0, f"{name} --help exits {run.returncode}")
    lines = run.stdout.rstrip("\n").split("\n")
    wide = [line for line in lines if len(line) > 80]
    check(not wide, f"{name} --help: {len(wide)} line(s) over 80 columns, first: {wide[:1]}")
    check(lines[-1].endswith("man loopcheck"),
          f"{name} --help ends with {lines[-1]!r}, not the pointer to man loopcheck")
    check("docs/usage.md" not in run.stdout, f"{name} --help names docs/usage.md")
    helps[name] = run.stdout


def man_text():
    source = open(f"{root}/docs/loopcheck.1", encoding="utf-8").read()
    if shutil.which("groff"):
        run = subprocess.run(["groff", "-man", "-Tutf8", "-P-cbou", f"{root}/docs/loopcheck.1"],
                             capture_output=True, text=True, timeout=60)
        check(run.returncode == 0, f"groff fails on docs/loopcheck.1: {run.stderr[:200]}")
        check("warning" not in run.stderr, f"groff warns: {run.stderr[:300]}")
        # Headings start in column 0 (sections) or 3 (subsections).
        text = run.stdout.replace("\u2010", "-").replace("\u2212", "-")
        sections = re.split(r"\n(?=[A-Z][A-Z ]+\n)", text)
        return {s.split("\n", 1)[0].strip(): s for s in sections}, r"^   (Synopsis|Options|Exit status|Examples)$"
    text = source.replace("\\-", "-")
    sections = re.split(r"\n(?=\.SH )", text)
    return ({s.split("\n", 1)[0][4:].strip(): s for s in sections},
            r"^\.SS (Synopsis|Options|Exit status|Examples)$")


sections, subsection = man_text()
for name in commands:
    title = name.upper()
    section = sections.get(title)
    check(section is not None, f"the man page has no {title} section")
    if section is None:
        continue
    found = re.findall(subsection, section, re.M)
    check(found == ["Synopsis", "Options", "Exit status", "Examples"],
          f"the man page's {title} has the subsections {found}")
    # Every option this command's --help lists, in its section.
    rows = [line for line in helps[name].split("\n") if line.startswith("  -")]
    options = set(re.findall(r"(--[a-z][a-z0-9-]+)", "\n".join(r.split("  ")[1] for r in rows)))
    options -= {"--help", "--version"}
    for option in sorted(options):
        check(option in section, f"{option} (in {name} --help) is not in the man page's {title}")

for f in failures:
    print("FAIL", f)
print(f"{checked - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
