#!/usr/bin/env python3
"""packaging/make-manifests against release files made here, for the
version the real binary prints: the Scoop, winget and Homebrew manifests
must parse (json; yaml with python3-yaml; `ruby -c` where ruby is installed,
else a structural check), carry that version and the files' SHA-256, and
point under the project's homepage. When packaging/make-packages has
written the real manifests into packaging/, they are checked too.

usage: manifests_test.py LOOPCHECK HOMEPAGE_URL SOURCE_DIR
Exit 77 (skipped) when the yaml module is missing.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

try:
    import yaml
except ImportError:
    print("skipped: the python3 yaml module is not installed (apt-get install python3-yaml)")
    sys.exit(77)

exe, homepage, source = sys.argv[1], sys.argv[2].rstrip("/"), Path(sys.argv[3])
generator = source / "packaging" / "make-manifests"
failures: list[str] = []


def check(ok: bool, what: str) -> None:
    if not ok:
        failures.append(what)
        print(f"FAIL {what}")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


printed = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30).stdout
m = re.match(r"loopcheck (\S+) ", printed)
if not m:
    print(f"FAIL `loopcheck --version` printed {printed!r}")
    sys.exit(1)
version = m.group(1)
release = f"{homepage}/releases/download/v{version}/"


def ruby_parses(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if shutil.which("ruby"):
        r = subprocess.run(["ruby", "-c", str(path)], capture_output=True, text=True, timeout=60)
        check(r.returncode == 0, f"ruby -c {path}: {r.stderr.strip()}")
    else:
        # Without ruby: every block opened is closed.
        opened = len(re.findall(r"^\s*(class|def)\b|\bdo\s*$", text, re.M))
        closed = len(re.findall(r"^\s*end\s*$", text, re.M))
        check(opened == closed, f"{path}: {opened} blocks opened, {closed} closed")


def check_manifests(out: Path, zip_hash: str | None, source_hash: str | None) -> None:
    """The three manifests under `out` carry `version`; the hashes when given."""
    scoop = json.loads((out / "scoop" / "loopcheck.json").read_text(encoding="utf-8"))
    check(scoop["version"] == version, f"scoop version {scoop['version']} is not {version}")
    arch = scoop["architecture"]["64bit"]
    check(arch["url"] == f"{release}loopcheck-{version}-windows-x86_64.zip", f"scoop url {arch['url']}")
    check(zip_hash is None or arch["hash"] == zip_hash, "scoop hash is not the zip's SHA-256")
    check(re.fullmatch(r"[0-9a-f]{64}", arch["hash"]) is not None, "scoop hash is no SHA-256")
    check(scoop["bin"] == "loopcheck.exe", "scoop bin")
    check(re.search(scoop["checkver"]["regex"], f"loopcheck-{version}-windows-x86_64.zip") is not None,
          "scoop checkver regex does not match the zip's name")
    auto = scoop["autoupdate"]["architecture"]["64bit"]["url"]
    check(auto.replace("$version", version) == arch["url"], f"scoop autoupdate url {auto}")

    wdir = out / "winget" / "manifests" / "l" / "loopcheck" / "loopcheck" / version
    docs = {}
    for kind, name in (("version", "loopcheck.loopcheck.yaml"),
                       ("installer", "loopcheck.loopcheck.installer.yaml"),
                       ("defaultLocale", "loopcheck.loopcheck.locale.en-US.yaml")):
        doc = yaml.safe_load((wdir / name).read_text(encoding="utf-8"))
        docs[kind] = doc
        check(doc["ManifestType"] == kind, f"winget {name}: ManifestType {doc['ManifestType']}")
        check(str(doc["ManifestVersion"]) == "1.6.0", f"winget {name}: ManifestVersion")
        check(doc["PackageIdentifier"] == "loopcheck.loopcheck", f"winget {name}: PackageIdentifier")
        check(doc["PackageVersion"] == version, f"winget {name}: PackageVersion {doc['PackageVersion']!r}")
    inst = docs["installer"]
    check(inst["InstallerType"] == "zip", "winget InstallerType")
    check(inst["NestedInstallerType"] == "portable", "winget NestedInstallerType")
    check(inst["NestedInstallerFiles"] == [{"RelativeFilePath": "loopcheck.exe",
                                            "PortableCommandAlias": "loopcheck"}],
          f"winget NestedInstallerFiles {inst['NestedInstallerFiles']}")
    (x64,) = inst["Installers"]
    check(x64["Architecture"] == "x64", "winget Architecture")
    check(x64["InstallerUrl"] == arch["url"], "winget InstallerUrl is not Scoop's url")
    check(zip_hash is None or x64["InstallerSha256"] == zip_hash.upper(), "winget InstallerSha256")
    for field in ("Publisher", "PackageName", "License", "ShortDescription"):
        check(bool(docs["defaultLocale"].get(field)), f"winget defaultLocale has no {field}")
    check(docs["version"]["DefaultLocale"] == docs["defaultLocale"]["PackageLocale"],
          "winget DefaultLocale is not the locale file's")

    rb_path = out / "homebrew" / "loopcheck.rb"
    ruby_parses(rb_path)
    rb = rb_path.read_text(encoding="utf-8")
    url = re.search(r'^  url "([^"]+)"$', rb, re.M)
    sha = re.search(r'^  sha256 "([0-9a-f]{64})"$', rb, re.M)
    check(url is not None and url.group(1) == f"{release}loopcheck-{version}.tar.gz",
          f"homebrew url {url and url.group(1)}")
    check(sha is not None and (source_hash is None or sha.group(1) == source_hash),
          "homebrew sha256 is not the source tarball's")
    check(re.search(r'system "cmake", "-S", "\.", "-B", "build"', rb) is not None,
          "homebrew does not build with CMake")
    test_block = rb[rb.find("test do"):]
    check("--version" in test_block and "127.0.0.1:#{port}" in test_block and ", 3)" in test_block,
          "homebrew test does not run --version and probe a closed port")


with tempfile.TemporaryDirectory() as tmp:
    work = Path(tmp)
    # Release files as make-packages names them: the zip holds loopcheck.exe
    # at its top (its content does not matter here, only its hash), the
    # source tarball loopcheck-<version>/CMakeLists.txt.
    zip_path = work / f"loopcheck-{version}-windows-x86_64.zip"
    with zipfile.ZipFile(zip_path, "w") as z:
        z.writestr("loopcheck.exe", b"MZ stand-in for the cross-built binary\n")
        z.writestr("README.md", "loopcheck\n")
    tar_path = work / f"loopcheck-{version}.tar.gz"
    with tarfile.open(tar_path, "w:gz") as t:
        t.add(source / "CMakeLists.txt", arcname=f"loopcheck-{version}/CMakeLists.txt")
    out = work / "out"
    r = subprocess.run([sys.executable, str(generator), "--zip", str(zip_path), "--source", str(tar_path),
                        "--out", str(out)], capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, f"make-manifests failed: {r.stderr.strip()}")
    if r.returncode == 0:
        check_manifests(out, sha256(zip_path), sha256(tar_path))

    # Bad input: a zip of another version, or one without loopcheck.exe, is
    # refused with one line and exit 2, and nothing is written.
    other = work / "other"
    other.mkdir()
    wrong = other / "loopcheck-0.0.0-windows-x86_64.zip"
    shutil.copy(zip_path, wrong)
    empty = other / f"loopcheck-{version}-windows-x86_64.zip"
    with zipfile.ZipFile(empty, "w") as z:
        z.writestr("README.md", "no binary\n")
    for bad, why in ((wrong, "version 0.0.0"), (empty, "no loopcheck.exe")):
        r = subprocess.run([sys.executable, str(generator), "--zip", str(bad), "--source", str(tar_path),
                            "--out", str(other / "out")], capture_output=True, text=True, timeout=60)
        check(r.returncode == 2 and r.stderr.count("\n") == 1 and why in r.stderr,
              f"make-manifests on a zip with {why}: exit {r.returncode}, {r.stderr!r}")
    check(not (other / "out").exists(), "make-manifests wrote manifests for bad input")

# The manifests packaging/make-packages wrote, if it ran: the version the
# binary prints (their hashes are the real packages', not checked here).
real = source / "packaging"
if (real / "scoop" / "loopcheck.json").exists():
    check_manifests(real, None, None)
    print(f"checked the generated manifests in {real}")

print(f"{'FAIL' if failures else 'ok'}: manifests for loopcheck {version}, {len(failures)} failures")
sys.exit(1 if failures else 0)
