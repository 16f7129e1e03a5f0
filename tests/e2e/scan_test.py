#!/usr/bin/env python3
"""`loopcheck scan` end to end: a fixture tree written here, a real listener
this script opens on 127.0.0.1 only (the client hits are risky, exit 1), then
on both loopback families (exit 0); then bad input (a FIFO, a symlink loop, a
1 GB sparse file, a 10 MB line, a non-UTF-8 file, a path that does not exist)
and Ctrl-C during a long scan (exit 130 with the partial result).
On Windows the parts that need POSIX are skipped, each with its reason
(a FIFO, symlinks, names Windows forbids, git's listing, SIGINT); the rest
runs there too, with paths joined by the OS's separator.
Usage: scan_test.py LOOPCHECK"""
import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import tempfile

exe = sys.argv[1]
failures = []
WINDOWS = os.name == "nt"


def skip(what, why):
    print(f"skip {what} on Windows: {why}")


def at(root, rel):
    """root/rel with the OS's separator, as loopcheck prints a walked path."""
    return os.path.join(str(root), *rel.split("/"))


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def scan(*args, timeout=120):
    # UTF-8 whatever the locale: Windows' default for pipes is the ANSI code page.
    p = subprocess.run([exe, "scan", *args], capture_output=True, encoding="utf-8",
                       errors="replace", timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def write(root, rel, text, mode="w"):
    path = pathlib.Path(root) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, mode, **({} if "b" in mode else {"encoding": "utf-8", "newline": ""})) as f:
        f.write(text)


def fixture(root, port):
    write(root, "app/client.py", "import requests\n\n"
          f"BASE = 'http://localhost:{port}'\n"
          f"r = requests.post('http://localhost:{port}/api/generate', json={{}})\n")
    write(root, "app/llm.py", "from openai import OpenAI\n"
          "client = OpenAI(\n    api_key='x',\n"
          f"    base_url='http://localhost:{port}/v1',\n)\n")
    write(root, "app/server.py", "import uvicorn\n"
          f"uvicorn.run(app, host='127.0.0.1', port={port})\n")
    write(root, "app/settings.py", f"ALLOWED_HOSTS = ['http://localhost:{port}']\n"
          "ADMIN = 'root@localhost'\n")
    write(root, "web/main.ts", f"const r = await fetch('http://localhost:{port}/api');\n")
    write(root, "README.md", f"Open http://localhost:{port} in a browser.\r\n")
    write(root, "Dockerfile", f"HEALTHCHECK CMD curl -f http://localhost:{port}/ || exit 1\n")
    write(root, "node_modules/dep/index.js", f"fetch('http://localhost:{port}')\n")
    write(root, ".env", f"OLLAMA_BASE_URL=http://localhost:{port}\n")
    write(root, "requirements.txt", "requests==2.31.0\nopenai>=1.30\n")


def hits_by_path(doc):
    out = {}
    for h in doc["hits"]:
        out.setdefault(h["path"], []).append(h)
    return out


def listener(family, host, port=0):
    s = socket.socket(family, socket.SOCK_STREAM)
    if family == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    s.bind((host, port))
    s.listen(16)
    return s


