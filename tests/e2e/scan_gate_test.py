#!/usr/bin/env python3
"""`loopcheck scan` as a CI gate, end to end on git repositories made here:
each way a hit is held back (a suppression comment, the config's rules and
excludes, a baseline, --since) passes the gate while an unsuppressed risky
line fails it; --exit-zero; a bad config or baseline is exit 2; a tree's
core.fsmonitor hook never runs; the formats CI reads: --format github and
short, --output FILE, and SARIF validated against the official SARIF 2.1.0
schema (SARIF_SCHEMA, from tests/json/sarif_schema.sh; that part is skipped
with the reason when it is not given).
Usage: scan_gate_test.py LOOPCHECK [SARIF_SCHEMA]"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

exe = os.path.abspath(sys.argv[1])
sarif_schema = sys.argv[2] if len(sys.argv) > 2 else ""
failures = []

RISKY = "requests.get('http://localhost:11434/api/tags')\n"


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def scan(root, *args):
    p = subprocess.run([exe, "scan", "--no-probe", *args], cwd=root, capture_output=True,
                       text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def git(root, *args):
    subprocess.run(["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", *args],
                   cwd=root, check=True, capture_output=True, timeout=60)


def repo(files):
    root = pathlib.Path(tempfile.mkdtemp(prefix="loopcheck-gate-"))
    git(root, "init", "-q")
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    return root


def gates(stdout):
    return [h["gate"] for h in json.loads(stdout)["hits"] if h["risky"]]


# An unsuppressed risky line fails; each suppression comment holds it back.
root = repo({"app.py": "import requests\n" + RISKY})
code, out, err = scan(root, "--json")
check(code == 1 and gates(out) == ["open"], f"unsuppressed risky line: exit 1 (got {code} {err})")

for name, text in {
    "same line, #": "import requests\n" + RISKY.rstrip() + "  # loopcheck: ignore\n",
    "line above, with the rule": "import requests\n# loopcheck: ignore[py-requests]\n" + RISKY,
}.items():
    root = repo({"app.py": text})
    code, out, err = scan(root, "--json")
    check(code == 0 and gates(out) == ["suppressed"], f"suppressed ({name}): exit 0 (got {code})")
root = repo({"app.py": "import requests\n" + RISKY.rstrip() + "  # loopcheck: ignore[code-url]\n"})
check(scan(root)[0] == 1, "a comment for another rule suppresses nothing: exit 1")
root = repo({"web/main.ts": "const r = await fetch('http://localhost:11434/api'); "
             "// loopcheck: ignore\n"})
check(scan(root)[0] == 0, "TypeScript // comment: exit 0")

# The config file: found from a subfolder up to the repository root.
root = repo({"app.py": "import requests\n" + RISKY, "sub/x.py": "import requests\n" + RISKY})
(root / ".loopcheck.json").write_text('{"rules": {"py-requests": false}}\n')
code, out, err = scan(root / "sub", "--json", ".")
doc = json.loads(out)
check(code == 0 and gates(out) == ["rule-off"] and doc["config"] == "../.loopcheck.json",
      f"config from the folder above, rule off: exit 0 (got {code}, config {doc.get('config')})")
(root / ".loopcheck.json").write_text('{"exclude": ["sub/"]}\n')
code, out, err = scan(root, "--json")
doc = json.loads(out)
check(code == 1 and doc["files"]["excluded"] == 1 and len(doc["hits"]) == 1,
      f"exclude sub/: one file excluded, app.py still fails (got {code})")
(root / ".loopcheck.json").write_text('{"exclude": ["sub/", "app.py"]}\n')
check(scan(root)[0] == 0, "every risky file excluded: exit 0")
(root / ".loopcheck.json").write_text('{"exlude": []}\n')
code, out, err = scan(root)
check(code == 2 and "exlude" in err and err.count("\n") == 1,
      f"a config key with a typo: exit 2, one line naming it (got {code}: {err.strip()})")

# The baseline: the accepted hit moves and still passes; a new one fails.
root = repo({"app.py": "import requests\n" + RISKY})
code, out, err = scan(root, "--write-baseline", "base.json", "--exit-zero")
check(code == 0 and json.loads((root / "base.json").read_text())["fingerprints"],
      f"--write-baseline with --exit-zero: exit 0, a fingerprint written (got {code})")
(root / "app.py").write_text("import requests\n\n\n# moved down\n" + RISKY)
code, out, err = scan(root, "--json", "--baseline", "base.json")
check(code == 0 and gates(out) == ["baselined"], f"baselined line moved: exit 0 (got {code})")
(root / "app.py").write_text("import requests\n" + RISKY +
                             "requests.get('http://localhost:11434/api/ps')\n")
check(scan(root, "--baseline", "base.json")[0] == 1, "a new risky line beside it: exit 1")
(root / "bad.json").write_text("{}")
code, out, err = scan(root, "--baseline", "bad.json")
check(code == 2 and "baseline" in err, f"a file that is no baseline: exit 2 (got {code})")

# --since: the risky line committed before REF passes; one staged after fails.
root = repo({"app.py": "import requests\n" + RISKY})
(root / "README.txt").write_text("x\n")
git(root, "add", "-A")
git(root, "commit", "-qm", "docs")
code, out, err = scan(root, "--json", "--since", "HEAD~1")
check(code == 0 and gates(out) == ["outside-since"], f"risky line older than REF: exit 0 (got {code} {err})")
with open(root / "app.py", "a", encoding="utf-8") as f:
    f.write("requests.get('http://localhost:11434/api/ps')\n")
git(root, "add", "app.py")
code, out, err = scan(root, "--json", "--since", "HEAD")
check(code == 1 and sorted(gates(out)) == ["open", "outside-since"],
      f"a risky line staged after REF: exit 1, the old one outside (got {code} {gates(out) if out else err})")
(root / "new.py").write_text("import requests\n" + RISKY)
code, out, err = scan(root, "--json", "--since", "HEAD", "new.py")
check(code == 1, f"an untracked file is new: exit 1 (got {code})")
code, out, err = scan(root, "--since", "no-such-ref")
check(code == 2 and "no-such-ref" in err, f"--since with no such revision: exit 2 (got {code})")
code, out, err = scan(root, "--since", "--output=x")
check(code == 2, f"--since refuses an option as REF (got {code})")

# --exit-zero: the report as usual, exit 0.
root = repo({"app.py": "import requests\n" + RISKY})
code, out, err = scan(root, "--exit-zero")
check(code == 0 and "RISKY" in out, f"--exit-zero: exit 0, RISKY still said (got {code})")

# A tree's core.fsmonitor names a command: git must not run it (issue 40 row 1).
root = repo({"app.py": "import requests\n" + RISKY})
marker = root / "fsmonitor-ran"
hook = root / "hook.sh"
hook.write_text(f"#!/bin/sh\ntouch '{marker}'\n")
hook.chmod(0o755)
git(root, "add", "-A")
git(root, "commit", "-qm", "hook")
git(root, "config", "core.fsmonitor", str(hook))
# git itself runs it (so the check below can fail) ...
subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=root, capture_output=True)
check(marker.exists(), "plain git ls-files runs the tree's core.fsmonitor hook")
marker.unlink(missing_ok=True)
# ... loopcheck's git does not.
scan(root)
scan(root, "--since", "HEAD")
check(not marker.exists(), "the tree's core.fsmonitor hook did not run")

# Formats: github annotations (escaped), short lines, --output with text.
root = repo({"a,b:c.py": "import requests\n" + RISKY, "ok.py": "import requests\n"
             + RISKY.rstrip() + "  # loopcheck: ignore\n"})
code, out, err = scan(root, "--format", "github")
lines = out.splitlines()
check(code == 1 and len(lines) == 2 and lines[0].startswith(
      "::error file=a%2Cb%3Ac.py,line=2,col=15,title=loopcheck py-requests%3A localhost%3A11434::")
      and not lines[1].startswith("::"),
      f"--format github: one annotation, property escaped, summary last (got {lines[:1]})")
print("     " + lines[0][:160])
code, out, err = scan(root, "--format", "short")
check(code == 1 and out.startswith("a,b:c.py:2:15: py-requests ") and out.count("\n") == 1,
      f"--format short: path:line:col: RULE message (got {out[:60]!r})")
code, out, err = scan(root, "--output", "scan.sarif")
sarif = json.loads((root / "scan.sarif").read_text())
check(code == 1 and out.startswith("2 risky") and sarif["version"] == "2.1.0",
      f"--output scan.sarif: text on stdout, SARIF in the file (got {code})")
code, out, err = scan(root, "--output", "scan.xml")
check(code == 2 and "the name says the format" in err,
      f"--output with a name that names no format: exit 2 (got {code}: {err.strip()})")
results = sarif["runs"][0]["results"]
check(len(results) == 2 and {r["ruleId"] for r in results} == {"py-requests"}
      and sum("suppressions" in r for r in results) == 1
      and all(r["locations"][0]["physicalLocation"]["region"]["startLine"] == 2 for r in results),
      "SARIF: both risky hits, the suppressed one with its suppression, lines right")
driver = sarif["runs"][0]["tool"]["driver"]
check(driver["name"] == "loopcheck" and driver["rules"][0]["helpUri"].endswith(
      "docs/scan.md#the-rules"), "SARIF: driver name, rule help URI into docs/scan.md")

if sarif_schema and os.path.exists(sarif_schema):
    import jsonschema
    with open(sarif_schema, encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = [f"{e.message} at {list(e.absolute_path)}" for e in validator.iter_errors(sarif)]
    check(not errors, f"SARIF validates against {os.path.basename(sarif_schema)}: {errors[:3]}")
    broken = dict(sarif, version="2.0.0")
    check(any(True for _ in validator.iter_errors(broken)),
          "the schema check can fail: version 2.0.0 is refused")
elif os.environ.get("CI") == "true":
    check(False, f"CI: the SARIF schema {sarif_schema!r} is missing (tests/json/sarif_schema.sh)")
else:
    print("skipped: SARIF schema validation (no schema given; tests/json/sarif_schema.sh fetches it)")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
