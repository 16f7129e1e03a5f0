#!/usr/bin/env python3
"""A file that names a standard type includes that type's header itself.

Debian 13's GCC 14 no longer reaches <cstdint> through <string>, so a
header that leaned on Debian 12's transitive include stopped compiling
there (src/cli/completion.hpp, 2026-12). The rule covers the headers whose
transitive reach differs between libstdc++ releases and MSVC's STL; the
common containers (<string>, <vector>) stay out, every library we build
with reaches them from each other and checking them would be noise.

Usage: std_includes.py PROJECT_ROOT [--fix]
Exit 0 when every file includes what it names; 1 with one line per miss.
"""
import pathlib
import re
import sys

# The name's pattern, and the header it is declared in.
RULES = [
    (re.compile(r"\bstd::u?int(8|16|32|64)_t\b"), "cstdint"),
    (re.compile(r"\bstd::array\b"), "array"),
    (re.compile(r"\bstd::(unique_ptr|shared_ptr|make_unique|make_shared)\b"), "memory"),
    (re.compile(r"\bstd::function\b"), "functional"),
    (re.compile(r"\bstd::chrono::"), "chrono"),
]
FOLDERS = ("src", "include", "tests", "bench")
SUFFIXES = (".cpp", ".hpp", ".h")


def code_of(text):
    """The text without comments and string literals, so prose naming a
    type does not count."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def misses(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    code = code_of(text)
    return [header for pattern, header in RULES
            if pattern.search(code) and f"#include <{header}>" not in text]


def add_includes(path, headers):
    """Put the headers before the file's first standard include (or after
    its last include, or after #pragma once); clang-format sorts them."""
    lines = path.read_text(encoding="utf-8").split("\n")
    new = [f"#include <{h}>" for h in headers]
    std = [i for i, l in enumerate(lines) if l.startswith("#include <")]
    anyinc = [i for i, l in enumerate(lines) if l.startswith("#include")]
    if std:
        at = std[0]
    elif anyinc:
        at = anyinc[-1] + 1
        new = [""] + new
    else:
        at = next(i for i, l in enumerate(lines) if l.startswith("#pragma once")) + 1
        new = [""] + new
    lines[at:at] = new
    path.write_text("\n".join(lines), encoding="utf-8")


def main():
    root = pathlib.Path(sys.argv[1])
    fix = "--fix" in sys.argv[2:]
    bad = 0
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in SUFFIXES or "corpus" in path.parts:
                continue
            missing = misses(path)
            if not missing:
                continue
            if fix:
                add_includes(path, missing)
                continue
            bad += 1
            print(f"{path.relative_to(root)}: names a type of "
                  f"{', '.join('<' + h + '>' for h in missing)} without including it")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
