#!/usr/bin/env python3
"""check_crt_calls.py on the real tree (nothing to find) and on a small tree
where each kind of call it must find, and each it must leave, appears once.
Usage: check_crt_calls_test.py SOURCE_DIR
"""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_crt_calls  # noqa: E402

SOURCE_DIR = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")


def write(root, rel, text):
    path = os.path.join(root, *rel.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


class CrtCalls(unittest.TestCase):
    def test_the_tree_has_none(self):
        self.assertEqual(check_crt_calls.problems(SOURCE_DIR), [])

    def test_each_deprecated_call_is_found_and_nothing_else(self):
        with tempfile.TemporaryDirectory() as root:
            write(root, "src/cli/a.cpp",
                  '#include <cstdlib>\n'
                  'const char* e = std::getenv("X");\n'                 # 2: found
                  'auto m = std::strerror(errno);\n'                    # 3: found
                  '// std::getenv("in a comment") is not code\n'
                  'auto s = "std::strerror( in a string";\n'
                  'auto g = ::gai_strerror(rc);\n'                      # another function
                  'int n = std::snprintf(buf, 4, "%d", 1);\n'           # the safe one
                  'auto t = std::localtime(&now);\n'                    # 8: found
                  'int p = ::getpid();\n'                               # 9: found
                  'file.open("x");\n')                                  # a member: fine
            write(root, "src/platform/posix/b.cpp", 'auto e = std::getenv("X");\n')
            write(root, "tests/c.cpp",
                  '#ifndef _WIN32\nauto e = std::getenv("X");\n#endif\n'
                  '#ifdef _WIN32\nauto w = sprintf(b, "x");\n'          # 5: found
                  '#else\nauto f = std::fopen("x", "r");\n#endif\n'
                  '#if defined(__linux__)\nint fd = ::open("x", 0);\n#endif\n'
                  '#ifdef _MSC_VER\nauto d = _dupenv_s(&v, &n, "X");\n#else\n'
                  'auto g = std::getenv("X");\n#endif\n')
            write(root, "include/d.hpp", "inline int f() { return ::open(\"x\", 0); }\n")
            write(root, "src/cli/allowed.cpp",
                  'auto a = std::getenv("A");\nauto b = std::getenv("B");\n')
            write(root, "src/cli/stale.cpp", "int x;\n")
            found = check_crt_calls.problems(root, allowed={
                "src/cli/allowed.cpp": {"getenv": 1},
                "src/cli/stale.cpp": {"strerror": 1}})
            where = sorted(p.split(" ")[0] for p in found)
            self.assertEqual(where, [
                "include/d.hpp:1:", "src/cli/a.cpp:2:", "src/cli/a.cpp:3:", "src/cli/a.cpp:8:",
                "src/cli/a.cpp:9:", "src/cli/allowed.cpp:2:", "src/cli/stale.cpp:",
                "tests/c.cpp:5:"], found)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]])
