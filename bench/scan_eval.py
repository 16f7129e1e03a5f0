#!/usr/bin/env python3
"""Precision and recall of `loopcheck scan` for "risky" on a labelled corpus.

The corpus is public repositories that no one here wrote (bench/scan-corpus/repos.tsv:
repository, commit, set, kind, paths). Their code is never committed: this script
materialises each one at its commit from a bare git mirror (the `fetch` tool puts
them in /work/.mirror/<owner>+<name>/repo) into a temporary directory, runs
`loopcheck scan --no-probe --json` there, and joins every hit with the hand labels
(bench/scan-corpus/labels.tsv: repository, path, line, label, cause). Every line
the recipe finds (`git grep` for localhost:PORT, 127.x.y.z, [::1], 0.0.0.0 and a
quoted "localhost") carries one label:

  risky             this line costs a Windows user ~2 s per new connection, or fails
  docs-risky        documentation telling the reader to make such a connection
  client-not-risky  a connect that does not pay (Happy Eyeballs, no SYN retries,
                    an address literal the server takes, a browser, Java)
  server-bind       a server's own bind
  harmless          prose, output, logs, comments, tests, CORS lists, containers

"Risky" for the measure is risky + docs-risky; scan's prediction is a hit on the
line with `"risky": true`. A line scan calls risky that is not labelled risky is a
false alarm; a line labelled risky with no risky hit is a miss. Both are listed
with the label's cause and scan's rule, so each error has a cause to fix.

  bench/scan_eval.py [--loopcheck build/ci/loopcheck] [--mirror /work/.mirror]
                     [--set tuning|held-out|all] [--repo NAME] [-q]

Exit 0, or 2 when a mirror, a commit or the binary is missing, or when a line the
recipe finds has no label (the labels and the corpus must agree).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
RECIPE = r"localhost:|127\.[0-9]+\.[0-9]+\.[0-9]+|\[::1\]|0\.0\.0\.0|[\"']localhost[\"']"
POSITIVE = {"risky", "docs-risky"}
LABELS = {"risky", "docs-risky", "client-not-risky", "server-bind", "harmless"}


def read_tsv(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            rows.append(line.split("\t"))
    return rows


def materialise(git_dir, commit, paths, dest):
    """Writes the blobs of `commit` under `paths` into dest; a blob the mirror
    lacks (the store leaves out files of 4 MiB and more) is skipped."""
    spec = [] if paths == ["."] else paths
    listing = subprocess.run(
        ["git", "-C", git_dir, "ls-tree", "-r", "-z", commit, "--"] + spec,
        check=True, capture_output=True).stdout.split(b"\0")
    blobs = []
    for entry in listing:
        if not entry:
            continue
        meta, name = entry.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob" and mode != b"120000":
            blobs.append((sha.decode(), name.decode("utf-8", "surrogateescape")))
    cat = subprocess.Popen(["git", "-C", git_dir, "cat-file", "--batch"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    cat.stdin.write("".join(sha + "\n" for sha, _ in blobs).encode())
    cat.stdin.close()
    for sha, name in blobs:
        header = cat.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            continue
        data = cat.stdout.read(int(header[2]))
        cat.stdout.read(1)
        target = os.path.join(dest, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
    cat.wait()
    # A work tree, as a user would scan it: the file list comes from git.
    subprocess.run(["git", "init", "-q", dest], check=True)
    subprocess.run(["git", "-C", dest, "add", "-A", "-f"], check=True)


def recipe_lines(tree):
    out = subprocess.run(["git", "-C", tree, "grep", "-n", "-I", "-E", RECIPE],
                         capture_output=True, text=True, errors="replace").stdout
    lines = set()
    for row in out.splitlines():
        m = re.match(r"^(.*?):(\d+):", row)
        if m:
            lines.add((m.group(1), int(m.group(2))))
    return lines


def notebook_line_map(path):
    """(cell, line in cell) -> the file's line, for a pretty-printed notebook
    (nbformat writes each source line as its own JSON string)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            raw = f.read()
        nb = json.loads(raw)
    except (OSError, ValueError):
        return {}
    lines = raw.split("\n")
    mapping, cursor = {}, 0
    for ci, cell in enumerate(nb.get("cells", [])):
        src = cell.get("source", [])
        if isinstance(src, str):
            src = src.splitlines(keepends=True)
        cell_line = 1
        for piece in src:
            needle = json.dumps(piece.rstrip("\n"), ensure_ascii=False)[1:-1]
            found = None
            for i in range(cursor, len(lines)):
                if needle in lines[i]:
                    found = i
                    break
            if found is not None:
                cursor = found
                for k in range(piece.count("\n") or 1):
                    mapping[(ci, cell_line + k)] = found + 1
            cell_line += max(1, piece.count("\n"))
    return mapping