def ipv4_only_run(root):
    v4 = listener(socket.AF_INET, "127.0.0.1")
    port = v4.getsockname()[1]
    fixture(root, port)
    code, out, err = scan("--json", root)
    check(code == 1, f"127.0.0.1-only listener: exit 1 (got {code}; {err.strip()})")
    doc = json.loads(out)
    by = hits_by_path(doc)
    client = [h for h in by.get(at(root, "app/client.py"), []) if h["kind"] == "client"]
    check(len(client) == 2 and all(h["risky"] for h in client), "the requests hits are risky")
    check(all(h["client"] == "python" for h in client), "mapped to the python row")
    check(any("127.0.0.1" in h["listens"] for h in client), "who listens is named")
    check(all(h["pinned"] == "requests 2.31.0 (" + at(root, "requirements.txt") + ")" for h in client),
          "the requests pin from requirements.txt")
    llm = by.get(at(root, "app/llm.py"), [])
    check(len(llm) == 1 and llm[0]["risky"] and llm[0]["line"] == 4, "the multi-line OpenAI( call")
    srv = by.get(at(root, "app/server.py"), [])
    check(len(srv) == 1 and srv[0]["kind"] == "server" and srv[0]["server"] == "uvicorn",
          "the uvicorn bind is named")
    for rel in ("app/settings.py", "README.md", "Dockerfile"):
        hs = by.get(at(root, rel), [])
        check(hs and all(h["kind"] == "harmless" and not h["risky"] for h in hs),
              f"{rel}: harmless")
    ts = by.get(at(root, "web/main.ts"), [])
    check(len(ts) == 1 and ts[0]["client"] == "node" and ts[0]["risky"]
          and ts[0]["cost_windows"].startswith("fails on Node.js 17 to 19: it never reaches 127.0.0.1"),
          "Node fetch: risky, Node.js 17 to 19 fail (they try ::1 only)")
    check(not any("node_modules" in p for p in by), "node_modules is not walked")
    env = by.get(at(root, ".env"), [])
    check(len(env) == 1 and env[0]["kind"] == "config" and env[0]["risky"], ".env: risky config")
    code, text, _ = scan(root)
    check(code == 1 and "RISKY" in text and "127.0.0.1" in text, "text: the risky hits shown")
    check(len(text.splitlines()) < 60, "text fits one screen")
    check(os.path.join("web", "main.ts") in text and "fails on Node.js 17 to 19" in " ".join(text.split()),
          "text: the Node hit is shown by default, in plain words")
    risky = sum(h["risky"] for h in doc["hits"])
    fine_client = sum(h["kind"] == "client" and not h["risky"] for h in doc["hits"])
    fine_config = sum(h["kind"] == "config" and not h["risky"] for h in doc["hits"])
    servers = sum(h["kind"] == "server" for h in doc["hits"])
    harmless = sum(h["kind"] == "harmless" for h in doc["hits"])
    check(risky + fine_client + fine_config + servers + harmless == len(doc["hits"]) and
          doc["summary"].startswith(f"{risky} risky of {len(doc['hits'])} hits") and
          f"; {harmless} harmless" in doc["summary"] and
          (servers == 0 or f"{servers} server bind" in doc["summary"]),
          f"the summary counts every hit once ({doc['summary']})")
    # One fix per URL: the risky client and config hits of localhost:PORT
    # (ranked together) share one fix line, after the last of them.
    lead = f"connect to 127.0.0.1:{port} (where the server listens)"
    flat = " ".join(text.split())
    check(flat.count(lead) == 1 and f"fix for the {risky} hits above: {lead}" in flat,
          f"text: the fix once per group of hits ({flat.count(lead)} times)")
    code, md, _ = scan("--markdown", root)
    check(code == 1 and md.startswith("## loopcheck scan") and "**risky**" in md, "Markdown")
    code, text, _ = scan("--no-probe", root)
    check(code == 1, "--no-probe: Ollama-style inference from the tree's uvicorn bind")
    listens = [l for l in text.splitlines() if "listens:" in l]
    check(listens and all(l.count("inferred") + l.count("not listening") <= 2 for l in listens),
          "--no-probe: 'inferred' said once per listens line")
    v4.close()
    return port


def dual_stack_run(root, port):
    try:
        socks = [listener(socket.AF_INET, "127.0.0.1", port), listener(socket.AF_INET6, "::1", port)]
    except OSError as e:
        print(f"skip dual-stack run: {e}")
        return
    code, out, err = scan("--json", root)
    doc = json.loads(out)
    check(code == 0, f"both families: exit 0 (got {code}; {err.strip()})")
    check(not any(h["risky"] and h["kind"] == "client" for h in doc["hits"]), "no risky client")
    code, _, _ = scan("--strict", root)
    check(code == 0, "--strict: the .env value is fine too")
    for s in socks:
        s.close()


