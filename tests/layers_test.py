#!/usr/bin/env python3
"""tests/layers.py must fail on each rule it states: small trees made to
break one rule each, and a clean one that passes."""
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import layers  # noqa: E402

CLEAN = {
    "include/loopcheck/core/input/value.hpp": "#pragma once\n",
    "include/loopcheck/core/scan/hit.hpp": '#include "loopcheck/core/input/value.hpp"\n',
    "include/loopcheck/platform/platform.hpp": '#include "loopcheck/core/input/value.hpp"\n',
    "include/loopcheck/run/check.hpp": ('#include "loopcheck/core/input/value.hpp"\n'
                                        '#include "loopcheck/core/scan/hit.hpp"\n'),
    "include/loopcheck/report/render.hpp": '#include "loopcheck/core/input/value.hpp"\n',
    "src/core/input/value.cpp": '#include "loopcheck/core/input/value.hpp"\n',
    "src/core/scan/hit.cpp": '#include "loopcheck/core/scan/hit.hpp"\n',
    "src/platform/posix/connect.cpp": '#include "loopcheck/platform/platform.hpp"\n#include <unistd.h>\n',
    "src/run/driver.hpp": '#include "loopcheck/platform/platform.hpp"\n',
    "src/run/check.cpp": ('#include "loopcheck/run/check.hpp"\n#include "run/driver.hpp"\n'
                          "void f() { platform::resolve(\"x\"); }\n"),
    "src/report/text.cpp": '#include "loopcheck/report/render.hpp"\n',
    "src/cli/main.cpp": ('#include "loopcheck/run/check.hpp"\n#include "loopcheck/report/render.hpp"\n'
                         '#include "loopcheck/platform/platform.hpp"\n'
                         "// a comment may say probe( or ConnectSet\n"),
}

BROKEN = {
    "a report file includes a run header": (
        "src/report/text.cpp", '#include "loopcheck/run/check.hpp"\n', "report may not include"),
    "a report file includes a platform header": (
        "src/report/text.cpp", '#include "loopcheck/platform/platform.hpp"\n',
        "report may not include"),
    "a cli file calls a platform connect function": (
        "src/cli/main.cpp", 'void g() { auto r = platform::resolve("localhost", 0, any); }\n',
        "cli calls the connect API directly"),
    "a cli file drives a ConnectSet": (
        "src/cli/main.cpp", "platform::ConnectSet set;\n", "cli calls the connect API directly"),
    "a cli file includes run's private header": (
        "src/cli/main.cpp", '#include "run/driver.hpp"\n', "is private to src/run/"),
    "core includes a platform header": (
        "src/core/input/value.cpp", '#include "loopcheck/platform/platform.hpp"\n',
        "core may not include"),
    "core outside scan/ includes a scan header": (
        "src/core/input/value.cpp", '#include "loopcheck/core/scan/hit.hpp"\n',
        "scan is a leaf"),
    "a core source outside a feature folder": (
        "src/core/loose.cpp", '#include "loopcheck/core/input/value.hpp"\n',
        "put it in a feature folder"),
    "an OS header outside platform": (
        "src/run/check.cpp", "#include <sys/socket.h>\n", "OS header"),
    "a public header includes a private one": (
        "include/loopcheck/run/check.hpp", '#include "run/driver.hpp"\n',
        "a public header includes the private"),
    "a public header no other layer includes": (
        "include/loopcheck/run/unused.hpp", "#pragma once\n", "no other layer includes it"),
}


def make(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp, "clean")
        make(root, CLEAN)
        _, found = layers.check(root)
        if found:
            failures.append(f"the clean tree fails: {found}")
    for name, (rel, extra, expected) in BROKEN.items():
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp, "tree")
            files = dict(CLEAN)
            files[rel] = files.get(rel, "") + extra
            make(root, files)
            _, found = layers.check(root)
            if not any(expected in f for f in found):
                failures.append(f"{name}: no failure saying '{expected}' (got {found})")
    for f in failures:
        print("FAIL", f)
    print(f"{len(BROKEN) + 1 - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
