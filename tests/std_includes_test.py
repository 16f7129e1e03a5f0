#!/usr/bin/env python3
"""tests/std_includes.py fails on a file that names a standard type without
its header, ignores the name in a comment or string, and --fix mends it."""
import pathlib
import subprocess
import sys
import tempfile

LINT = pathlib.Path(__file__).parent / "std_includes.py"


def run(root, *extra):
    return subprocess.run([sys.executable, str(LINT), str(root), *extra],
                          capture_output=True, text=True, check=False)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "src").mkdir()
        bad = root / "src" / "shell.hpp"
        bad.write_text("#pragma once\n#include <string>\n\n"
                       "enum class Shell : std::uint8_t { bash };\n")
        prose = root / "src" / "prose.cpp"
        prose.write_text("// std::array is not named here\n"
                         'const char* s = "std::function";\n')
        r = run(root)
        if r.returncode != 1 or "src/shell.hpp" not in r.stdout or "<cstdint>" not in r.stdout:
            failures.append(f"a missing <cstdint> passed: {r.returncode} {r.stdout!r}")
        if "prose.cpp" in r.stdout:
            failures.append("a type named in a comment or string counted")
        run(root, "--fix")
        if "#include <cstdint>" not in bad.read_text():
            failures.append("--fix did not add <cstdint>")
        r = run(root)
        if r.returncode != 0:
            failures.append(f"after --fix still failing: {r.stdout!r}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
