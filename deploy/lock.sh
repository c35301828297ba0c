#!/usr/bin/env bash
# Regenerates the locks deploy/install.sh installs from: deploy/requirements.lock (the runtime
# dependencies of pyproject.toml and the table's test tools, deploy/hw-tests.in) and
# deploy/lgpio.lock. Exact versions and the hash of every file PyPI serves for them, for every
# platform (amd64, arm64, armhf): pip installs them with --require-hashes.
#   deploy/lock.sh             keep the locked versions, add what pyproject.toml now needs
#   deploy/lock.sh --upgrade   move every package to its newest allowed release
# Needs uv (pip install uv). tests/deploy/test_lock.py checks the lock against pyproject.toml.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v uv >/dev/null || { echo "lock.sh: needs uv: pip install uv" >&2; exit 1; }
common=(--universal --python-version 3.11 --generate-hashes --no-header --quiet "$@")
lock() {  # OUTPUT INPUT...
    local out=$1 tmp
    shift
    tmp=$(mktemp)
    uv pip compile "${common[@]}" "$@" -o "$tmp"
    { echo "# Written by deploy/lock.sh from $*: do not edit."; cat "$tmp"; } >"$out"
    rm -f "$tmp"
}
lock deploy/requirements.lock pyproject.toml deploy/hw-tests.in
lock deploy/lgpio.lock deploy/lgpio.in
echo "lock.sh: deploy/requirements.lock and deploy/lgpio.lock written"
