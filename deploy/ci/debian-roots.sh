#!/usr/bin/env bash
# The install proved in real Debian Bookworm roots (amd64, made with debootstrap from Debian's
# archive): the .deb installed with apt in one (its wheels bundled: the Python
# libraries install offline), deploy/install.sh run from the source tree in the other (libraries
# from PyPI, as the lock says). In each: `zebra-table --version`, `config check`, `check` on the
# simulated table, `systemd-analyze verify` of the unit, the config's mode, a second run changing
# nothing, then uninstall and purge leaving what docs/hardware.md says. In the package's root, the
# owner's --uart kept by an upgrade to a newer package; in the script's, a failed reload of udev
# and of systemd each finished by the next run.
# What a root cannot have, and stands in for it:
#   - a running systemd: the roots are chroots, so the installer enables the unit and starts
#     nothing; for the failed reloads, /run/systemd/system says "booted" and systemctl/udevadm
#     stand-ins record the reloads and the restart, failing the first reload of each (the
#     sandboxed service: tests/deploy/ and deploy/ci/sandbox.sh);
#   - a Raspberry Pi's boot partition: /boot/firmware/config.txt and cmdline.txt as Raspberry Pi
#     OS ships them, in the package's root, for --uart to edit;
#   - the Raspberry Pi archive: plain Debian has no python3-lgpio; on amd64 PyPI has no lgpio
#     either, so the table runs without GPIO (exit 5 from `check` on real hardware).
# As root, with the network to Debian's archive and PyPI. CI runs it after the unit suite.
#   deploy/ci/debian-roots.sh [WORKDIR]      (default: a new temp dir, removed at the end; a
#   WORKDIR given keeps the debootstrapped root in WORKDIR/base-amd64 for the next run)
# DEBIAN_MIRROR overrides debootstrap's default mirror.
# in_root is one command (chroot): its status is that command's, checked where it is called
# shellcheck disable=SC2310
set -euo pipefail
readonly ROOTS_NAME=debian-roots ROOTS_WORK=${1:-}
# shellcheck source=deploy/ci/roots.sh disable=SC1091  # beside this script
. "$(dirname "${BASH_SOURCE[0]}")/roots.sh"

for r in deb script; do new_root amd64 "$r"; done
say "roots ready: $WORK/deb (the package) and $WORK/script (deploy/install.sh)"

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

# ---- the owner's options kept by an upgrade of the package -----------------------------------
mkdir -p "$WORK/deb/boot/firmware"
printf '# For more options and information see http://rptl.io/configtxt\ndtparam=audio=on\n' \
    >"$WORK/deb/boot/firmware/config.txt"
cmdline='console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait'
echo "$cmdline" >"$WORK/deb/boot/firmware/cmdline.txt"
uart_kept() {  # WHAT: the reader on the GPIO UART, as --uart set it
    grep -qx enable_uart=1 "$WORK/deb/boot/firmware/config.txt" || fail "$1: enable_uart=1 is not in config.txt"
    ! grep -q console=serial0 "$WORK/deb/boot/firmware/cmdline.txt" || fail "$1: the serial console is still on the UART"
    grep -qx "DeviceAllow=char-ttyAMA rw" "$WORK/deb/etc/systemd/system/zebra-table.service.d/uart.conf" \
        || fail "$1: the unit's drop-in for the UART is not there"
    grep -qx uart=yes "$WORK/deb/var/lib/zebra-table-install/options" || fail "$1: the options record has no uart=yes"
}
in_root "$WORK/deb" bash /usr/share/zebra-table/src/deploy/install.sh --uart >"$WORK/uart.log" 2>&1 \
    || { cat "$WORK/uart.log" >&2; fail ".deb: the package's install.sh --uart failed"; }
uart_kept ".deb: install.sh --uart"
version=$(source_version)
newer=$version+1
say "building zebra-table $newer (the same tree, a newer version) and upgrading the package to it"
rm -rf "$WORK/newer" "$WORK/dist-newer"
mkdir -p "$WORK/newer"
tar -C "$SRC" --exclude=__pycache__ --exclude=.venv --exclude=.git -cf - \
    pyproject.toml README.md firmware_host drivers games hw_tests deploy | tar -C "$WORK/newer" -xf -
