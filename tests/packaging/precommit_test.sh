#!/usr/bin/env bash
# The pre-commit hook (.pre-commit-hooks.yaml) run by pre-commit itself:
# `pre-commit try-repo SOURCE loopcheck-scan` in a git repository made here,
# with the built loopcheck first on PATH. A staged risky line fails the
# hook; once suppressed with a `loopcheck: ignore` comment and staged, it
# passes. Exit 77 (skipped) where pre-commit is not installed, outside CI.
# Usage: precommit_test.sh LOOPCHECK SOURCE_DIR
set -euo pipefail
exe=$(realpath "$1") source=$(realpath "$2")
if ! command -v pre-commit >/dev/null; then
    echo "precommit_test.sh: skipped: pre-commit is not installed (apt-get install pre-commit)"
    [[ ${CI:-} == true ]] && exit 1
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A source tree that is not a git checkout (an unpacked tarball) cannot be a
# pre-commit repository: copy the hook file into a throwaway one.
hooks=$work/hooks
mkdir -p "$hooks"
cp "$source/.pre-commit-hooks.yaml" "$hooks/"
git -C "$hooks" init -q
git -C "$hooks" add -A
git -C "$hooks" -c user.email=t@example.invalid -c user.name=t commit -qm hooks
export PRE_COMMIT_HOME=$work/cache PATH="$(dirname "$exe"):$PATH"
repo=$work/repo
mkdir -p "$repo"
cd "$repo"
git init -q
printf 'import requests\nrequests.get("http://localhost:11434/api/tags")\n' >app.py
git add app.py
failures=0
if out=$(pre-commit try-repo "$hooks" loopcheck-scan 2>&1); then
    echo "FAIL a staged risky line: the hook passed"
    failures=$((failures + 1))
elif grep -q "RISKY    app.py:2" <<<"$out"; then
    echo "ok   a staged risky line: the hook fails and names app.py:2"
else
    echo "FAIL the hook failed without naming the line:"
    echo "$out"
    failures=$((failures + 1))
fi
printf 'import requests\nrequests.get("http://localhost:11434/api/tags")  # loopcheck: ignore\n' >app.py
git add app.py
if out=$(pre-commit try-repo "$hooks" loopcheck-scan 2>&1); then
    echo "ok   suppressed and staged: the hook passes"
else
    echo "FAIL suppressed and staged: the hook failed:"
    echo "$out"
    failures=$((failures + 1))
fi
echo "$failures failure(s)"
((failures == 0))