def bad_input(root):
    bad = pathlib.Path(root) / "bad"
    bad.mkdir()
    if WINDOWS:
        skip("the FIFO, the symlink loop and the 1 GB file",
             "no os.mkfifo, symlinks need a privilege, and NTFS does not make a "
             "truncated file sparse")
    else:
        os.mkfifo(bad / "pipe.py")
        os.symlink("loop_b.py", bad / "loop_a.py")
        os.symlink("loop_a.py", bad / "loop_b.py")
        with open(bad / "huge.py", "wb") as f:
            f.truncate(1 << 30)
    write(bad, "long.js", "x" * (10 << 20) + " fetch('http://localhost:3000/') \n")
    write(bad, "latin1.py", b"# caf\xe9\nimport requests\nrequests.get('http://localhost:1/')\n", "wb")
    code, out, err = scan("--json", "--no-probe", str(bad), timeout=60)
    check(code in (0, 1), f"bad input: no crash, no hang (exit {code}; {err.strip()[:200]})")
    doc = json.loads(out)
    f = doc["files"]
    if not WINDOWS:
        check(f["not_regular"] == 1, "the FIFO is counted, not opened")
        check(f["symlink_loop"] == 2, "the symlink loop is counted")
        check(f["too_large"] == 1, "the 1 GB sparse file is skipped")
    check(f["long_lines"] == 1 and any(h["path"].endswith("long.js") for h in doc["hits"]),
          "the 10 MB line is read around its hit")
    check(f["invalid_utf8"] == 1 and any(h["path"].endswith("latin1.py") for h in doc["hits"]),
          "the non-UTF-8 file is counted and read")
    if not WINDOWS:
        code, out, _ = scan("-v", "--no-probe", str(bad))
        check("loop_a.py (symlink loop)" in out and "pipe.py (not a regular file)" in out,
              "-v names the skipped files")
    code, out, err = scan(str(bad / "does-not-exist"))
    check(code == 2 and out == "" and len(err.strip().splitlines()) == 1 and
          err.startswith("loopcheck: error: cannot scan"), f"nonexistent path: exit 2, one line ({err.strip()})")


def git_listing(tmp):
    """Inside a git work tree: tracked and untracked files are read, ignored
    ones are not, and a tracked file deleted from the work tree is no error."""
    if WINDOWS:
        skip("git's listing", "loopcheck walks the tree there (no git process yet, "
             "src/platform/win32/scan_files.cpp)")
        return
    repo = pathlib.Path(tmp) / "repo"
    repo.mkdir()
    code = "import requests\nrequests.get('http://localhost:11434/')\n"
    for rel in ("tracked.py", "gone.py", "untracked.py", "ignored.py", "build/out.py"):
        write(repo, rel, code)
    write(repo, ".gitignore", "ignored.py\n")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    try:
        subprocess.run(git + ["init", "-q"], check=True, timeout=30)
        subprocess.run(git + ["add", "tracked.py", "gone.py", "build/out.py", ".gitignore"],
                       check=True, timeout=30)
        subprocess.run(git + ["commit", "-qm", "t"], check=True, timeout=30)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"skip git listing: {e}")
        return
    (repo / "gone.py").unlink()
    code, out, err = scan("--json", "--no-probe", str(repo))
    paths = sorted({h["path"][len(str(repo)) + 1:] for h in json.loads(out)["hits"]})
    check(code == 1 and paths == ["build/out.py", "tracked.py", "untracked.py"],
          f"git work tree: tracked (even under build/) and untracked read, ignored not ({paths})")


def untrusted_text(tmp):
    """File names and lines are anyone's text: no control byte reaches the
    terminal or the Markdown, and JSON keeps the exact bytes."""
    root = pathlib.Path(tmp) / "evil"
    # Windows forbids control characters in names: there the escape is in
    # the line alone, and the name keeps its right-to-left override.
    name = "x\u202ered.py" if WINDOWS else "x\x1b[31mred\u202e.py"
    write(root, name, "import requests\nrequests.get('http://localhost:1/\x1b]0;owned\x07')\n")
    code, text, _ = scan("--no-probe", "-v", str(root))
    check("\x1b" not in text and "\u202e" not in text and "\\x1b" in text,
          "text: controls in file names and lines are escaped")
    code, md, _ = scan("--no-probe", "--markdown", str(root))
    check("\x1b" not in md and "\u202e" not in md, "Markdown: controls escaped")
    code, js, _ = scan("--no-probe", "--json", str(root))
    check(json.loads(js)["hits"][0]["path"].endswith(name), "JSON: the exact name")


