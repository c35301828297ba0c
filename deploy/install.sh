#!/usr/bin/env bash
# Installs the table service on Raspberry Pi OS (Bookworm or later; Pi Zero 2 W, 4 or 5), from
# the source tree this script sits in. Idempotent: a second run changes nothing and says so.
# See docs/hardware.md ("Install") and `deploy/install.sh --help`.
set -euo pipefail

readonly NAME=zebra-table
readonly PACKAGES=(python3-venv python3-lgpio fonts-dejavu-core i2c-tools)
readonly GROUPS_NEEDED=(gpio i2c dialout)
# The test tools installed on the table (`zebra-table check --hw-tests`), pinned with their
# dependencies: a table installed today and one installed next year run the same checks.
readonly TEST_TOOLS=(pytest==9.2.0 pluggy==1.7.0 iniconfig==2.3.1 packaging==26.3 pygments==2.21.0)
readonly OPT=/opt/zebra-table
readonly VENV=$OPT/venv
readonly ETC=/etc/zebra-table
readonly DATA=/var/lib/zebra-table
readonly UNIT=/etc/systemd/system/zebra-table.service
readonly DROPIN=/etc/systemd/system/zebra-table.service.d
readonly RULE=/etc/udev/rules.d/99-zebra-table-reader.rules
readonly ENVFILE=/etc/default/zebra-table
readonly MODULES=/etc/modules-load.d/zebra-table.conf
readonly LINK=/usr/local/bin/zebra-table
readonly BEGIN="# >>> zebra-table (deploy/install.sh; removed by --uninstall)"
readonly END="# <<< zebra-table"

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=""
DRY=0
MODE=install
PURGE=0
FORCE=0
UART=0
MUX=0x70
SERIAL="*"
CHANGES=0
REBOOT=0
RELOAD_UNIT=0
RELOAD_UDEV=0
STAGE=""

usage() {
    cat <<EOF
Usage: sudo deploy/install.sh [options]

Installs the table service: system packages, I2C at 400 kHz (and the TCA9548A mux overlay),
the '$NAME' system user (groups ${GROUPS_NEEDED[*]}), a venv in $OPT with this source tree,
$ETC/table.toml (never overwritten), $DATA, the udev rule and the systemd unit (enabled).
A second run changes nothing.

  --uninstall          remove the service, venv, unit, udev rule and boot settings; keep the
                       config, the data (tags, game journal) and the user
  --purge              with --uninstall: also remove the config, the data and the user
  --i2c-mux ADDR|none  TCA9548A address for the i2c-mux overlay (default 0x70)
  --uart               the reader controller is on the GPIO UART (GPIO14/15), not USB:
                       enable the UART, take the serial console off it, allow ttyAMA/ttyS
  --reader-serial S    USB serial number of the reader controller for the udev rule
                       (default: any Raspberry Pi Pico running MicroPython)
  --dry-run            say what would change, change nothing
  --root DIR           install into DIR instead of / (tests, staging): files, users (useradd
                       --prefix) and the enabled unit (systemctl --root) go under DIR; nothing
                       is started or reloaded; packages are still checked with dpkg-query
  --force              install on a system that is not Raspberry Pi OS Bookworm or later
  -h, --help           this help
EOF
}

die() { echo "install.sh: $*" >&2; exit 1; }
note() { printf '  %-8s %s\n' "$1" "$2"; }
ok() { note ok "$1"; }
changed() {
    CHANGES=$((CHANGES + 1))
    if ((DRY)); then note would "$1"; else note changed "$1"; fi
}
# Runs a command that changes the system, unless this is a dry run.
act() { if ((DRY)); then return 0; fi; "$@"; }
cleanup() { if [ -n "$STAGE" ]; then rm -rf "$STAGE"; fi; }
trap cleanup EXIT

while [ $# -gt 0 ]; do
    case "$1" in
        --uninstall) MODE=uninstall ;;
        --purge) PURGE=1 ;;
        --i2c-mux) MUX=${2:?--i2c-mux needs an address or none}; shift ;;
        --uart) UART=1 ;;
        --reader-serial) SERIAL=${2:?--reader-serial needs a serial number}; shift ;;
        --dry-run) DRY=1 ;;
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        --force) FORCE=1 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
done

if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "--root $ROOT: no such directory"
    ROOT=$(cd "$ROOT" && pwd)
    [ "$ROOT" != / ] || ROOT=""
