#!/usr/bin/env python3
"""The Python that CTest runs keeps to what Python 3.9 can run.

The Windows runner's default Python is 3.9 (windows-2022 image), and CMake
may find it rather than the one the workflow sets up. Python 3.9 evaluates
an annotation when its function or class is defined, so `str | None` there
is a TypeError at import unless the file starts with
`from __future__ import annotations`; and 3.10's grammar (match, with
parenthesised context managers) is a SyntaxError. This fails on either, in
every .py file under tests/ that CTest can run on Windows: the netns lab,
the server harness and the client harness (but its matcher) are Linux-only
(tests/CMakeLists.txt registers them for Linux alone).
Usage: python39.py SOURCE_DIR  |  python39.py --self-test
"""

import ast
import os
import sys

LINUX_ONLY = ("tests/netns/", "tests/servers/", "tests/clients/")
ALSO_ON_WINDOWS = ("tests/clients/matcher.py", "tests/clients/matcher_test.py")


def pep604_annotations(tree):
    """Line numbers of annotations holding an X | Y union."""
    out = []

    def unions(node):
        return node is not None and any(
            isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            args = a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]
            if unions(node.returns) or any(x is not None and unions(x.annotation) for x in args):
                out.append(node.lineno)
        elif isinstance(node, ast.AnnAssign) and unions(node.annotation):
            out.append(node.lineno)
    return out


def problems_in(rel, text):
    try:
        tree = ast.parse(text, filename=rel, feature_version=(3, 9))
    except SyntaxError as e:
        return [f"{rel}:{e.lineno}: not Python 3.9 syntax ({e.msg})"]
    future = any(isinstance(n, ast.ImportFrom) and n.module == "__future__" and
                 any(a.name == "annotations" for a in n.names) for n in tree.body)
    if future:
        return []
    return [f"{rel}:{line}: an X | Y annotation without `from __future__ import annotations` "
            "(a TypeError at import on Python 3.9)" for line in pep604_annotations(tree)]


def problems(root):
    out = []
    for dirpath, dirs, files in os.walk(os.path.join(root, "tests")):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root).replace("\\", "/")
            if not name.endswith(".py"):
                continue
            if rel.startswith(LINUX_ONLY) and rel not in ALSO_ON_WINDOWS:
                continue
            with open(path, encoding="utf-8") as f:
                out += problems_in(rel, f.read())
    return out


def self_test():
    cases = {  # source: problems expected
        "def f(x: str | None) -> int: ...\n": 1,
        "def f(x) -> dict | None: ...\n": 1,
        "class A:\n    y: int | None = None\n": 1,
        "from __future__ import annotations\ndef f(x: str | None): ...\n": 0,
        "from typing import Optional\ndef f(x: Optional[str]): ...\nz = 1 | 2\n": 0,
        "match x:\n    case 1:\n        pass\n": 1,
    }
    bad = [src for src, n in cases.items() if len(problems_in("t.py", src)) != n]
    for src in bad:
        print(f"self-test: wrong answer for {src!r}: {problems_in('t.py', src)}", file=sys.stderr)
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    found = problems(sys.argv[1] if len(sys.argv) > 1 else ".")
    for p in found:
        print(p, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