sed -i "s/^version = \"$version\"$/version = \"$newer\"/" "$WORK/newer/pyproject.toml"
"$WORK/newer/deploy/build-deb.sh" --arch amd64 --wheelhouse "$WORK/wheels" --out "$WORK/dist-newer" >/dev/null \
    || fail "deploy/build-deb.sh of $newer failed"
cp "$WORK/dist-newer/zebra-table_${newer}_amd64.deb" "$WORK/deb/tmp/"
in_root "$WORK/deb" apt-get install -y -q "/tmp/zebra-table_${newer}_amd64.deb" >"$WORK/upgrade.log" 2>&1 \
    || { tail -n 30 "$WORK/upgrade.log" >&2; fail "apt install of the newer .deb (an upgrade) failed"; }
grep -q "Unpacking zebra-table ($newer) over ($version)" "$WORK/upgrade.log" \
    || { tail -n 30 "$WORK/upgrade.log" >&2; fail "apt did not upgrade zebra-table $version to $newer"; }
grep -q -- "--uart (remembered from the last install)" "$WORK/upgrade.log" \
    || { cat "$WORK/upgrade.log" >&2; fail ".deb upgrade: the installer did not use the remembered --uart"; }
uart_kept ".deb upgraded to $newer"
check_installed "$WORK/deb" ".deb upgraded to $newer" "$newer"
passed ".deb: --uart kept by the upgrade to $newer (config.txt, cmdline.txt, the unit's drop-in, the record)"
in_root "$WORK/deb" apt-get remove -y -q zebra-table >"$WORK/remove.log" 2>&1 \
    || { tail -n 30 "$WORK/remove.log" >&2; fail "apt remove failed"; }
check_removed "$WORK/deb" ".deb (apt remove)" 0
[ "$(cat "$WORK/deb/boot/firmware/cmdline.txt")" = "$cmdline" ] || fail "apt remove: the serial console was not put back"
! grep -q zebra-table "$WORK/deb/boot/firmware/config.txt" || fail "apt remove: the installer's block is still in config.txt"
in_root "$WORK/deb" apt-get purge -y -q zebra-table >"$WORK/purge.log" 2>&1 \
    || { tail -n 30 "$WORK/purge.log" >&2; fail "apt purge failed"; }
check_removed "$WORK/deb" ".deb (apt purge)" 1

# ---- deploy/install.sh from the source tree --------------------------------------------------
say "deploy/install.sh in $WORK/script (its packages with apt, the libraries from PyPI)"
copy_source "$WORK/script"
in_root "$WORK/script" bash /root/src/deploy/install.sh >"$WORK/install.log" 2>&1 \
    || { tail -n 30 "$WORK/install.log" >&2; fail "deploy/install.sh failed"; }
check_installed "$WORK/script" "install.sh"
in_root "$WORK/script" bash /root/src/deploy/install.sh >"$WORK/again.log" 2>&1 \
    || { cat "$WORK/again.log" >&2; fail "install.sh: the second run failed"; }
tail -n 1 "$WORK/again.log" | grep -qx "Nothing to change: zebra-table is installed as wanted." \
    || { cat "$WORK/again.log" >&2; fail "install.sh: a second run changed something"; }
passed "install.sh: a second run changed nothing"

# ---- a failed reload finished by the next run ------------------------------------------------
# Stand-ins for a running systemd and udev: /run/systemd/system says systemd runs the root (as
# sd_booted(3) checks); systemctl and udevadm record the installer's reloads and restart, and the
# first reload of each fails as a busy system's can. Other calls go to the real tools (systemctl
# on the unit files offline).
mkdir -p "$WORK/script/run/systemd/system" "$WORK/script/run/stand-in"
for tool in systemctl udevadm; do
    cat >"$WORK/script/usr/local/sbin/$tool" <<'STANDIN'