fi
if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    die "run as root: sudo $0 $*"
fi
if ((PURGE)) && [ "$MODE" != uninstall ]; then die "--purge goes with --uninstall"; fi
case "$MUX" in
    none | 0x7[0-7]) ;;
    *) die "--i2c-mux: a TCA9548A answers at 0x70 to 0x77 (or none), not $MUX" ;;
esac
case "$SERIAL" in
    *[!A-Za-z0-9*_-]*) die "--reader-serial: letters, digits, _ and - only" ;;
esac
# Without root (a test's throwaway root), files cannot be given to root or to the service user.
SET_OWNER=1
[ "$(id -u)" -eq 0 ] || SET_OWNER=0

# ---- helpers on the target system -----------------------------------------------------------

uid_of() { awk -F: -v n="$1" '$1 == n { print $3 }' "$ROOT/etc/passwd" 2>/dev/null; }
gid_of() { awk -F: -v n="$1" '$1 == n { print $3 }' "$ROOT/etc/group" 2>/dev/null; }
has_group() { [ -n "$(gid_of "$1")" ]; }
in_group() {  # GROUP USER: is USER a member of GROUP?
    awk -F: -v g="$1" -v u="$2" '$1 == g { n = split($4, m, ","); for (i = 1; i <= n; i++) if (m[i] == u) found = 1 }
        END { exit !found }' "$ROOT/etc/group" 2>/dev/null
}
prefix_args() { if [ -n "$ROOT" ]; then printf '%s\n' --prefix "$ROOT"; fi; }
systemctl_t() { if [ -n "$ROOT" ]; then systemctl --root="$ROOT" "$@"; else systemctl "$@"; fi; }

# "uid:gid" wanted for a path, from owner names ("root", "zebra-table"); empty if not known yet.
owner_ids() {
    local u g
    u=$(uid_of "$1"); g=$(gid_of "$2")
    if [ -n "$u" ] && [ -n "$g" ]; then echo "$u:$g"; fi
}

# Make PATH (directory or file) have MODE and owner USER:GROUP; says what it changed.
fix_attrs() {
    local path=$1 mode=$2 user=$3 group=$4 what=$5 ids
    if [ "$(stat -c %a "$ROOT$path" 2>/dev/null)" != "${mode#0}" ]; then
        changed "$what: mode $mode"
        act chmod "$mode" "$ROOT$path"
    fi
    ((SET_OWNER)) || return 0
    ids=$(owner_ids "$user" "$group")
    if [ -z "$ids" ] || [ "$(stat -c %u:%g "$ROOT$path" 2>/dev/null)" != "$ids" ]; then
        changed "$what: owner $user:$group"
        act chown "${ids:-$user:$group}" "$ROOT$path"
    fi
}

put_dir() {  # PATH MODE USER GROUP
    local ids
    if [ -d "$ROOT$1" ]; then
        ok "directory $1"
        fix_attrs "$1" "$2" "$3" "$4" "directory $1"
        return
    fi
    changed "directory $1 (mode $2, owner $3:$4)"
    act install -d -m "$2" "$ROOT$1"
    ids=$(owner_ids "$3" "$4")
    if ((SET_OWNER)); then act chown "${ids:-$3:$4}" "$ROOT$1"; fi
}

# Install file SRCFILE as PATH with MODE, root-owned; returns 0 if it changed, 1 if not.
put_file() {
    local src=$1 path=$2 mode=$3 what=$4
    if [ -f "$ROOT$path" ] && cmp -s "$src" "$ROOT$path"; then
        ok "$what $path"
        fix_attrs "$path" "$mode" root root "$what $path"
        return 1
    fi
    changed "$what $path"
    act mkdir -p "$(dirname "$ROOT$path")"
    act install -m "$mode" "$src" "$ROOT$path"  # a new file, owned by whoever runs this: root
    return 0
}

put_text() {  # PATH MODE WHAT TEXT; returns like put_file
    local tmp rc=0
    tmp=$(mktemp)
    printf '%s' "$4" >"$tmp"
    put_file "$tmp" "$1" "$2" "$3" || rc=$?
    rm -f "$tmp"
    return "$rc"
}

remove_path() {  # PATH WHAT
    if [ -e "$ROOT$1" ] || [ -L "$ROOT$1" ]; then changed "remove $2 $1"; act rm -rf "$ROOT$1"; else ok "no $2 $1"; fi
}

# ---- the steps -------------------------------------------------------------------------------

os_field() { sed -n "s/^$1=//p" "$ROOT/etc/os-release" 2>/dev/null | tr -d '"' | head -n 1; }

