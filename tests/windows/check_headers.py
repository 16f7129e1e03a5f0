#!/usr/bin/env python3
"""Every source file that needs Winsock gets it through the one shared header.

src/platform/win32/winsock.hpp defines FD_SETSIZE before <winsock2.h>. A file
that includes <winsock2.h> (or <windows.h>, which may pull in winsock) itself
sees the default FD_SETSIZE of 64, and fd_set then has another size in that
file than in the others. This fails when any file under src/ or include/ other
than the shared header includes those headers, or when a file of
src/platform/win32/ includes an angle-bracket header before the shared one.
Usage: check_headers.py SOURCE_DIR
"""

import os
import re
import sys

SHARED = "src/platform/win32/winsock.hpp"
VIA = {"platform/win32/winsock.hpp", "platform/win32/socket_helpers.hpp"}
WIN32_DIRS = ("src/platform/win32/",)
OS_HEADERS = re.compile(r'#\s*include\s*<(winsock2|winsock|ws2tcpip|windows|mstcpip)\.h>',
                        re.IGNORECASE)
INCLUDE = re.compile(r'#\s*include\s*([<"])([^>"]+)[>"]')


def rel_posix(path, start):
    """os.path.relpath with forward slashes, whatever the OS's separator:
    on Windows relpath answers src\\platform\\win32\\x.cpp, and every name
    above is written with "/"."""
    return os.path.relpath(path, start).replace("\\", "/")


def problems(root):
    out = []
    for top in ("src", "include"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in files:
                if not name.endswith((".cpp", ".hpp", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                rel = rel_posix(path, root)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                if rel != SHARED and OS_HEADERS.search(text):
                    out.append(f"{rel}: includes a Winsock/Windows header itself; "
                               f"include {SHARED} instead")
                in_win32 = rel.startswith(WIN32_DIRS)
                if in_win32 and rel_posix(path, os.path.join(root, "src")) not in VIA:
                    first_angle = None
                    for m in INCLUDE.finditer(text):
                        if m.group(1) == '"' and m.group(2) in VIA:
                            break
                        if m.group(1) == "<" and first_angle is None:
                            first_angle = m.group(2)
                    else:
                        out.append(f"{rel}: does not include {SHARED} (directly or through "
                                   "platform/win32/socket_helpers.hpp)")
                        continue
                    if first_angle is not None:
                        out.append(f"{rel}: <{first_angle}> comes before {SHARED}")
    return out


def main():
    found = problems(sys.argv[1] if len(sys.argv) > 1 else ".")
    for p in found:
        print(p, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
