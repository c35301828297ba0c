# shellcheck shell=bash
# Debian Bookworm roots made with debootstrap, for deploy/ci/debian-roots.sh (amd64, in CI) and
# deploy/ci/debian-roots-arm.sh (arm64 and armhf under qemu-user): sourced by both, after they set
# ROOTS_NAME (their name in the log) and ROOTS_WORK (the working folder; empty: a new temp dir,
# removed at the end). Sets WORK and the helpers below.
# in_root is one command (chroot): its status is that command's, checked where it is called
# shellcheck disable=SC2310
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
readonly SUITE=bookworm
readonly STARTED=$SECONDS
PASSED=0
say() { printf '[%s %4ds] %s\n' "$ROOTS_NAME" "$((SECONDS - STARTED))" "$*"; }
passed() { PASSED=$((PASSED + 1)); say "$*"; }
fail() { say "FAILED: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap and chroot)"
if ! command -v debootstrap >/dev/null; then
    say "installing debootstrap"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap; } \
        >/dev/null || fail "could not install debootstrap with apt-get (network to Debian's archive?)"
fi
command -v dpkg-deb >/dev/null || fail "needs dpkg-deb"

WORK=${ROOTS_WORK:-}
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

in_root() { chroot "$1" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    HOME=/root DEBIAN_FRONTEND=noninteractive "${@:2}"; }

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

# The Debian root of ARCH, debootstrapped once into WORK/base-ARCH (kept when WORK is given: a
# rerun with the same WORKDIR starts from it), then copied to WORK/NAME and mounted for each use.
new_root() {  # ARCH NAME
    local arch=$1 base=$WORK/base-$1 mirror=()
    if [ ! -x "$base/usr/bin/apt-get" ]; then
        rm -rf "$base"
        say "debootstrap $SUITE $arch into $base (minutes)"
        if [ -n "${DEBIAN_MIRROR:-}" ]; then mirror=("$DEBIAN_MIRROR"); fi
        # minbase and what every Raspberry Pi OS has: systemd (not running), the certificates of https
        if ! debootstrap --variant=minbase --arch="$arch" --include=ca-certificates,systemd "$SUITE" "$base" \
            "${mirror[@]}" >"$WORK/debootstrap-$arch.log" 2>&1; then
            tail -n 5 "$WORK/debootstrap-$arch.log" >&2
            fail "debootstrap could not make a $SUITE $arch root: is Debian's archive reachable (network, DEBIAN_MIRROR)? log: $WORK/debootstrap-$arch.log"
        fi
    fi
    rm -rf "${WORK:?}/$2"
    cp -a "$base" "$WORK/$2"
    mount_root "$WORK/$2"
}

# The source tree as an owner has it, copied into ROOT/root/src.
copy_source() {  # ROOT
    mkdir -p "$1/root/src"
    tar -C "$SRC" --exclude=__pycache__ --exclude=.venv --exclude=.git -cf - \
        pyproject.toml README.md firmware_host drivers games hw_tests deploy | tar -C "$1/root/src" -xf -
}

source_version() { sed -n 's/^version = "\(.*\)"$/\1/p' "$SRC/pyproject.toml" | head -n 1; }

# ---- checks shared by the roots --------------------------------------------------------------
check_installed() {  # ROOT WHAT [VERSION]
    local root=$1 what=$2 version=${3:-} out sim mode
    [ -n "$version" ] || version=$(source_version)
    out=$(in_root "$root" zebra-table --version) || fail "$what: zebra-table --version failed"
    [ "$out" = "zebra-table $version" ] || fail "$what: --version says '$out', not 'zebra-table $version'"
    in_root "$root" zebra-table config check /etc/zebra-table/table.toml >/dev/null \
        || fail "$what: config check of the installed config failed"
    sim=$(in_root "$root" /opt/zebra-table/venv/bin/python -c \
        'import firmware_host, pathlib; print(pathlib.Path(firmware_host.__file__).parent / "data/sim_table.toml")')
    in_root "$root" timeout 600 zebra-table check --config "$sim" >"$WORK/check.log" 2>&1 \
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
        ! grep -q '^zebra-table:' "$root/etc/group" || fail "$what: group zebra-table still there after purging"
        passed "$what: purged: config, data, user, the installer's records and options gone"
    else
        [ -f "$root/etc/zebra-table/table.toml" ] || fail "$what: the config went with uninstall (it must stay)"
        [ -d "$root/var/lib/zebra-table" ] || fail "$what: the data went with uninstall (it must stay)"
        grep -q '^zebra-table:' "$root/etc/passwd" || fail "$what: the user went with uninstall (it must stay)"
        passed "$what: uninstalled: service, venv, unit and rule gone; config, data and user kept"
    fi
}
