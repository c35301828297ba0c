#!/usr/bin/env bash
# deploy/install.sh proved in Debian Bookworm roots of the Raspberry Pi's architectures, arm64 and
# armhf (32-bit Raspberry Pi OS), made with debootstrap and run under qemu-user (binfmt_misc): the
# installer from the source tree, then `zebra-table --version`, `config check`, `check` on the
# simulated table, `systemd-analyze verify` of the unit, the config's mode, a second run changing
# nothing, one short scripted game (a computer opponent playing; a seat's screen saved as a PNG
# drawn by Pillow), then `--uninstall --purge`. On armhf, Pillow and cbor2 are Debian's
# python3-pil (9.4) and python3-cbor2 (PyPI has no armv7l wheels of them); lgpio on both is PyPI's
# wheel (plain Debian has no python3-lgpio), and its import is checked.
# Stand-ins, as in deploy/ci/debian-roots.sh: no running systemd (a chroot), no Raspberry Pi
# archive; and qemu-user instead of an ARM processor (each instruction emulated: minutes where a
# Pi takes seconds).
# Too slow for every CI run: owners and maintainers run it (docs/performance.md has the measured
# times). As root, with the network to Debian's archive and PyPI:
#   sudo deploy/ci/debian-roots-arm.sh [--arch arm64|armhf]... [WORKDIR]
# default: both architectures, a new temp dir removed at the end. A WORKDIR given keeps the
# debootstrapped roots (WORKDIR/base-ARCH) for the next run. DEBIAN_MIRROR overrides the mirror.
# in_root is one command (chroot): its status is that command's, checked where it is called
# shellcheck disable=SC2310
set -euo pipefail
ARCHES=()
while [ $# -gt 0 ]; do
    case "$1" in
        --arch)
            case "${2:-}" in arm64 | armhf) ARCHES+=("$2") ;; *) echo "debian-roots-arm.sh: --arch arm64 or armhf" >&2; exit 2 ;; esac
            shift ;;
        -*) echo "debian-roots-arm.sh: unknown option $1 (see the head of this script)" >&2; exit 2 ;;
        *) break ;;
    esac
    shift
done
if [ ${#ARCHES[@]} -eq 0 ]; then ARCHES=(arm64 armhf); fi
readonly ROOTS_NAME=debian-roots-arm ROOTS_WORK=${1:-}
# shellcheck source=deploy/ci/roots.sh disable=SC1091  # beside this script
. "$(dirname "${BASH_SOURCE[0]}")/roots.sh"

# qemu-user registered with the kernel for ARCH's programs; with the F flag the kernel holds the
# emulator itself, else it is copied into the root where the registration names it.
QEMU=""
qemu_for() {  # ARCH
    local name reg
    case "$1" in arm64) name=qemu-aarch64 ;; *) name=qemu-arm ;; esac
    reg=/proc/sys/fs/binfmt_misc/$name
    if [ ! -e "$reg" ]; then
        if ! mountpoint -q /proc/sys/fs/binfmt_misc; then
            mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
        fi
        if command -v update-binfmts >/dev/null; then update-binfmts --enable "$name" >/dev/null 2>&1 || true; fi
    fi
    [ "$(head -n 1 "$reg" 2>/dev/null)" = enabled ] \
        || fail "$1 programs cannot run here: no $name in binfmt_misc (apt install qemu-user-static binfmt-support; a container needs binfmt_misc from its host)"
    QEMU=""
    if ! grep -q '^flags:.*F' "$reg"; then QEMU=$(sed -n 's/^interpreter //p' "$reg"); fi
}

# One short game on the simulated table: a computer opponent plays; seat 1's screen saved.
readonly GAME='{"start": {"game": "spywhere", "seats": [1], "computers": ["easy"]}}
{"advance": 2}
{"png": 1, "path": "/tmp/seat1.png"}
{"press": 1, "button": "right"}
{"press": 1, "button": "ok"}
{"advance": 1}
{"png": 1, "path": "/tmp/seat1-after.png"}'
readonly GAME_CHECK='import json, sys
from PIL import Image
lines = [json.loads(line) for line in open("/tmp/game.out")]
last = lines[-1]
assert len(lines) == 7 and last["game"] == "spywhere" and last["moves"] > 0, last
for png in ("/tmp/seat1.png", "/tmp/seat1-after.png"):
    with Image.open(png) as image:
        assert image.format == "PNG" and image.size[0] > 0, png
