#!/usr/bin/env python3
"""action.yml run as far as this machine allows: parsed, checked to be a
composite action that uploads SARIF with github/codeql-action/upload-sarif,
and its bash steps run in order, as GitHub's runner would (bash -eo pipefail,
`${{ inputs.* }}` and `${{ steps.*.outputs.* }}` filled in, GITHUB_OUTPUT,
GITHUB_PATH, GITHUB_ACTION_PATH, RUNNER_TEMP), with the built loopcheck on
PATH, in a git repository made here: a risky line makes the Scan step
report exit 1 with an annotation and a SARIF file and the Gate step fail;
suppressed, both pass. The `uses:` step is checked, not run (no GitHub
here). Exit 77 when python3's yaml module is missing.
Usage: action_test.py LOOPCHECK SOURCE_DIR"""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    print("skipped: python3's yaml module is not installed (apt-get install python3-yaml)")
    sys.exit(77)

exe, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


with open(os.path.join(source, "action.yml"), encoding="utf-8") as f:
    action = yaml.safe_load(f)
steps = action["runs"]["steps"]
check(action["runs"]["using"] == "composite", "a composite action")
uploads = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
check(len(uploads) == 1 and uploads[0]["with"]["sarif_file"] == "${{ inputs.sarif-file }}",
      "one upload-sarif step, uploading the sarif-file input")
check([s.get("name") for s in steps][-1] == "Gate", "the gate is the last step (after the upload)")


def expand(text, inputs, outputs):
    """The two expression forms the action uses; anything else fails."""
    def one(m):
        expr = m.group(1).strip()
        if expr.startswith("inputs."):
            return inputs[expr[len("inputs."):]]
        m2 = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
        if m2:
            return outputs.get(m2.group(1), {}).get(m2.group(2), "")
        raise ValueError(f"expression not handled here: {expr}")
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(text))


def run_action(workspace, given):
    inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    inputs.update(given)
    temp = pathlib.Path(tempfile.mkdtemp(prefix="loopcheck-action-"))
    outputs, results = {}, []
    path_dirs = [os.path.dirname(exe)]
    for step in steps:
        if "run" not in step:
            results.append((step.get("name"), None, ""))
            continue
        out_file, path_file = temp / "output", temp / "path"
        out_file.write_text("")
        path_file.write_text("")
        env = dict(os.environ, GITHUB_OUTPUT=str(out_file), GITHUB_PATH=str(path_file),
                   GITHUB_ACTION_PATH=source, GITHUB_WORKSPACE=str(workspace),
                   RUNNER_TEMP=str(temp), GITHUB_ACTIONS="true", CI="true",
                   PATH=os.pathsep.join(path_dirs + [os.environ["PATH"]]))
        for k, v in step.get("env", {}).items():
            env[k] = expand(v, inputs, outputs)
        p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                            expand(step["run"], inputs, outputs)],
                           cwd=workspace, env=env, capture_output=True, text=True, timeout=300)
        if "id" in step:
            outputs[step["id"]] = dict(line.split("=", 1) for line in
                                       out_file.read_text().splitlines() if "=" in line)
        path_dirs = [d for d in path_file.read_text().splitlines() if d] + path_dirs
        results.append((step.get("name"), p.returncode, p.stdout + p.stderr))
    return results, outputs


def git(root, *args):
    subprocess.run(["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", *args],
                   cwd=root, check=True, capture_output=True, timeout=60)


work = pathlib.Path(tempfile.mkdtemp(prefix="loopcheck-action-repo-"))
git(work, "init", "-q")
(work / "app.py").write_text("import requests\nrequests.get('http://localhost:11434/api/tags')\n")
git(work, "add", "-A")
git(work, "commit", "-qm", "init")

results, outputs = run_action(work, {})
by_name = {name: (code, text) for name, code, text in results}
check(by_name["Install loopcheck"][0] == 0, "install: loopcheck on PATH, nothing built")
code, text = by_name["Scan"]
check(code == 0 and outputs["scan"].get("exit-code") == "1",
      f"scan step: exit-code=1 in GITHUB_OUTPUT (got {outputs.get('scan')}; {text[-300:]})")
check(text.startswith("::error file=app.py,line=2,col=15,title=loopcheck py-requests"),
      f"scan step: a GitHub annotation (got {text[:80]!r})")
print("     " + text.splitlines()[0][:150])
sarif = json.loads((work / "loopcheck.sarif").read_text())
check(len(sarif["runs"][0]["results"]) == 1 and outputs["scan"].get("sarif") == "true",
      "scan step: loopcheck.sarif with the one result, sarif=true for the upload's condition")
upload = next(s for s in steps if "uses" in s)
check("steps.scan.outputs.sarif == 'true'" in upload["if"] and "inputs.upload-sarif" in upload["if"],
      "upload step: only when asked and a SARIF file was written")
check(by_name["Gate"][0] == 1, "gate step fails the job (exit 1)")
check(by_name["Upload SARIF to code scanning"][0] is None, "upload step: checked, not run here")

(work / "app.py").write_text("import requests\n"
                             "requests.get('http://localhost:11434/api/tags')  # loopcheck: ignore\n")
results, outputs = run_action(work, {"sarif-file": "out/scan.sarif", "path": "app.py"})
by_name = {name: (code, text) for name, code, text in results}
check(by_name["Gate"][0] != 0 and outputs["scan"].get("exit-code") == "5"
      and "sarif" not in outputs["scan"],
      "an output folder that does not exist: scan exit 5 (the file could not be written), "
      "nothing to upload, the gate fails")
results, outputs = run_action(work, {"since": "HEAD"})
by_name = {name: (code, text) for name, code, text in results}
check(outputs["scan"].get("exit-code") == "0" and by_name["Gate"][0] == 0,
      f"suppressed line (and --since HEAD): exit-code=0, the gate passes ({outputs.get('scan')})")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
