#!/usr/bin/env python3
"""No secret reaches a report by default (issue 36): every command that
echoes what it was given, in every format, fed a Jupyter-style token, an
api_key, a password in a URL, a .env file's key and a home path. Runs the
real binary against a listener and a closed port this script opens on
127.0.0.1, a git tree it writes, and (where ptrace is allowed) a traced
python3. Then --no-redact shows them, and --redact hides home paths in
JSON too.

usage: redaction_test.py LOOPCHECK"""
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile

exe = os.path.abspath(sys.argv[1])
failures = []

TOKEN = "f3a9c0ffee1234deadbeef5678"      # Jupyter's ?token=
API_KEY = "sk-proj-AbCdEf0123456789"     # an OpenAI-style key
PASSWORD = "hunter2hunter2"              # a URL's user:pass@
DOTENV_KEY = "ollama-secret-0123456789"  # a .env file's value
SECRETS = [TOKEN, API_KEY, PASSWORD, DOTENV_KEY]


def run(args, home, timeout=120):
    env = dict(os.environ, HOME=home, COLUMNS="100", NO_COLOR="1")
    r = subprocess.run([exe, *args], capture_output=True, text=True, env=env,
                       timeout=timeout, cwd=home)
    return r.returncode, r.stdout, r.stderr


def leaked(out, err, home):
    """The secrets in stdout or stderr, and the home path in the report
    (stdout; -v's debug log on stderr names the folder it lists)."""
    found = [s for s in SECRETS if s in out + err]
    if home in out:
        found.append("the home path " + home)
    return found


def expect_clean(name, args, home, check_home):
    code, out, err = run(args, home)
    if code in (2, 5) and "error" in err:
        failures.append(f"{name}: exit {code}: {err.strip()}")
        return out
    bad = [s for s in leaked(out, err, home) if check_home or not s.startswith("the home")]
    if bad:
        failures.append(f"{name}: {', '.join(bad)} reached the report")
    return out


def main():
    listener = socket.socket(socket.AF_INET)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    closed = socket.socket(socket.AF_INET)  # bound, never listening: refused
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]

    home = tempfile.mkdtemp(prefix="loopcheck_redact_home_")
    tree = pathlib.Path(home, "proj")
    tree.mkdir()
    (tree / ".env").write_text(
        f"OPENAI_API_KEY={DOTENV_KEY}\n"
        f"DATABASE_URL=postgres://app:{PASSWORD}@localhost:{closed_port}/db\n"
        f"OPENAI_BASE_URL=http://localhost:{closed_port}/v1\n")
    (tree / "app.py").write_text(
        "import requests\n"
        f"requests.get('http://localhost:{port}/lab?token={TOKEN}')\n"
        f"client = OpenAI(base_url='http://localhost:{closed_port}/v1', api_key='{API_KEY}')\n")
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    subprocess.run(["git", "-C", str(tree), "add", "-A"], check=True)

    url = f"http://user:{PASSWORD}@localhost:{port}/lab?token={TOKEN}#api_key={API_KEY}"
    closed_url = f"http://localhost:{closed_port}/tree?token={TOKEN}"
    formats = [[], ["--json"], ["--markdown"]]
    for fmt in formats:
        tag = " ".join(fmt) or "text"
        # Markdown hides home paths by default; text and JSON with --redact.
        home_too = fmt == ["--markdown"]
        expect_clean(f"check {tag}", [*fmt, url, "-v"], home, home_too)
        expect_clean(f"check {tag} (refused)", [*fmt, closed_url], home, home_too)
        expect_clean(f"check {tag} --emulate", [*fmt, url, "--emulate", "sequential"], home, home_too)
        expect_clean(f"wait {tag}", ["wait", *fmt, "--for", "300ms", closed_url], home, home_too)
        expect_clean(f"staircase {tag}", ["staircase", *fmt, "-n", "2", closed_url], home,
                     home_too)
        expect_clean(f"scan {tag}", ["scan", *fmt, "-v", str(tree)], home, home_too)
        expect_clean(f"scan {tag} --redact", ["scan", *fmt, "--redact", str(tree)], home, True)
        expect_clean(f"audit {tag}", ["audit", *fmt, "--redact"], home, True)
    for ci in ["sarif", "github", "short"]:
        expect_clean(f"scan --format {ci}", ["scan", "--format", ci, str(tree)], home, False)
        expect_clean(f"scan --format {ci} --redact",
                     ["scan", "--format", ci, "--redact", str(tree)], home, True)

    # A usage error quotes what was typed: its secrets go too.
    _, _, err = run([f"http://localhost:{port}/x?token={TOKEN}", "--count", "0"], home)
    if TOKEN in err:
        failures.append("a usage error quoted the token")

    # trace: the command's own arguments (where ptrace is allowed).
    python = shutil.which("python3")
    probe = (f"import socket,sys; s=socket.socket(); s.settimeout(1);"
             f"s.connect_ex(('127.0.0.1', {closed_port}))")
    for fmt in formats:
        tag = " ".join(fmt) or "text"
        code, out, err = run(["trace", *fmt, "--", python, "-c", probe, "--api-key", API_KEY,
                              f"TOKEN={TOKEN}", url], home)
        if code == 2 and ("not available" in err or "not permitted" in err):
            print(f"trace {tag}: skipped, the tracer is not available here: {err.strip()}")
            continue
        bad = leaked(out, err, home)
        if fmt != ["--markdown"]:
            bad = [b for b in bad if not b.startswith("the home")]
        if bad:
            failures.append(f"trace {tag}: {', '.join(bad)} reached the report")

    # --no-redact shows them (a private run), --redact hides home in JSON.
    _, out, _ = run(["--json", "--no-redact", url], home)
    if TOKEN not in out or PASSWORD not in out:
        failures.append("--no-redact still hid the token or the password")
    _, out, _ = run(["--json", url], home)
    if '"redacted": [' not in out or '"userinfo"' not in out or '"query"' not in out:
        failures.append('check --json does not say what was redacted ("redacted": [...])')
    code, _, err = run(["--redact", "--no-redact", url], home)
    if code != 2:
        failures.append(f"--redact with --no-redact: exit {code}, not 2")

    shutil.rmtree(home, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