print(last["moves"], "moves")'

prove() {  # ARCH
    local arch=$1 root=$WORK/$1 t out libs moves
    qemu_for "$arch"
    t=$SECONDS
    new_root "$arch" "$arch"
    if [ -n "$QEMU" ]; then mkdir -p "$root$(dirname "$QEMU")" && cp "$QEMU" "$root$QEMU"; fi
    say "$arch: root ready in $((SECONDS - t)) s: $root"
    copy_source "$root"
    t=$SECONDS
    in_root "$root" bash /root/src/deploy/install.sh >"$WORK/install-$arch.log" 2>&1 \
        || { tail -n 30 "$WORK/install-$arch.log" >&2; fail "$arch: deploy/install.sh failed"; }
    passed "$arch: deploy/install.sh installed in $((SECONDS - t)) s"
    if [ "$arch" = armhf ]; then
        grep -q "Debian's packages instead" "$WORK/install-$arch.log" \
            || fail "armhf: the installer did not take Pillow and cbor2 from Debian"
    fi
    t=$SECONDS
    check_installed "$root" "$arch"
    say "$arch: checks took $((SECONDS - t)) s"
    libs=$(in_root "$root" /opt/zebra-table/venv/bin/python -c \
        'import PIL, cbor2, lgpio; print(PIL.__version__, PIL.__file__, cbor2.__file__, lgpio.__file__)') \
        || fail "$arch: Pillow, cbor2 or lgpio do not import in the venv"
    case "$arch:$libs" in
        armhf:"9.4."*" /usr/lib/python3/dist-packages/PIL/"*" /usr/lib/python3/dist-packages/cbor2/"*" /opt/zebra-table/venv/"*) ;;
        arm64:*" /opt/zebra-table/venv/"*" /opt/zebra-table/venv/"*" /opt/zebra-table/venv/"*) ;;
        *) fail "$arch: the libraries are not where they should be: $libs" ;;
    esac
    passed "$arch: Pillow, cbor2, lgpio: $libs"
    t=$SECONDS
    printf '%s\n' "$GAME" >"$root/tmp/game.jsonl"
    in_root "$root" timeout 600 zebra-table script /tmp/game.jsonl -o /tmp/game.out >"$WORK/game-$arch.log" 2>&1 \
        || { tail -n 20 "$WORK/game-$arch.log" >&2; fail "$arch: the scripted game failed"; }
    moves=$(in_root "$root" /opt/zebra-table/venv/bin/python -c "$GAME_CHECK") \
        || fail "$arch: the scripted game's transcript or screens are not right"
    passed "$arch: a scripted game played ($moves), screens drawn as PNG, in $((SECONDS - t)) s"
    t=$SECONDS
    in_root "$root" bash /root/src/deploy/install.sh >"$WORK/again-$arch.log" 2>&1 \
        || { cat "$WORK/again-$arch.log" >&2; fail "$arch: the second run failed"; }
    tail -n 1 "$WORK/again-$arch.log" | grep -qx "Nothing to change: zebra-table is installed as wanted." \
        || { cat "$WORK/again-$arch.log" >&2; fail "$arch: a second run changed something"; }
    passed "$arch: a second run changed nothing ($((SECONDS - t)) s)"
    in_root "$root" bash /root/src/deploy/install.sh --uninstall --purge >"$WORK/purge-$arch.log" 2>&1 \
        || { cat "$WORK/purge-$arch.log" >&2; fail "$arch: --uninstall --purge failed"; }
    check_removed "$root" "$arch: --uninstall --purge" 1
    out=$(in_root "$root" uname -m)
    say "$arch: done ($out under qemu-user)"
}

for arch in "${ARCHES[@]}"; do prove "$arch"; done
say "deploy/install.sh installed, checked, played, run twice and purged in Debian $SUITE ${ARCHES[*]} roots"
echo "debian-roots-arm: $PASSED passed, 0 failed"