check_system() {
    local id like version model=""
    id=$(os_field ID); like=$(os_field ID_LIKE); version=$(os_field VERSION_ID)
    case " $id $like " in
        *" debian "* | *" raspbian "*) ;;
        *) ((FORCE)) || die "not Raspberry Pi OS or Debian (ID=$id); --force to go on anyway" ;;
    esac
    case "$version" in
        [0-9] | [0-9].* | 1[01] | 1[01].* | "")
            ((FORCE)) || die "needs Raspberry Pi OS Bookworm (12) or later, not VERSION_ID=$version (--force: go on)" ;;
    esac
    if [ -r "$ROOT/proc/device-tree/model" ]; then model=$(tr -d '\0' <"$ROOT/proc/device-tree/model"); fi
    MODEL=${model:-not a Raspberry Pi}
    case "$model" in
        "Raspberry Pi 5"* | "Raspberry Pi Compute Module 5"*) PI5=1 ;;
        *) PI5=0 ;;
    esac
    local how=""
    if [ -n "$ROOT" ]; then how+=" in $ROOT"; fi
    if ((DRY)); then how+=", dry run"; fi
    echo "$NAME: $MODE on $MODEL$how"
}

install_packages() {
    local missing=() p
    for p in "${PACKAGES[@]}"; do
        if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" != installed ]; then missing+=("$p"); fi
    done
    if [ ${#missing[@]} -eq 0 ]; then ok "packages ${PACKAGES[*]}"; return; fi
    changed "packages: install ${missing[*]}"
    act env DEBIAN_FRONTEND=noninteractive apt-get update -q
    act env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

boot_config_file() {
    local f
    for f in /boot/firmware/config.txt /boot/config.txt; do
        if [ -f "$ROOT$f" ]; then echo "$f"; return; fi
    done
}

# config.txt without our block, then (for install) the wanted block appended.
boot_config_text() {
    awk -v b="$BEGIN" -v e="$END" '$0 == b { skip = 1; next } $0 == e { skip = 0; next } !skip' "$ROOT$1"
    if [ "$2" = install ]; then
        printf '%s\n[all]\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n' "$BEGIN"
        if [ "$MUX" != none ]; then printf 'dtoverlay=i2c-mux,pca9548,addr=%s\n' "$MUX"; fi
        if ((UART)); then printf 'enable_uart=1\n'; fi
        printf '%s\n' "$END"
    fi
}

boot_config() {
    local f tmp cmdline what
    f=$(boot_config_file)
    if [ -z "$f" ]; then
        note skipped "boot config: no /boot/firmware/config.txt (not a Raspberry Pi): enable I2C yourself"
        return
    fi
    tmp=$(mktemp)
    boot_config_text "$f" "$MODE" >"$tmp"
    if cmp -s "$tmp" "$ROOT$f"; then
        ok "boot config $f"
    else
        if [ "$MODE" = install ]; then
            what="I2C on at 400 kHz"
            if [ "$MUX" != none ]; then what+=", TCA9548A mux at $MUX"; fi
            if ((UART)); then what+=", UART on"; fi
            changed "boot config $f: $what"
        else
            changed "boot config $f: remove the $NAME block"
        fi
        act cp "$tmp" "$ROOT$f"
        REBOOT=1
    fi
    rm -f "$tmp"
    cmdline="$(dirname "$f")/cmdline.txt"
    if [ "$MODE" = install ] && ((UART)) && [ -f "$ROOT$cmdline" ] &&
        grep -Eq 'console=(serial0|ttyAMA0|ttyS0),[0-9]+ ?' "$ROOT$cmdline"; then
        changed "serial console taken off the UART ($cmdline)"
        act sed -E -i 's/console=(serial0|ttyAMA0|ttyS0),[0-9]+ ?//' "$ROOT$cmdline"
        REBOOT=1
    fi
}

modules() {
    local text=$'# I2C device files (/dev/i2c-N) for the seat screens: deploy/install.sh\ni2c-dev\n'
    if put_text "$MODULES" 0644 "kernel modules" "$text"; then
        if [ -z "$ROOT" ]; then act modprobe i2c-dev || true; fi
    fi
}

user_and_groups() {
    local g missing=() pre=()
    mapfile -t pre < <(prefix_args)
    for g in "${GROUPS_NEEDED[@]}"; do
        if has_group "$g"; then ok "group $g"; else changed "group $g"; act groupadd "${pre[@]}" --system "$g"; fi
    done
    if [ -n "$(uid_of "$NAME")" ]; then
        ok "user $NAME"
        for g in "${GROUPS_NEEDED[@]}"; do in_group "$g" "$NAME" || missing+=("$g"); done
        if [ ${#missing[@]} -gt 0 ]; then
            changed "user $NAME: add to ${missing[*]}"
            act usermod "${pre[@]}" --append --groups "$(IFS=,; echo "${missing[*]}")" "$NAME"
        fi
    else
        changed "user $NAME (system, no login, groups ${GROUPS_NEEDED[*]})"
        act useradd "${pre[@]}" --system --user-group --no-create-home --home-dir "$DATA" \
            --shell /usr/sbin/nologin --comment "zebra-table service" \
            --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$NAME"
    fi
}

source_hash() {
    (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}

venv() {
    local want have=""
    STAGE=$(mktemp -d)
    # A clean copy: pip builds in the source directory, which must not get root-owned files.
    tar -C "$SRC" --exclude=__pycache__ --exclude='*.pyc' -cf - \
        pyproject.toml README.md firmware_host drivers games hw_tests | tar -C "$STAGE" -xf -
    want=$(source_hash "$STAGE")
    if [ -x "$ROOT$VENV/bin/python" ]; then
        ok "venv $VENV"
    else
        changed "venv $VENV (with the system's python3-lgpio)"
        act python3 -m venv --system-site-packages "$ROOT$VENV"
    fi
    if [ -f "$ROOT$OPT/source.sha256" ]; then have=$(cat "$ROOT$OPT/source.sha256"); fi
    if [ "$have" = "$want" ] && [ -x "$ROOT$VENV/bin/$NAME" ]; then
        ok "package $NAME from $SRC"
    else
        changed "package $NAME from $SRC into $VENV (minutes on a Pi Zero 2 W)"
        # pytest: `zebra-table check --hw-tests` runs the real-table suite copied to $OPT/hw_tests
        act "$ROOT$VENV/bin/python" -m pip install --quiet --no-cache-dir "$STAGE" "${TEST_TOOLS[@]}"
        act rm -rf "$ROOT$OPT/hw_tests"
        act cp -r "$STAGE/hw_tests" "$ROOT$OPT/hw_tests"
        if ! ((DRY)); then echo "$want" >"$ROOT$OPT/source.sha256"; fi
        RESTART=1
    fi
    if [ "$(readlink "$ROOT$LINK" 2>/dev/null)" = "$VENV/bin/$NAME" ]; then
        ok "command $LINK"
    else
        changed "command $LINK -> $VENV/bin/$NAME"
        act mkdir -p "$(dirname "$ROOT$LINK")"
        act ln -sfn "$VENV/bin/$NAME" "$ROOT$LINK"
    fi
}

config() {
    if [ -e "$ROOT$ETC/table.toml" ]; then
        ok "config $ETC/table.toml (kept as it is)"
    else
        changed "config $ETC/table.toml from deploy/table.example.toml: edit it for your table"
        act install -m 0644 "$SRC/deploy/table.example.toml" "$ROOT$ETC/table.toml"
        RESTART=1
    fi
}

env_file() {
    local text=$'# Environment of the zebra-table service (EnvironmentFile= of zebra-table.service).\n'
    if ((PI5)); then
        if [ -f "$ROOT$ENVFILE" ]; then
            if grep -q '^GPIOZERO_PIN_FACTORY=' "$ROOT$ENVFILE"; then ok "environment $ENVFILE"; return; fi
            changed "environment $ENVFILE: GPIOZERO_PIN_FACTORY=lgpio (Raspberry Pi 5)"
            if ! ((DRY)); then echo "GPIOZERO_PIN_FACTORY=lgpio" >>"$ROOT$ENVFILE"; fi
            RESTART=1
            return
        fi
        text+=$'# A Raspberry Pi 5 has its GPIO on the RP1 chip: gpiozero must use lgpio.\nGPIOZERO_PIN_FACTORY=lgpio\n'
    fi
    if [ -f "$ROOT$ENVFILE" ]; then ok "environment $ENVFILE"; return; fi
    put_text "$ENVFILE" 0644 environment "$text" && RESTART=1
    return 0
}

udev_rule() {
    local tmp
    tmp=$(mktemp)
    if [ "$SERIAL" = "*" ]; then
        # any board whose firmware announces itself as the reader (USB product string)
        sed "s/@READER_SERIAL@/*/" "$SRC/deploy/99-zebra-table-reader.rules" >"$tmp"
    else
        # this one board by its serial, whatever its firmware says (MicroPython < 1.23 too)
        sed -e "s/@READER_SERIAL@/$SERIAL/" -e 's/ATTRS{product}=="[^"]*", //' \
            "$SRC/deploy/99-zebra-table-reader.rules" >"$tmp"
    fi
    if put_file "$tmp" "$RULE" 0644 "udev rule"; then RELOAD_UDEV=1; fi
    rm -f "$tmp"
}

unit() {
    if put_file "$SRC/deploy/zebra-table.service" "$UNIT" 0644 "systemd unit"; then RELOAD_UNIT=1; RESTART=1; fi
    if ((UART)); then
        local text=$'# The reader controller is on the GPIO UART (deploy/install.sh --uart).\n[Service]\n'
        text+=$'DeviceAllow=char-ttyAMA rw\nDeviceAllow=char-ttyS rw\n'
        if put_text "$DROPIN/uart.conf" 0644 "unit drop-in" "$text"; then
            RELOAD_UNIT=1; RESTART=1
        fi
    elif [ -e "$ROOT$DROPIN/uart.conf" ]; then
        changed "remove unit drop-in $DROPIN/uart.conf (no --uart)"
        act rm -f "$ROOT$DROPIN/uart.conf"
        RELOAD_UNIT=1; RESTART=1
    fi
    if [ "$(systemctl_t is-enabled "$NAME.service" 2>/dev/null)" = enabled ]; then
        ok "service $NAME enabled at boot"
    else
        changed "service $NAME enabled at boot"
        act systemctl_t enable --quiet "$NAME.service"
    fi
}

activate() {
    [ -z "$ROOT" ] || return 0
    if ((RELOAD_UDEV)); then
        act udevadm control --reload-rules
        act udevadm trigger --subsystem-match=tty --action=add
    fi
    if ((RELOAD_UNIT)); then act systemctl daemon-reload; fi
    if ((REBOOT)); then return 0; fi
    if ((RESTART)); then
        changed "service $NAME (re)started"
        act systemctl restart "$NAME.service"
    fi
}

check_config() {
    local out
    ((DRY)) && return 0
    if out=$("$ROOT$VENV/bin/$NAME" config check "$ROOT$ETC/table.toml" 2>&1); then
        ok "config check: ${out%%$'\n'*}"
    else
        note warning "config check failed: fix $ETC/table.toml, then: sudo systemctl restart $NAME"
        printf '%s\n' "$out" | sed 's/^/           /'
    fi
}

do_install() {
    RESTART=0
    install_packages
    boot_config
    modules
    user_and_groups
    put_dir "$OPT" 0755 root root
    put_dir "$ETC" 0755 root root
    put_dir "$DATA" 0750 "$NAME" "$NAME"
    venv
    config
    env_file
    udev_rule
    unit
    activate
    check_config
}

do_uninstall() {
    if [ -e "$ROOT$UNIT" ] && [ "$(systemctl_t is-enabled "$NAME.service" 2>/dev/null)" = enabled ]; then
        changed "service $NAME disabled and stopped"
        if [ -n "$ROOT" ]; then
            act systemctl_t disable --quiet "$NAME.service"
        else
            act systemctl disable --now --quiet "$NAME.service"
        fi
    fi
    remove_path "$UNIT" "systemd unit"
    remove_path "$DROPIN" "unit drop-ins"
    remove_path "$RULE" "udev rule"
    remove_path "$ENVFILE" environment
    remove_path "$MODULES" "kernel modules"
    remove_path "$LINK" command
    remove_path "$OPT" "venv"
    boot_config
    if ((PURGE)); then
        remove_path "$ETC" config
        remove_path "$DATA" "data (tags, game journal)"
        if [ -n "$(uid_of "$NAME")" ]; then
            local pre=()
            mapfile -t pre < <(prefix_args)
            changed "remove user $NAME"
            act userdel "${pre[@]}" "$NAME"
        fi
    else
        ok "kept $ETC, $DATA and user $NAME (--purge removes them)"
    fi
    if [ -z "$ROOT" ] && ! ((DRY)); then systemctl daemon-reload; fi
}

check_system
if [ "$MODE" = install ]; then do_install; else do_uninstall; fi

if ((CHANGES == 0)) && [ "$MODE" = install ]; then
    echo "Nothing to change: $NAME is installed as wanted."
elif ((CHANGES == 0)); then
    echo "Nothing to change: $NAME is not installed."
elif ((DRY)); then
    echo "Dry run: $CHANGES change(s) would be made."
else
    echo "Done: $CHANGES change(s)."
fi
if ((REBOOT)) && ! ((DRY)); then
    if [ "$MODE" = install ]; then
        echo "Reboot to apply the boot config (sudo reboot): the service starts by itself."
    else
        echo "Reboot to apply the boot config (sudo reboot)."
    fi
fi
