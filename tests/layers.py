#!/usr/bin/env python3
"""The layer rules of docs/hacking.md#layout, checked on the source tree:
each layer includes only the layers below it, only src/platform/ includes OS
headers, only src/run/ drives the platform's connects, a header lives in
include/loopcheck/ only when another layer (or another public header)
includes it, a public header never includes a private one, and no source
file sits directly in src/. tests/layers_test.py proves each rule fails."""
import pathlib
import re
import sys

LAYERS = ("core", "report", "platform", "run", "cli")
MAY_INCLUDE = {
    "core": {"core"},
    "report": {"core", "report"},
    "platform": {"core", "platform"},
    "run": {"core", "platform", "run"},
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
# The platform's connect API: only the run layer (its connect driver, the
# resolver and the listener attach) calls it.
CONNECT_API = re.compile(
    r"\b(ConnectSet|platform::resolve\s*\(|platform::list_listeners\s*\(|make_plan|"
    r"probe\s*\(|run_emulation\s*\(|poll_until_done\s*\()"
)


# src/core is one folder per feature, and scan/ is its own library on top
# of the rest: nothing else in core may include it.
SCAN_HEADER = re.compile(r"^(loopcheck/)?core/scan/")


def in_core_not_scan(rel):
    parts = rel.parts
    if parts[:2] == ("src", "core"):
        return parts[2] != "scan"
    if parts[:3] == ("include", "loopcheck", "core"):
        return parts[3] != "scan"
    return False


def core_files_in_folders(root):
    """No source file directly in src/core or include/loopcheck/core but the
    few cross-feature values (the report value, the tool's own errors)."""
    allowed = {"report.hpp", "result.hpp", "CMakeLists.txt"}
    out = []
    for base in ("src/core", "include/loopcheck/core"):
        d = root / base
        if not d.is_dir():
            continue
        for path in sorted(d.iterdir()):
            if path.is_file() and path.name not in allowed:
                out.append(f"{base}/{path.name} is directly in {base}/: put it in a feature folder")
    return out


def check(root):
    failures = core_files_in_folders(root)
    checked = 0
    included_from = {}  # public header -> layers of the files that include it
    for path in sorted((root / "src").iterdir()):
        if path.is_file() and path.suffix in (".cpp", ".hpp", ".h"):
            failures.append(f"src/{path.name} is directly in src/: put it in a layer folder")
    for base in ("src", "include/loopcheck"):
        for layer in LAYERS:
            for path in sorted((root / base / layer).rglob("*")):
                if path.suffix not in (".cpp", ".hpp"):
                    continue
                rel = path.relative_to(root)
                text = path.read_text(encoding="utf-8")
                for n, line in enumerate(text.splitlines(), 1):
                    code = line.split("//", 1)[0]
                    if layer != "platform" and OS_MACRO.search(line) and line.lstrip().startswith("#"):
                        failures.append(f"{rel}:{n}: OS test outside src/platform/: {line.strip()}")
                    if layer == "cli" and CONNECT_API.search(code):
                        failures.append(f"{rel}:{n}: cli calls the connect API directly "
                                        f"(only src/run/ may): {line.strip()}")
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    checked += 1
                    name = m.group(2)
                    if in_core_not_scan(rel) and SCAN_HEADER.match(name):
                        failures.append(f"{rel}:{n}: core includes scan's {name}: scan is a leaf "
                                        f"library on top of core (src/core/scan/)")
                    if name.startswith("loopcheck/"):
                        target = name.split("/")[1]
                        if target not in MAY_INCLUDE.get(layer, set()):
                            failures.append(f"{rel}:{n}: {layer} may not include {name}")
                        # A public header that another public header includes
                        # is offered with it.
                        included_from.setdefault(name, set()).add(
                            layer if base == "src" else "public")
                    elif m.group(1) == "<":
                        if layer != "platform" and OS_HEADER.match(name):
                            failures.append(f"{rel}:{n}: OS header <{name}> outside src/platform/")
                        if layer in ("core", "report") and NOT_IN_CORE_OR_REPORT.match(name):
                            failures.append(f"{rel}:{n}: {layer} may not include <{name}>")
                    elif name.split("/")[0] in LAYERS:
                        # A private header, beside its code: its own layer's
                        # sources only, never a public header (whose users
                        # would then need it too).
                        if base != "src":
                            failures.append(f"{rel}:{n}: a public header includes the private "
                                            f"{name}: make that one public too")
                        elif name.split("/")[0] != layer:
                            failures.append(f"{rel}:{n}: {name} is private to "
                                            f"src/{name.split('/')[0]}/")
                        elif not (root / "src" / name).is_file():
                            failures.append(f"{rel}:{n}: no src/{name}")
                    else:
                        failures.append(f'{rel}:{n}: write the include path in full: "{name}"')
    # include/loopcheck/ holds only what one layer offers another.
    for layer in LAYERS:
        for path in sorted((root / "include/loopcheck" / layer).rglob("*.hpp")):
            name = str(path.relative_to(root / "include"))
            others = included_from.get(name, set()) - {layer}
            if not others:
                failures.append(f"include/{name}: no other layer includes it: "
                                f"move it beside its code in src/{layer}/")
    return checked, failures


def main():
    checked, failures = check(pathlib.Path(sys.argv[1]))
    for f in failures:
        print("FAIL", f)
    print(f"{checked - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