def hostile_markdown(tmp):
    """A file named like Markdown syntax, holding a risky client hit: scan's
    Markdown, rendered by cmark-gfm (when installed), shows it as text, never
    as an image, a link or raw HTML."""
    root = pathlib.Path(tmp) / "hostile"
    names = ["![](__e.vil_x).py", "[login](__e.vl).py"]
    if WINDOWS:
        skip("the name <img src=x>.py", "Windows forbids < and > in file names")
    else:
        names.append("<img src=x>.py")
    for name in names:
        write(root, name, "import requests\nrequests.get('http://localhost:11434/api')\n")
    code, md, _ = scan("--no-probe", "--markdown", str(root))
    check(code == 1 and md.count("| **risky** |") == len(names),
          "Markdown: each hostile name is a risky hit")
    try:
        html = subprocess.run(["cmark-gfm", "-e", "table"], input=md, capture_output=True,
                              encoding="utf-8", timeout=30).stdout
    except FileNotFoundError:
        print("scan_test.py: cmark-gfm is not installed: the rendering check did not run")
        return
    check("<img" not in html and "<a " not in html and "<img src=x>" not in html,
          "cmark-gfm renders no image, link or raw HTML from a file name")


def usual_server_text(tmp):
    """Nothing probed, the port's usual server (Ollama on 11434) inferred:
    the text says "inferred" once, and Ollama's fix (which already says to
    point the client at 127.0.0.1:11434) names the address once, once for
    the three hits of that URL; the axios and ollama-js hits are risky."""
    root = pathlib.Path(tmp) / "usual"
    write(root, "a.py", "import requests\nrequests.post('http://localhost:11434/api/chat')\n")
    write(root, "c.js", "const axios = require('axios');\n"
          "axios.post('http://localhost:11434/api/chat', {});\n")
    write(root, "d.ts", "import { Ollama } from 'ollama';\n"
          "const o = new Ollama({ host: 'http://localhost:11434' });\n")
    p = subprocess.run([exe, "scan", "--no-probe", str(root)], capture_output=True,
                       encoding="utf-8", errors="replace", timeout=60,
                       env={**os.environ, "COLUMNS": "80"})
    flat = " ".join(p.stdout.split())
    check(p.returncode == 1 and flat.startswith("3 risky of 3 hits in 3 files; 0 harmless"),
          f"usual server: the Node hits are risky too ({flat[:60]})")
    check(flat.count("[inferred]") == 3 and "(inferred:" not in flat,
          "usual server: 'inferred' once per hit")
    check(flat.count("fix") == 1 and
          "fix for the 3 hits above: Point the client at 127.0.0.1:11434 (ollama" in flat and
          flat.count("127.0.0.1:11434") == 2,
          "usual server: one fix, the address said once in it (and in OLLAMA_HOST)")


def client_rows_run(tmp):
    """Each library on its own client-table row (issues 25, 23), against a
    real listener on 127.0.0.1 only: the cost on Windows is that row's, and
    the server bind's fix is the server table's own sentence (check's)."""
    root = os.path.join(tmp, "rows")
    v4 = listener(socket.AF_INET, "127.0.0.1")
    port = v4.getsockname()[1]
    url = f"http://localhost:{port}"
    write(root, "a.py", f"from openai import AsyncOpenAI\nc = AsyncOpenAI(base_url='{url}/v1')\n")
    write(root, "b.py", f"import aiohttp\nawait aiohttp.ClientSession().get('{url}/x')\n")
    write(root, "requirements.txt", "aiohttp==3.8.4\n")
    write(root, "c.py", f"r, w = await asyncio.open_connection(*split('{url}'))\n")
    write(root, "d.js", f"net.connect({{ ...parse('{url}'), autoSelectFamily: false }});\n")
    write(root, "e.rb", f"require 'net/http'\nNet::HTTP.get(URI('{url}/'))\n")
    write(root, "f.php", f"<?php $b = file_get_contents('{url}/');\n")
    write(root, "g.php", f"<?php $c = curl_init('{url}/');\n")
    write(root, "server.py", f"uvicorn.run(app, host='127.0.0.1', port={port})\n")
    code, out, err = scan("--json", root)
    v4.close()
    doc = json.loads(out)
    by = {os.path.basename(h["path"]): h for h in doc["hits"]}
    expect = {  # file: (client row id, risky, a part of cost_windows)
        "a.py": ("python-httpx-async", False, "~250 ms per new connection (Python httpx.AsyncClient"),
        "b.py": ("python-aiohttp", True, "~2.00 s per new connection (Python aiohttp < 3.10"),
        "c.py": ("python-asyncio-default", True, "~2.00 s"),
        "d.js": ("node-no-autoselect", True, "fails: it never reaches 127.0.0.1"),
        "e.rb": ("ruby", True, "Ruby Net::HTTP >= 3.4"),
        "f.php": ("php", True, "~2.00 s"),
        "g.php": ("curl", False, "curl >= 8.22"),
    }
    for name, (row, risky, cost) in expect.items():
        h = by.get(name)
        check(h is not None and h["client"] == row and h["risky"] == risky
              and cost in h["cost_windows"],
              f"{name}: row {row}, risky {risky}, '{cost}' ({h and (h['client'], h['risky'], h['cost_windows'])})")
    srv = by.get("server.py")
    check(srv is not None and srv["kind"] == "server" and srv["fix"].startswith(
        "Start uvicorn with --host localhost: in one process it binds every address of localhost"),
        "the uvicorn bind's fix is the server table's sentence")
    check(by["b.py"]["fix"].startswith(f"connect to 127.0.0.1:{port} (where the server listens). "
                                       "Or start uvicorn with --host localhost"),
          "a client of that port gets the same sentence after the address to connect to")
    check(code == 1, "risky clients: exit 1")


