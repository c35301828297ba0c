#!/usr/bin/env bash
# Makes a wheelhouse for installing a table offline (deploy/install.sh --wheelhouse DIR): every wheel
# of deploy/requirements.lock (and of deploy/lgpio.lock on arm) for the table's architecture,
# each checked against the lock's hashes. Run it where the network is, copy DIR to the table.
#   deploy/wheelhouse.sh DIR [amd64|arm64|armhf]     (default: this machine's architecture)
# armhf: Pillow and cbor2 have no armv7l wheels on PyPI; the table takes Debian's python3-pil and
# python3-cbor2 (install them before going offline).
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=deploy/locks.sh disable=SC1091  # beside this script, wherever it is run from
. "$SRC/deploy/locks.sh"
die() { echo "wheelhouse.sh: $*" >&2; exit 1; }
if [ $# -lt 1 ] || [ $# -gt 2 ]; then die "usage: deploy/wheelhouse.sh DIR [amd64|arm64|armhf]"; fi
dir=$1
arch=${2:-$(dpkg --print-architecture 2>/dev/null || uname -m)}
case "$arch" in
    amd64 | x86_64) machine=x86_64 ;;
    arm64 | aarch64) machine=aarch64 ;;
    armhf | armv7l) machine=armv7l ;;
    *) die "no wheels for $arch: amd64, arm64 or armhf" ;;
esac
python=$(command -v python3) || die "needs python3 with pip"
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
skip=()
if [ "$machine" = armv7l ]; then for pair in "${ARMHF_NO_WHEEL[@]}"; do skip+=("${pair%%=*}"); done; fi
lock_without "$SRC/deploy/requirements.lock" "${skip[@]}" >"$tmp/requirements.lock"
locks=("$tmp/requirements.lock")
if [ "$machine" != x86_64 ]; then locks+=("$SRC/deploy/lgpio.lock"); fi
# Bookworm's glibc is 2.36: any manylinux wheel up to that
platforms=()
for tag in manylinux_2_36 manylinux_2_34 manylinux_2_31 manylinux_2_28 manylinux_2_27 manylinux_2_17 manylinux2014 linux; do
    platforms+=(--platform "${tag}_$machine")
done
for lock in "${locks[@]}"; do
    "$python" -m pip download --quiet --disable-pip-version-check --require-hashes --no-deps --only-binary :all: \
        --implementation cp --python-version 3.11 --abi cp311 "${platforms[@]}" -d "$dir" -r "$lock" \
        || die "pip download failed for $lock (network? every file is checked against the lock's hashes)"
done
echo "wheelhouse.sh: $(find "$dir" -name '*.whl' | wc -l) wheels for $arch in $dir: deploy/install.sh --wheelhouse $dir"
