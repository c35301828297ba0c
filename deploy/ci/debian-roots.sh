#!/usr/bin/env bash
# The install proved in real Debian Bookworm roots (amd64, made with debootstrap from Debian's
# archive, nothing cached): the .deb installed with apt in one (its wheels bundled: the Python
# libraries install offline), deploy/install.sh run from the source tree in the other (libraries
# from PyPI, as the lock says). In each: `zebra-table --version`, `config check`, `check` on the
# simulated table, `systemd-analyze verify` of the unit, the config's mode, a second run changing
# nothing, then uninstall and purge leaving what docs/hardware.md says.
# What a root cannot have, and stands in for it:
#   - a running systemd: the roots are chroots, so the installer enables the unit and starts
#     nothing (activation, its retry and the sandboxed service: tests/deploy/);
#   - the Raspberry Pi archive: plain Debian has no python3-lgpio; on amd64 PyPI has no lgpio
#     either, so the table runs without GPIO (exit 5 from `check` on real hardware).
# As root, with the network to Debian's archive and PyPI. CI runs it after the unit suite.
#   deploy/ci/debian-roots.sh [WORKDIR]      (default: a new temp dir, removed at the end)
# DEBIAN_MIRROR overrides debootstrap's default mirror.
# in_root is one command (chroot): its status is that command's, checked where it is called
# shellcheck disable=SC2310
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly SUITE=bookworm
start=$SECONDS
PASSED=0
say() { printf '[debian-roots %4ds] %s\n' "$((SECONDS - start))" "$*"; }
passed() { PASSED=$((PASSED + 1)); say "$*"; }
fail() { say "FAILED: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap and chroot)"
if ! command -v debootstrap >/dev/null; then
    say "installing debootstrap"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap; } \
        >/dev/null || fail "could not install debootstrap with apt-get (network to Debian's archive?)"
fi
command -v dpkg-deb >/dev/null || fail "needs dpkg-deb"

WORK=${1:-}
OWN=0
if [ -z "$WORK" ]; then WORK=$(mktemp -d /var/tmp/debian-roots.XXXXXX); OWN=1; fi
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
MOUNTS=()
cleanup() {
    local m i
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        m=${MOUNTS[$i]}
        if mountpoint -q "$m"; then umount -l "$m" || say "could not unmount $m"; fi
    done
    if ((OWN)); then
        # never remove through a mount still there (the host's /dev or /proc)
        if grep -q " $WORK/" /proc/mounts; then say "mounts left under $WORK: not removed"; else rm -rf "$WORK"; fi
    fi
}
trap cleanup EXIT
trap 'fail "stopped by a signal (over the time budget?)"' TERM INT HUP  # so cleanup still unmounts

