#!/usr/bin/env python3
"""The layer rules of docs/hacking.md#layout, checked on the source tree:
each layer includes only the layers below it, only src/platform/ includes OS
headers, and no source file sits directly in src/."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
LAYERS = ("core", "report", "platform", "cli")
MAY_INCLUDE = {
    "core": {"core"},
    "report": {"core", "report"},
    "platform": {"core", "platform"},
    "cli": set(LAYERS),
}
# Headers that tie a file to an OS, to logging or to the command line.
OS_HEADER = re.compile(
    r"^(sys/|netinet/|arpa/|linux/|net/|mach/|libproc\.h|unistd\.h|poll\.h|netdb\.h|fcntl\.h|"
    r"ifaddrs\.h|signal\.h|termios\.h|winsock2?\.h|ws2tcpip\.h|windows\.h|mstcpip\.h|"
    r"iphlpapi\.h|wbemidl\.h|tlhelp32\.h|psapi\.h)"
)
NOT_IN_CORE_OR_REPORT = re.compile(r"^(spdlog/|CLI/)")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
OS_MACRO = re.compile(r"\b(_WIN32|__linux__|__APPLE__)\b")

failures = []
checked = 0
for path in sorted((root / "src").iterdir()):
    if path.is_file() and path.suffix in (".cpp", ".hpp", ".h"):
        failures.append(f"src/{path.name} is directly in src/: put it in a layer folder")
for base in ("src", "include/loopcheck"):
    for layer in LAYERS:
        for path in sorted((root / base / layer).rglob("*")):
            if path.suffix not in (".cpp", ".hpp"):
                continue
            rel = path.relative_to(root)
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if layer != "platform" and OS_MACRO.search(line) and line.lstrip().startswith("#"):
                    failures.append(f"{rel}:{n}: OS test outside src/platform/: {line.strip()}")
                m = INCLUDE.match(line)
                if not m:
                    continue
                checked += 1
                name = m.group(2)
                if name.startswith("loopcheck/"):
                    target = name.split("/")[1]
                    if target not in MAY_INCLUDE[layer]:
                        failures.append(f"{rel}:{n}: {layer} may not include {name}")
                elif m.group(1) == "<":
                    if layer != "platform" and OS_HEADER.match(name):
                        failures.append(f"{rel}:{n}: OS header <{name}> outside src/platform/")
                    if layer in ("core", "report") and NOT_IN_CORE_OR_REPORT.match(name):
                        failures.append(f"{rel}:{n}: {layer} may not include <{name}>")
                else:
                    failures.append(f'{rel}:{n}: write the include path in full: "{name}"')
for f in failures:
    print("FAIL", f)
print(f"{checked - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