def scan(loopcheck, tree):
    proc = subprocess.run([loopcheck, "scan", "--no-probe", "--json", "."], cwd=tree,
                          capture_output=True, text=True, errors="replace")
    if proc.returncode not in (0, 1):
        sys.exit(f"scan_eval: loopcheck scan exited {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def evaluate(args, repo, commit, paths, labels, tmp):
    name = repo.replace("/", "+")
    git_dir = os.path.join(args.mirror, name, "repo")
    if not os.path.isdir(git_dir):
        sys.exit(f"scan_eval: no mirror of {repo} at {git_dir} (fetch it first)")
    tree = os.path.join(tmp, name)
    materialise(git_dir, commit, paths, tree)
    found = recipe_lines(tree)
    report = scan(args.loopcheck, tree)
    nb_maps = {}
    predicted = {}  # (path, line) -> the risky hit
    scanned = {}
    for hit in report["hits"]:
        path, line = hit["path"], hit["line"]
        if path.startswith("./"):
            path = path[2:]
        if "cell" in hit:
            if path not in nb_maps:
                nb_maps[path] = notebook_line_map(os.path.join(tree, path))
            line = nb_maps[path].get((hit["cell"], line), -1)
        key = (path, line)
        scanned.setdefault(key, hit)
        if hit["risky"]:
            predicted.setdefault(key, hit)
    unlabelled = sorted(found - set(labels))
    stale = sorted(set(labels) - found)
    truth = {k for k, (label, _) in labels.items() if label in POSITIVE}
    tp = truth & set(predicted)
    fp = sorted(set(predicted) - truth)
    fn = sorted(truth - set(predicted))
    return {"repo": repo, "tp": len(tp), "fp": fp, "fn": fn, "truth": len(truth),
            "predicted": len(predicted), "lines": len(labels), "unlabelled": unlabelled,
            "stale": stale, "labels": labels, "hits": predicted, "scanned": scanned}


def ratio(num, den):
    """As text: "-" where nothing was said or nothing is risky."""
    return f"{num / den:.2f}" if den else "-"


def describe(hit):
    if hit is None:
        return "no hit"
    return f"{hit['kind']}/{hit['rule']}{' RISKY' if hit['risky'] else ''}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loopcheck", default=os.path.join(HERE, "..", "build", "ci", "loopcheck"))
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--corpus", default=os.path.join(HERE, "scan-corpus"))
    ap.add_argument("--set", default="all", choices=["tuning", "held-out", "all"])
    ap.add_argument("--repo", help="only this repository (owner/name)")
    ap.add_argument("-q", "--quiet", action="store_true", help="numbers only, no error list")
    args = ap.parse_args()
    if not os.access(args.loopcheck, os.X_OK):
        sys.exit(f"scan_eval: no loopcheck binary at {args.loopcheck}")
    labels = defaultdict(dict)
    for row in read_tsv(os.path.join(args.corpus, "labels.tsv")):
        repo, path, line, label, cause = row
        if label not in LABELS:
            sys.exit(f"scan_eval: unknown label {label!r} in {repo} {path}:{line}")
        labels[repo][(path, int(line))] = (label, cause)
    results = defaultdict(list)
    bad = False
    with tempfile.TemporaryDirectory(prefix="scan-eval-") as tmp:
        for repo, commit, which, kind, paths in read_tsv(os.path.join(args.corpus, "repos.tsv")):
            if args.set != "all" and which != args.set:
                continue
            if args.repo and repo != args.repo:
                continue
            r = evaluate(args, repo, commit, paths.split(","), labels[repo], tmp)
            r["kind"] = kind
            results[which].append(r)
            shutil.rmtree(os.path.join(tmp, repo.replace("/", "+")), ignore_errors=True)
            for path, line in r["unlabelled"]:
                print(f"UNLABELLED {repo} {path}:{line}")
                bad = True
            for path, line in r["stale"]:
                print(f"STALE LABEL {repo} {path}:{line} (the recipe no longer finds it)")
                bad = True
    print(f"{'repository':<36} {'set':<9} {'lines':>5} {'risky':>5} {'said':>5} "
          f"{'TP':>4} {'FP':>4} {'FN':>4} {'prec':>6} {'recall':>6}")
    totals = {}
    for which in ("tuning", "held-out"):
        t = [0, 0, 0, 0, 0]
        for r in results.get(which, []):
            fp, fn = len(r["fp"]), len(r["fn"])
            print(f"{r['repo']:<36} {which:<9} {r['lines']:>5} {r['truth']:>5} {r['predicted']:>5} "
                  f"{r['tp']:>4} {fp:>4} {fn:>4} {ratio(r['tp'], r['tp'] + fp):>6} "
                  f"{ratio(r['tp'], r['tp'] + fn):>6}")
            for i, v in enumerate((r["lines"], r["truth"], r["tp"], fp, fn)):
                t[i] += v
        if results.get(which):
            totals[which] = t
    all_t = [sum(v[i] for v in totals.values()) for i in range(5)]
    for which, t in list(totals.items()) + [("all", all_t)]:
        lines, truth, tp, fp, fn = t
        print(f"{'overall ' + which:<36} {'':<9} {lines:>5} {truth:>5} {tp + fp:>5} {tp:>4} {fp:>4} "
              f"{fn:>4} {ratio(tp, tp + fp):>6} {ratio(tp, tp + fn):>6}")
    if not args.quiet:
        for which in ("tuning", "held-out"):
            for r in results.get(which, []):
                for key in r["fp"]:
                    label, cause = r["labels"].get(key, ("unlabelled", "-"))
                    print(f"FALSE ALARM {r['repo']} {key[0]}:{key[1]} label {label} ({cause}); "
                          f"scan {describe(r['hits'][key])}: {r['hits'][key]['reason']}")
                for key in r["fn"]:
                    label, cause = r["labels"][key]
                    print(f"MISS        {r['repo']} {key[0]}:{key[1]} label {label} ({cause}); "
                          f"scan {describe(r['scanned'].get(key))}")
    return 2 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