mount_root() {  # ROOT: /proc, /sys and /dev for the tools run inside
    local d
    for d in proc sys dev dev/pts; do
        mkdir -p "$1/$d"
        if ! mountpoint -q "$1/$d"; then mount --bind "/$d" "$1/$d"; MOUNTS+=("$1/$d"); fi
    done
    cp /etc/resolv.conf "$1/etc/resolv.conf"
    # the root goes out through this machine's network: it trusts the certificate authorities this
    # machine added (a proxy's, a company's), as a table on that network would be set up to
    if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
        cp /usr/local/share/ca-certificates/*.crt "$1/usr/local/share/ca-certificates/"
        in_root "$1" update-ca-certificates >/dev/null 2>&1 || fail "update-ca-certificates in $1 failed"
    fi
    # packages installed in a chroot start no service
    printf '#!/bin/sh\nexit 101\n' >"$1/usr/sbin/policy-rc.d"
    chmod 0755 "$1/usr/sbin/policy-rc.d"
}
in_root() { chroot "$1" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    HOME=/root DEBIAN_FRONTEND=noninteractive "${@:2}"; }

# ---- the roots -------------------------------------------------------------------------------
base=$WORK/base
if [ ! -x "$base/usr/bin/apt-get" ]; then
    rm -rf "$base"
    say "debootstrap $SUITE amd64 into $base (minutes)"
    mirror=()
    if [ -n "${DEBIAN_MIRROR:-}" ]; then mirror=("$DEBIAN_MIRROR"); fi
    # minbase and what every Raspberry Pi OS has: systemd (not running), the certificates of https
    if ! debootstrap --variant=minbase --arch=amd64 --include=ca-certificates,systemd "$SUITE" "$base" "${mirror[@]}" \
        >"$WORK/debootstrap.log" 2>&1; then
        tail -n 5 "$WORK/debootstrap.log" >&2
        fail "debootstrap could not make a $SUITE root: is Debian's archive reachable (network, DEBIAN_MIRROR)? log: $WORK/debootstrap.log"
    fi
fi
for r in deb script; do
    rm -rf "${WORK:?}/$r"
    cp -a "$base" "$WORK/$r"
    mount_root "$WORK/$r"
done
say "roots ready: $WORK/deb (the package) and $WORK/script (deploy/install.sh)"

# ---- checks shared by both roots -------------------------------------------------------------
check_installed() {  # ROOT WHAT
    local root=$1 what=$2 out sim mode
    out=$(in_root "$root" zebra-table --version) || fail "$what: zebra-table --version failed"
    [ "$out" = "zebra-table $(sed -n 's/^version = "\(.*\)"$/\1/p' "$SRC/pyproject.toml")" ] \
        || fail "$what: --version says '$out'"
    in_root "$root" zebra-table config check /etc/zebra-table/table.toml >/dev/null \
        || fail "$what: config check of the installed config failed"
    sim=$(in_root "$root" /opt/zebra-table/venv/bin/python -c \
        'import firmware_host, pathlib; print(pathlib.Path(firmware_host.__file__).parent / "data/sim_table.toml")')
    in_root "$root" timeout 300 zebra-table check --config "$sim" >"$WORK/check.log" 2>&1 \
        || { tail -n 20 "$WORK/check.log" >&2; fail "$what: zebra-table check on the simulated table failed"; }
    in_root "$root" systemd-analyze verify /etc/systemd/system/zebra-table.service >"$WORK/verify.log" 2>&1 \
        || { cat "$WORK/verify.log" >&2; fail "$what: systemd-analyze verify of the unit failed"; }
    mode=$(in_root "$root" stat -c '%a %U %G' /etc/zebra-table/table.toml)  # the root's names
    [ "$mode" = "640 root zebra-table" ] || fail "$what: the config is '$mode', not '640 root zebra-table'"
    [ -L "$root/etc/systemd/system/multi-user.target.wants/zebra-table.service" ] || fail "$what: the unit is not enabled"
    [ -f "$root/opt/zebra-table/hw_tests/conftest.py" ] || fail "$what: no hw_tests/ for check --hw-tests"
    in_root "$root" /opt/zebra-table/venv/bin/python -c 'import pytest' || fail "$what: no pytest for check --hw-tests"
    passed "$what: --version, config check, check (simulated), unit verified, config 0640 root:zebra-table, hw_tests: OK"
}
check_removed() {  # ROOT WHAT purged(0|1)
    local root=$1 what=$2 purged=$3 p
    for p in /opt/zebra-table /etc/systemd/system/zebra-table.service /usr/local/bin/zebra-table \
        /etc/udev/rules.d/99-zebra-table-reader.rules; do
        [ ! -e "$root$p" ] || fail "$what: $p is still there after uninstalling"
    done
    if ((purged)); then
        for p in /etc/zebra-table /var/lib/zebra-table /var/lib/zebra-table-install; do
            [ ! -e "$root$p" ] || fail "$what: $p is still there after purging"
        done
        ! grep -q '^zebra-table:' "$root/etc/passwd" || fail "$what: user zebra-table still there after purging"
        passed "$what: purged: config, data, user and the installer's records gone"
    else
        [ -f "$root/etc/zebra-table/table.toml" ] || fail "$what: the config went with uninstall (it must stay)"
        [ -d "$root/var/lib/zebra-table" ] || fail "$what: the data went with uninstall (it must stay)"
        grep -q '^zebra-table:' "$root/etc/passwd" || fail "$what: the user went with uninstall (it must stay)"
        passed "$what: uninstalled: service, venv, unit and rule gone; config, data and user kept"
    fi
}

# ---- the .deb, installed with apt ------------------------------------------------------------
say "building the wheelhouse (deploy/wheelhouse.sh) and the .deb (deploy/build-deb.sh)"
"$SRC/deploy/wheelhouse.sh" "$WORK/wheels" amd64 >"$WORK/wheelhouse.log" 2>&1 \
    || { tail -n 5 "$WORK/wheelhouse.log" >&2; fail "deploy/wheelhouse.sh failed (network to PyPI?)"; }
"$SRC/deploy/build-deb.sh" --arch amd64 --wheelhouse "$WORK/wheels" --out "$WORK/dist" >/dev/null \
    || fail "deploy/build-deb.sh failed"
deb=$(ls "$WORK"/dist/zebra-table_*_amd64.deb)
cp "$deb" "$WORK/deb/tmp/"
say "apt install ./$(basename "$deb") in $WORK/deb"
in_root "$WORK/deb" apt-get update -q >/dev/null || fail "apt-get update in the root failed (network?)"
in_root "$WORK/deb" apt-get install -y -q "/tmp/$(basename "$deb")" >"$WORK/apt-install.log" 2>&1 \
    || { tail -n 30 "$WORK/apt-install.log" >&2; fail "apt install of the .deb failed"; }
grep -q "(offline: /usr/share/zebra-table/wheels)" "$WORK/apt-install.log" \
    || fail "the package did not install its libraries from its wheels"
check_installed "$WORK/deb" ".deb"
in_root "$WORK/deb" dpkg-reconfigure zebra-table >"$WORK/again.log" 2>&1 \
    || { cat "$WORK/again.log" >&2; fail ".deb: reconfiguring failed"; }
grep -q "Nothing to change: zebra-table is installed as wanted." "$WORK/again.log" \
    || { cat "$WORK/again.log" >&2; fail ".deb: a second run changed something"; }
passed ".deb: a second run (dpkg-reconfigure) changed nothing"
in_root "$WORK/deb" apt-get remove -y -q zebra-table >"$WORK/remove.log" 2>&1 \
    || { tail -n 30 "$WORK/remove.log" >&2; fail "apt remove failed"; }
check_removed "$WORK/deb" ".deb (apt remove)" 0
in_root "$WORK/deb" apt-get purge -y -q zebra-table >"$WORK/purge.log" 2>&1 \
    || { tail -n 30 "$WORK/purge.log" >&2; fail "apt purge failed"; }
check_removed "$WORK/deb" ".deb (apt purge)" 1

# ---- deploy/install.sh from the source tree --------------------------------------------------
say "deploy/install.sh in $WORK/script (its packages with apt, the libraries from PyPI)"
mkdir -p "$WORK/script/root/src"
tar -C "$SRC" --exclude=__pycache__ --exclude=.venv --exclude=.git -cf - \
    pyproject.toml README.md firmware_host drivers games hw_tests deploy | tar -C "$WORK/script/root/src" -xf -
in_root "$WORK/script" bash /root/src/deploy/install.sh >"$WORK/install.log" 2>&1 \
    || { tail -n 30 "$WORK/install.log" >&2; fail "deploy/install.sh failed"; }
check_installed "$WORK/script" "install.sh"
in_root "$WORK/script" bash /root/src/deploy/install.sh >"$WORK/again.log" 2>&1 \
    || { cat "$WORK/again.log" >&2; fail "install.sh: the second run failed"; }
tail -n 1 "$WORK/again.log" | grep -qx "Nothing to change: zebra-table is installed as wanted." \
    || { cat "$WORK/again.log" >&2; fail "install.sh: a second run changed something"; }
passed "install.sh: a second run changed nothing"
in_root "$WORK/script" bash /root/src/deploy/install.sh --uninstall >"$WORK/remove.log" 2>&1 \
    || { cat "$WORK/remove.log" >&2; fail "install.sh --uninstall failed"; }
check_removed "$WORK/script" "install.sh --uninstall" 0
in_root "$WORK/script" bash /root/src/deploy/install.sh --uninstall --purge >"$WORK/purge.log" 2>&1 \
    || { cat "$WORK/purge.log" >&2; fail "install.sh --uninstall --purge failed"; }
check_removed "$WORK/script" "install.sh --uninstall --purge" 1
say "the .deb and deploy/install.sh installed, run twice, uninstalled and purged in Debian $SUITE roots"
echo "debian-roots: $PASSED passed, 0 failed"
