#!/usr/bin/env python3
"""No call the Windows UCRT deprecates in code the MSVC job compiles.

MSVC's UCRT marks std::getenv, std::strerror, std::localtime, std::fopen,
std::sprintf and others deprecated (_CRT_INSECURE_DEPRECATE), and the POSIX
names (getpid, fileno, ::open ...) too (_CRT_NONSTDC_DEPRECATE): warning
C4996, an error under the windows-msvc preset's /WX. No MSVC runs here, so
this fails on such a call in any file of src/, include/ or tests/ that the
Windows build compiles: it skips src/platform/{posix,linux,macos}/ and the
branches of #ifndef _WIN32, #if !defined(_WIN32), #ifdef __linux__ and the
#else of #ifdef _WIN32 or _MSC_VER; comments and string literals are not code.
What to use instead: platform::environment_variable() for getenv,
std::generic_category().message(err) for strerror, snprintf for sprintf.
MinGW's headers cannot stand in for the compiler check: with
__MINGW_MSVC_COMPAT_WARNINGS they mark memcpy deprecated too, which MSVC
does not, and leave localtime, sprintf and sscanf unmarked, which it does.
Usage: check_crt_calls.py SOURCE_DIR
"""

import os
import re
import sys

# Deprecated in the UCRT whether written std::name or name.
SECURE = ("getenv", "_wgetenv", "strerror", "strncpy", "strcpy", "strcat", "strncat", "strtok",
          "sprintf", "vsprintf", "sscanf", "scanf", "fscanf", "fopen", "freopen", "_wfopen",
          "localtime", "gmtime", "ctime", "asctime", "tmpnam", "mbstowcs", "wcstombs",
          "wcscpy", "wcsncpy", "wcscat")
# POSIX names the CRT deprecates for their _-prefixed forms. Bare only where
# the name is distinctive; the common words (open, read, close) only as ::name(.
POSIX_BARE = ("getpid", "fileno", "isatty", "strdup", "putenv", "unlink")
POSIX_GLOBAL = ("open", "close", "read", "write", "lseek", "dup", "dup2", "access", "chmod",
                "umask", "getcwd", "chdir", "mkdir", "rmdir", "creat")

CALL = re.compile(
    r"(?<![\w.>])(?:(?:std)?::\s*)?(" + "|".join(SECURE + POSIX_BARE) + r")\s*\(|"
    r"(?<![\w.>])::\s*(" + "|".join(POSIX_GLOBAL) + r")\s*\(")

# Folders the Windows build never compiles.
POSIX_DIRS = ("src/platform/posix/", "src/platform/linux/", "src/platform/macos/",
              # Built on Linux only (tests/CMakeLists.txt: the tracer's tests).
              "tests/run/trace_test.cpp", "tests/support/trace_helper.cpp")

# Calls allowed in a file, by name and count, each with its reason. An
# allowance a file no longer needs fails too, so that it goes.
ALLOWED: dict = {}

NOT_WINDOWS = re.compile(
    r"^\s*#\s*(?:ifndef\s+_WIN32\b|if\s+!\s*defined\s*\(?\s*_WIN32\b|"
    r"ifdef\s+(?:__linux__|__APPLE__|__GLIBC__)\b|"
    r"if\s+defined\s*\(?\s*(?:__linux__|__APPLE__|__GLIBC__)\b(?![^\n]*\|\|))")
# _MSC_VER too: what only MSVC compiles, and its #else, which MSVC never does.
ONLY_WINDOWS = re.compile(r"^\s*#\s*(?:ifdef\s+(?:_WIN32|_MSC_VER)\b|"
                          r"if\s+defined\s*\(?\s*(?:_WIN32|_MSC_VER)\b\s*\)?\s*$)")
IF = re.compile(r"^\s*#\s*if")
ELSE = re.compile(r"^\s*#\s*else\b")
ELIF = re.compile(r"^\s*#\s*elif\b")
ENDIF = re.compile(r"^\s*#\s*endif\b")

SOURCE = re.compile(
    r'//[^\n]*|/\*.*?\*/|R"([^(\s]*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
    re.DOTALL)


def code_only(text):
    """Comments and string and character literals blanked, lines kept."""
    return SOURCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def windows_lines(text):
    """(line number, line) for each line the Windows build compiles."""
    stack = []  # per open #if: "posix" (branch not compiled on Windows), "win" or "any"
    for number, line in enumerate(text.split("\n"), 1):
        if IF.match(line):
            stack.append("posix" if NOT_WINDOWS.match(line) else
                         "win" if ONLY_WINDOWS.match(line) else "any")
            continue
        if ELSE.match(line) and stack:
            stack[-1] = {"posix": "win", "win": "posix"}.get(stack[-1], "any")
            continue
        if ELIF.match(line) and stack:
            stack[-1] = "any" if stack[-1] == "posix" else "posix" if stack[-1] == "win" else "any"
            continue
        if ENDIF.match(line) and stack:
            stack.pop()
            continue
        if "posix" not in stack:
            yield number, line


def rel_posix(path, start):
    return os.path.relpath(path, start).replace("\\", "/")


def problems(root, allowed=None):
    allowed = ALLOWED if allowed is None else allowed
    out = []
    seen_allowed = {}
    for top in ("src", "include", "tests"):
        for dirpath, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith((".cpp", ".hpp", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                rel = rel_posix(path, root)
                if rel.startswith(POSIX_DIRS):
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = code_only(f.read())
                counts = {}
                for number, line in windows_lines(text):
                    for m in CALL.finditer(line):
                        fn = m.group(1) or m.group(2)
                        counts[fn] = counts.get(fn, 0) + 1
                        if counts[fn] > allowed.get(rel, {}).get(fn, 0):
                            out.append(f"{rel}:{number}: {fn}() is deprecated in the Windows "
                                       "UCRT (C4996, an error under /WX)")
                if rel in allowed:
                    seen_allowed[rel] = counts
    for rel, names in allowed.items():
        for fn, n in names.items():
            if seen_allowed.get(rel, {}).get(fn, 0) < n:
                out.append(f"{rel}: allowed {n} {fn}() but found "
                           f"{seen_allowed.get(rel, {}).get(fn, 0)}: lower the allowance in "
                           "tests/windows/check_crt_calls.py")
    return out


def main():
    found = problems(sys.argv[1] if len(sys.argv) > 1 else ".")
    for p in found:
        print(p, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
