#!/usr/bin/env python3
"""check_headers.py gives the same answer whichever separator os.path.relpath uses.

On Windows relpath answers with backslashes; the MSVC job runs the header
rule there (windows_headers_through_one_file). This runs it on Linux with a
relpath that answers like Windows', on the real tree (no problem may appear)
and on a small tree with two known problems (both must appear, once each).
Usage: check_headers_test.py SOURCE_DIR
"""

import os
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_headers  # noqa: E402

SOURCE_DIR = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")
_real_relpath = os.path.relpath


def windows_relpath(path, start=os.curdir):
    return _real_relpath(path, start).replace("/", "\\")


def write(root, rel, text):
    path = os.path.join(root, *rel.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


class SeparatorNeutral(unittest.TestCase):
    def test_the_tree_passes_with_backslash_relpath(self):
        with mock.patch.object(check_headers.os.path, "relpath", windows_relpath):
            self.assertEqual(check_headers.problems(SOURCE_DIR), [])

    def test_problems_are_found_once_with_either_separator(self):
        with tempfile.TemporaryDirectory() as root:
            write(root, check_headers.SHARED, "#include <winsock2.h>\n")
            write(root, "src/platform/win32/socket_helpers.hpp",
                  '#include "platform/win32/winsock.hpp"\n')
            write(root, "src/platform/win32/good.cpp",
                  '#include "platform/win32/socket_helpers.hpp"\n#include <array>\n')
            write(root, "src/platform/win32/late.cpp",
                  '#include <array>\n#include "platform/win32/winsock.hpp"\n')
            write(root, "src/core/direct.cpp", "#include <windows.h>\n")
            expected = [
                "src/core/direct.cpp: includes a Winsock/Windows header itself; "
                f"include {check_headers.SHARED} instead",
                f"src/platform/win32/late.cpp: <array> comes before {check_headers.SHARED}",
            ]
            self.assertEqual(sorted(check_headers.problems(root)), expected)
            with mock.patch.object(check_headers.os.path, "relpath", windows_relpath):
                self.assertEqual(sorted(check_headers.problems(root)), expected)


if __name__ == "__main__":
    unittest.main()