def own_docs():
    """loopcheck's own README and docs: their usage examples and sample
    output are documentation, not connections (issue 34: 20 RISKY before)."""
    repo = pathlib.Path(__file__).resolve().parents[2]
    code, out, err = scan("--no-probe", "--json", str(repo / "README.md"), str(repo / "docs"))
    doc = json.loads(out)
    # The suppression example in docs/scan.md is risky code, suppressed on
    # purpose: it shows the gate working, so only open hits count here.
    risky = [f"{h['path']}:{h['line']}" for h in doc["hits"]
             if h["risky"] and h.get("gate", "open") == "open"]
    check(code == 0 and not risky, f"loopcheck's own README and docs: no RISKY hit ({risky[:5]})")
    docs = [h for h in doc["hits"] if h["rule"] in ("docs-output", "markdown-prose")]
    check(len(docs) > 50, f"... their examples are read as docs ({len(docs)} hits)")


def non_ascii_paths(tmp):
    """A tree under José/日本, named on the command line: every file is read
    and the hit found (Windows once skipped each as "vanished", issue 37)."""
    root = pathlib.Path(tmp) / "José" / "日本"
    write(root, "café.py", "import requests\nrequests.get('http://localhost:11434/api')\n")
    code, out, err = scan("--json", "--no-probe", str(root))
    doc = json.loads(out) if out else {"hits": [], "files": {}}
    paths = [h["path"] for h in doc["hits"]]
    f = doc["files"]
    check(code == 1 and paths == [at(root, "café.py")] and f.get("listed") == f.get("read") == 1,
          f"José/日本: the file is read and its hit found ({paths}, {f}; {err.strip()})")


def interrupted():
    """Ctrl-C during a long scan: exit 130 with the result so far (a scan
    that finishes before the signal arrives proves nothing and passes)."""
    if WINDOWS:
        skip("Ctrl-C during a scan", "a child gets no SIGINT there (send_signal takes "
             "CTRL_C_EVENT, which goes to the whole console), and there is no /usr")
        return
    p = subprocess.Popen([exe, "scan", "--no-probe", "--json", "/usr"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, encoding="utf-8", errors="replace")
    try:
        p.wait(timeout=0.5)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    if p.returncode in (0, 1):
        print("skip interrupt check: the scan finished first")
        return
    doc = json.loads(out)
    check(p.returncode == 130 and doc["interrupted"] and doc["exit_code"] == 130,
          "Ctrl-C: exit 130 with the partial result")


with tempfile.TemporaryDirectory() as tmp:
    root = os.path.join(tmp, "tree")
    os.mkdir(root)
    port = ipv4_only_run(root)
    dual_stack_run(root, port)
    bad_input(tmp)
    git_listing(tmp)
    untrusted_text(tmp)
    hostile_markdown(tmp)
    usual_server_text(tmp)
    client_rows_run(tmp)
    non_ascii_paths(tmp)
own_docs()
interrupted()

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