#!/bin/sh
name=$(basename "$0")
call="$name $*"
case "$call" in
    "udevadm control --reload-rules" | "systemctl daemon-reload")
        if [ ! -e "/run/stand-in/failed-$name" ]; then
            : >"/run/stand-in/failed-$name"
            echo "$call: Connection timed out (the stand-in fails once)" >&2
            exit 1
        fi ;;
    "udevadm trigger "* | "systemctl restart zebra-table.service") ;;
    # the unit files, as the running systemd would read them (the real one has no bus here)
    "systemctl is-enabled "* | "systemctl enable "* | "systemctl disable "*) exec /usr/bin/systemctl --root=/ "$@" ;;
    *) exec "/usr/bin/$name" "$@" ;;
esac
echo "$call" >>/run/stand-in/calls
STANDIN
    chmod 0755 "$WORK/script/usr/local/sbin/$tool"
done
# changes that need udev and systemd reloaded and the service restarted
rm "$WORK/script/etc/udev/rules.d/99-zebra-table-reader.rules" \
    "$WORK/script/etc/systemd/system/zebra-table.service.d/network.conf"
run_failing() {  # STEP: the run stops naming STEP, with what is left recorded
    if in_root "$WORK/script" bash /root/src/deploy/install.sh >"$WORK/retry.log" 2>&1; then
        cat "$WORK/retry.log" >&2; fail "install.sh: the run with a failing $1 said it succeeded"
    fi
    grep -q "install.sh: failed: $1" "$WORK/retry.log" || { cat "$WORK/retry.log" >&2; fail "install.sh: no 'failed: $1'"; }
    ! grep -q "^Done:" "$WORK/retry.log" || fail "install.sh: 'Done' after a failed $1"
    [ -s "$WORK/script/var/lib/zebra-table-install/pending" ] || fail "install.sh: nothing recorded as left to do"
}
run_failing "udev rules reloaded"
run_failing "systemd units reloaded"
in_root "$WORK/script" bash /root/src/deploy/install.sh >"$WORK/retry.log" 2>&1 \
    || { cat "$WORK/retry.log" >&2; fail "install.sh: the run after the failed reloads failed"; }
for step in "systemd units reloaded" "service zebra-table (re)started"; do
    grep -q "$step (left to do by the last run)" "$WORK/retry.log" \
        || { cat "$WORK/retry.log" >&2; fail "install.sh: the next run did not finish '$step'"; }
done
[ ! -e "$WORK/script/var/lib/zebra-table-install/pending" ] || fail "install.sh: something still recorded as left to do"
calls=$(tr '\n' ';' <"$WORK/script/run/stand-in/calls")
[ "$calls" = "udevadm control --reload-rules;udevadm trigger --subsystem-match=tty --action=add;systemctl daemon-reload;systemctl restart zebra-table.service;" ] \
    || fail "install.sh: the reloads and the restart were '$calls'"
in_root "$WORK/script" bash /root/src/deploy/install.sh >"$WORK/again.log" 2>&1 \
    || { cat "$WORK/again.log" >&2; fail "install.sh: the run after the retry failed"; }
tail -n 1 "$WORK/again.log" | grep -qx "Nothing to change: zebra-table is installed as wanted." \
    || { cat "$WORK/again.log" >&2; fail "install.sh: the run after the retry changed something"; }
rm -r "$WORK/script/run/systemd/system" "$WORK/script/run/stand-in" \
    "$WORK/script/usr/local/sbin/systemctl" "$WORK/script/usr/local/sbin/udevadm"
passed "install.sh: a failed udev reload, then a failed systemd reload, each finished by the next run; then nothing to change"
in_root "$WORK/script" bash /root/src/deploy/install.sh --uninstall >"$WORK/remove.log" 2>&1 \
    || { cat "$WORK/remove.log" >&2; fail "install.sh --uninstall failed"; }
check_removed "$WORK/script" "install.sh --uninstall" 0
in_root "$WORK/script" bash /root/src/deploy/install.sh --uninstall --purge >"$WORK/purge.log" 2>&1 \
    || { cat "$WORK/purge.log" >&2; fail "install.sh --uninstall --purge failed"; }
check_removed "$WORK/script" "install.sh --uninstall --purge" 1
say "the .deb and deploy/install.sh installed, run twice, uninstalled and purged in Debian $SUITE roots"
echo "debian-roots: $PASSED passed, 0 failed"
