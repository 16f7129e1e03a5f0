#!/usr/bin/env python3
"""The PowerShell completion (completions/loopcheck.ps1), checked as far as
a machine without PowerShell allows: it is what `loopcheck completion
powershell` prints; its brackets balance outside strings; it registers a
native completer for loopcheck; each command's options are exactly those
its --help lists, every option that takes a value has its values' entry,
and the command list is --help's.
Usage: completion_ps1_test.py LOOPCHECK_EXE SOURCE_DIR"""
import re
import subprocess
import sys

exe, root = sys.argv[1], sys.argv[2]
failures = []
checked = 0


def check(ok, message):
    global checked
    checked += 1
    if not ok:
        failures.append(message)


def run(*words):
    return subprocess.run([exe, *words], capture_output=True, text=True, timeout=30).stdout


script = open(f"{root}/completions/loopcheck.ps1", encoding="utf-8").read()
check(run("completion", "powershell") == script,
      "completions/loopcheck.ps1 is not what loopcheck completion powershell prints")
check("Register-ArgumentCompleter -Native -CommandName loopcheck" in script,
      "no native argument completer for loopcheck")
check("param($wordToComplete, $commandAst, $cursorPosition)" in script,
      "the script block does not take a native completer's three parameters")

# Brackets outside strings ('' is a quote inside '...'; ` escapes in "...").
stack, i, line = [], 0, 1
pairs = {")": "(", "}": "{", "]": "["}
while i < len(script):
    c = script[i]
    if c == "\n":
        line += 1
    if c == "#" and (i == 0 or script[i - 1] in " \n"):
        i = script.find("\n", i)
        continue
    if c == "'":
        i += 1
        while i < len(script) and not (script[i] == "'" and script[i + 1:i + 2] != "'"):
            i += 2 if script[i] == "'" else 1
    elif c == '"':
        i += 1
        while i < len(script) and script[i] != '"':
            i += 2 if script[i] == "`" else 1
    elif c in "({[":
        stack.append((c, line))
    elif c in ")}]":
        check(bool(stack) and stack[-1][0] == pairs[c], f"line {line}: '{c}' closes nothing")
        if stack:
            stack.pop()
    i += 1
check(not stack, f"unclosed brackets: {stack[:3]}")


def block(name):
    m = re.search(r"\$" + name + r" = @[{(]\n(.*?)\n    [})]\n", script, re.S)
    check(m is not None, f"no ${name} table")
    return m.group(1) if m else ""


def help_options(*words):
    rows = [line for line in run(*words, "--help").split("\n") if line.startswith("  -")]
    names = set()
    for r in rows:
        first = r.strip().split("  ")[0].split(" ")[0]
        names.update(first.split(","))
    return names


commands_block = run("--help").split("\nCommands")[1].split("\n\n")[0]
commands = sorted(re.findall(r"^  ([a-z]+) ", commands_block, re.M))
options = block("options")
for command in ["", *[c for c in commands if c != "help"]]:
    m = re.search(r"'" + command + r"' = @\(\n(.*?)\n        \)", options, re.S)
    check(m is not None, f"$options has no entry for {command!r}")
    if not m:
        continue
    got = set(re.findall(r"@\('([^']+)', ", m.group(1)))
    wanted = help_options(*([command] if command else []))
    check(got == wanted, f"{command or 'check'}: options {sorted(got ^ wanted)} differ from --help")

values = set(re.findall(r"^        '([^']+)' = ", block("values"), re.M))
for line in run("--help").split("\n"):
    m = re.match(r"  (-\S+) ([A-Z]+|refused)  ", line)
    if m:
        for name in m.group(1).split(","):
            check(name in values, f"{name} takes a value but has no $values entry")
listed = sorted(re.findall(r"@\('([a-z]+)', ", block("commands")))
check(listed == commands, f"$commands {listed} is not --help's {commands}")

for f in failures:
    print("FAIL", f)
print(f"{checked - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
