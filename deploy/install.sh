#!/usr/bin/env bash
# Installs the table service on Raspberry Pi OS (Bookworm or later; Pi Zero 2 W, 4 or 5), from
# the source tree this script sits in. Idempotent: a second run changes nothing and says so.
# See docs/hardware.md ("Install") and `deploy/install.sh --help`.
set -euo pipefail

readonly NAME=zebra-table
readonly PACKAGES=(python3-venv python3-lgpio fonts-dejavu-core i2c-tools)
readonly GROUPS_NEEDED=(gpio i2c dialout)
# The Python libraries, exact versions with their hashes (deploy/lock.sh writes both): the runtime
# dependencies and the test tools of `zebra-table check --hw-tests`; lgpio where the system has
# none. Tables installed months apart run the same libraries.
readonly LOCK=deploy/requirements.lock
readonly LGPIO_LOCK=deploy/lgpio.lock
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
# What the installer itself must remember between runs (root's, never the service's): activation
# steps still to do, the groups it created, the boot command line before --uart changed it.
readonly STATE=/var/lib/zebra-table-install
# The table's options of the last install (--uart, --i2c-mux, --reader-serial), used by a rerun
# and by the package's upgrade: in root's records, not in the service's writable data folder.
readonly OPTIONS=$STATE/options
readonly BEGIN="# >>> zebra-table (deploy/install.sh; removed by --uninstall)"
readonly END="# <<< zebra-table"

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=deploy/locks.sh disable=SC1091  # beside this script, wherever it is run from
. "$SRC/deploy/locks.sh"  # ARMHF_NO_WHEEL, lock_pins, lock_without: shared with deploy/wheelhouse.sh
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
RESTART=0
STAGE=""
STEP=""
LIVE=0
LGPIO_FROM=system
WHEELHOUSE=""
ARMHF=""
APT=1
NOT_DONE=()
GIVEN=" "  # the table's options given on this command line: they win over the remembered ones

usage() {
    cat <<EOF
Usage: sudo deploy/install.sh [options]

Installs the table service: system packages, I2C at 400 kHz (and the TCA9548A mux overlay),
the '$NAME' system user (groups ${GROUPS_NEEDED[*]}), a venv in $OPT with this source tree,
$ETC/table.toml (never overwritten; mode 0640 root:$NAME), $DATA, the udev rule, the
systemd unit (enabled) and its network drop-in from the config. A second run changes nothing.
A failed step stops the run and is named; reloads and a restart left undone are finished by
the next run. Without a running systemd (chroot, container, image build) nothing is started.

  --uninstall          remove the service, venv, unit, udev rule and boot settings, put back
                       the serial console --uart took off; keep the config, the data (tags,
                       game journal) and the user; say what could not be removed (exit 1)
  --purge              with --uninstall: also remove the config, the data, the user and the
                       groups this installer created
The table's options (--i2c-mux, --uart/--no-uart, --reader-serial) are remembered in
$OPTIONS: a rerun and the package's upgrade use them; an option given
on the command line wins, and is remembered in turn.
  --i2c-mux ADDR|none  TCA9548A address for the i2c-mux overlay (default 0x70)
  --uart               the reader controller is on the GPIO UART (GPIO14/15), not USB:
                       enable the UART, take the serial console off it, allow ttyAMA/ttyS
  --no-uart            the reader controller is on USB (the default): undoes --uart
  --reader-serial S    USB serial number of the reader controller for the udev rule
                       ('any', the default: any Raspberry Pi Pico running the reader firmware)
  --wheelhouse DIR     install the Python libraries offline, from the wheels in DIR (made by
                       deploy/wheelhouse.sh), never from the network
  --no-apt             install no system package, only check them (the .deb's maintainer
                       scripts: dpkg holds the lock, its dependencies bring the packages)
  --dry-run            say what would change, change nothing
  --root DIR           install into DIR instead of / (tests, staging): files, users (useradd
                       --prefix) and the enabled unit (systemctl --root) go under DIR; nothing
                       is started or reloaded unless systemd runs DIR (DIR/run/systemd/system:
                       then through chroot DIR); packages are still checked with dpkg-query
  --force              install on a system that is not Raspberry Pi OS Bookworm or later
  -h, --help           this help
EOF
}

die() { echo "install.sh: $*" >&2; exit 1; }
note() { printf '  %-8s %s\n' "$1" "$2"; }
ok() { note ok "$1"; }
changed() {
    CHANGES=$((CHANGES + 1))
    STEP=$1
    if ((DRY)); then note would "$1"; else note changed "$1"; fi
}
# Runs a command that changes the system, unless this is a dry run. It checks the status itself:
# bash turns `set -e` off inside if/||/&& (where the steps' helpers are called), so a failure
# must never depend on it. Installing stops at the first failed step and names it; uninstalling
# goes on with the rest and lists what it could not do.
act() {
    if ((DRY)); then return 0; fi
    local rc=0
    "$@" || rc=$?
    ((rc == 0)) && return 0
    if [ "$MODE" = uninstall ]; then
        NOT_DONE+=("$STEP ($* exited with status $rc)")
        note failed "$STEP"
        return 0
    fi
    die "failed: $STEP: '$*' exited with status $rc; the steps after it were not done (rerun when fixed)"
}
# A failure outside act (a helper's own command) still stops the run, naming where.
set -E
trap '[ "$BASHPID" != "$$" ] || die "failed at line $LINENO: $BASH_COMMAND (step: ${STEP:-start})"' ERR
cleanup() { if [ -n "$STAGE" ]; then rm -rf "$STAGE"; fi; }
trap cleanup EXIT

while [ $# -gt 0 ]; do
    case "$1" in
        --uninstall) MODE=uninstall ;;
        --purge) PURGE=1 ;;
        --i2c-mux) MUX=${2:?--i2c-mux needs an address or none}; GIVEN+="i2c-mux "; shift ;;
        --uart) UART=1; GIVEN+="uart " ;;
        --no-uart) UART=0; GIVEN+="uart " ;;
        --reader-serial) SERIAL=${2:?--reader-serial needs a serial number}; GIVEN+="reader-serial "; shift ;;
        --wheelhouse) WHEELHOUSE=${2:?--wheelhouse needs a directory}; shift ;;
        --no-apt) APT=0 ;;
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
if [ -n "$WHEELHOUSE" ]; then
    [ -d "$WHEELHOUSE" ] || die "--wheelhouse $WHEELHOUSE: no such directory"
    WHEELHOUSE=$(cd "$WHEELHOUSE" && pwd)
    compgen -G "$WHEELHOUSE/*.whl" >/dev/null || die "--wheelhouse $WHEELHOUSE: no wheels there (deploy/wheelhouse.sh makes them)"
fi
# The table's options, checked alike on the command line and in the record of the last install.
valid_mux() { case "$1" in none | 0x7[0-7]) return 0 ;; *) return 1 ;; esac; }
readonly MUX_RULE="a TCA9548A answers at 0x70 to 0x77 (or none)"
valid_serial() { [[ $1 =~ ^[A-Za-z0-9_*-]{1,64}$ ]]; }
readonly SERIAL_RULE="1 to 64 letters, digits, _, - or * (any: any board)"
if [ "$SERIAL" = any ]; then SERIAL="*"; fi
# shellcheck disable=SC2310  # a test: its status is the answer
valid_mux "$MUX" || die "--i2c-mux: $MUX_RULE, not $MUX"
# shellcheck disable=SC2310  # a test: its status is the answer
valid_serial "$SERIAL" || die "--reader-serial: $SERIAL_RULE"
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
# systemctl on the target's unit files: offline (--root) unless it is this running system
systemctl_t() {
    if [ -n "$ROOT" ]; then systemctl --root="$ROOT" "$@"
    elif ((LIVE)); then systemctl "$@"
    else systemctl --root=/ "$@"; fi
}

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

# Install file SRCFILE as PATH with MODE, root-owned (GROUP if given); sets PUT_CHANGED to 1 if
# the content changed, 0 if not (a status would be lost: callers test it inside `if`).
PUT_CHANGED=0
put_file() {
    local src=$1 path=$2 mode=$3 what=$4 group=${5:-root}
    PUT_CHANGED=0
    if [ -f "$ROOT$path" ] && cmp -s "$src" "$ROOT$path"; then
        ok "$what $path"
        fix_attrs "$path" "$mode" root "$group" "$what $path"
        return 0
    fi
    changed "$what $path"
    act mkdir -p "$(dirname "$ROOT$path")"
    act install -m "$mode" "$src" "$ROOT$path"  # a new file, owned by whoever runs this: root
    if ((SET_OWNER)) && [ "$group" != root ]; then
        local ids
        ids=$(owner_ids root "$group")
        act chown "${ids:-root:$group}" "$ROOT$path"
    fi
    PUT_CHANGED=1
}

put_text() {  # PATH MODE WHAT TEXT; sets PUT_CHANGED like put_file
    local tmp
    tmp=$(mktemp)
    printf '%s' "$4" >"$tmp"
    put_file "$tmp" "$1" "$2" "$3"
    rm -f "$tmp"
}

# The installer's own record (STATE/NAME): written whole, like any other file it installs.
save_state() {  # NAME TEXT
    local tmp
    tmp=$(mktemp)
    printf '%s' "$2" >"$tmp"
    act install -d -m 0755 "$ROOT$STATE"
    act install -m 0644 "$tmp" "$ROOT$STATE/$1"
    rm -f "$tmp"
}
# The words of a state file that are among the allowed ones (anything else is ignored).
read_state() {  # NAME ALLOWED-WORD...
    local name=$1 word
    shift
    [ -f "$ROOT$STATE/$name" ] || return 0
    while read -r word || [ -n "$word" ]; do
        case " $* " in *" $word "*) echo "$word" ;; *) ;; esac
    done <"$ROOT$STATE/$name"
}

# The options of the last install, each unless given on this command line. Read strictly: a
# record that is not exactly what this installer writes stops the run, naming its line.
bad_record() { die "$ROOT$OPTIONS, line $1: $2. It holds the options of the last install: correct it, or delete it and rerun with your options"; }
load_options() {
    local file=$ROOT$OPTIONS line n=0 key value seen=" " used=()
    [ "$MODE" = install ] && [ -f "$file" ] || return 0
    [ "$(stat -c %s "$file")" -le 4096 ] || bad_record 1 "over 4096 bytes"
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        case "$line" in "" | "#"*) continue ;; *) ;; esac
        [[ $line == ?*=* ]] || bad_record "$n" "not KEY=VALUE: '${line:0:60}'"
        key=${line%%=*}
        value=${line#*=}
        case "$seen" in *" $key "*) bad_record "$n" "$key given twice" ;; *) ;; esac
        seen+="$key "
        # shellcheck disable=SC2310  # valid_mux, valid_serial: tests, their status is the answer
        case "$key" in
            uart) [[ $value == yes || $value == no ]] || bad_record "$n" "uart: yes or no, not '${value:0:60}'" ;;
            i2c-mux) valid_mux "$value" || bad_record "$n" "i2c-mux: $MUX_RULE, not '${value:0:60}'" ;;
            reader-serial) valid_serial "$value" || bad_record "$n" "reader-serial: $SERIAL_RULE, not '${value:0:60}'" ;;
            *) bad_record "$n" "unknown option '${key:0:60}' (uart, i2c-mux, reader-serial)" ;;
        esac
        case "$GIVEN" in *" $key "*) continue ;; *) ;; esac  # the command line wins
        case "$key" in
            uart) if [ "$value" = yes ]; then UART=1; used+=(--uart); else UART=0; fi ;;
            i2c-mux) MUX=$value; if [ "$value" != 0x70 ]; then used+=(--i2c-mux "$value"); fi ;;
            *) SERIAL=$value; if [ "$value" != "*" ]; then used+=(--reader-serial "$value"); fi ;;
        esac
    done <"$file"
    # the options that differ from the defaults, as the owner would have typed them
    if [ ${#used[@]} -gt 0 ]; then note options "${used[*]} (remembered from the last install)"; fi
}

# Records this run's options for the next run and the package's upgrade (--purge removes them).
remember_options() {
    local text=$'# The table\'s options of the last install (deploy/install.sh): a rerun and the package\'s\n'
    text+=$'# upgrade use them; an option given on the command line wins. One KEY=VALUE a line.\n'
    if ((UART)); then text+=$'uart=yes\n'; else text+=$'uart=no\n'; fi
    text+="i2c-mux=$MUX"$'\n'"reader-serial=$SERIAL"$'\n'
    put_text "$OPTIONS" 0644 "installer options" "$text"
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
    # systemd runs the target (sd_booted(3): its /run/systemd/system exists), or this is a chroot,
    # a container without systemd or an image being built: then nothing is started or reloaded.
    if [ -d "$ROOT/run/systemd/system" ]; then LIVE=1; fi
    local how=""
    if [ -n "$ROOT" ]; then how+=" in $ROOT"; fi
    if ((DRY)); then how+=", dry run"; fi
    if ! ((LIVE)); then how+=", systemd not running there: nothing is started"; fi
    echo "$NAME: $MODE on $MODEL$how"
}

# The machine's architecture as the lgpio wheels name it (the emulated one under qemu-user).
machine_arch() { uname -m; }

# Is PACKAGE installable from the configured archives? (python3-lgpio: Raspberry Pi OS only)
apt_has() {
    local candidate
    candidate=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
    [ -n "$candidate" ] && [ "$candidate" != "(none)" ]
}

# 32-bit ARM (armv7l): where the libraries PyPI has no wheel of come from (ARMHF_NO_WHEEL).
armhf_route() {
    local conf arch
    ARMHF=""
    arch=$(machine_arch)
    [ "$arch" = armv7l ] || return 0
    ARMHF=debian
    if [ -n "$WHEELHOUSE" ]; then return 0; fi  # offline: no piwheels
    for conf in "$ROOT/etc/pip.conf" "$ROOT/etc/xdg/pip/pip.conf"; do
        if [ -f "$conf" ] && grep -Eq '^[[:space:]]*(extra-)?index-url[[:space:]]*=.*piwheels' "$conf"; then ARMHF=piwheels; fi
    done
    case "${PIP_INDEX_URL:-} ${PIP_EXTRA_INDEX_URL:-}" in *piwheels*) ARMHF=piwheels ;; *) ;; esac
}

install_packages() {
    local missing=() p arch decided wanted=("${PACKAGES[@]}") pair
    decided=$(read_state lgpio pypi none)
    armhf_route
    if [ "$ARMHF" = debian ]; then
        for pair in "${ARMHF_NO_WHEEL[@]}"; do wanted+=("${pair#*=}"); done
        note note "armhf: PyPI has no armv7l wheels of ${ARMHF_NO_WHEEL[*]%%=*}: Debian's packages instead (the venv sees them)"
    elif [ "$ARMHF" = piwheels ]; then
        ok "armhf: ${ARMHF_NO_WHEEL[*]%%=*} from piwheels (pip's configured index)"
    fi
    for p in "${wanted[@]}"; do
        if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ]; then continue; fi
        # decided on an earlier run: this Debian has no python3-lgpio
        if [ "$p" = python3-lgpio ] && [ -n "$decided" ]; then LGPIO_FROM=$decided; continue; fi
        missing+=("$p")
    done
    if [ "$LGPIO_FROM" != system ]; then ok "no python3-lgpio in this system's archives: lgpio $LGPIO_FROM"; fi
    if [ ${#missing[@]} -eq 0 ]; then ok "packages ${wanted[*]}"; return 0; fi
    if ((APT)); then
        changed "package lists (apt-get update)"
        act env DEBIAN_FRONTEND=noninteractive apt-get update -q
    fi
    case " ${missing[*]} " in
        *" python3-lgpio "*)
            # shellcheck disable=SC2310  # a query: its status is the answer
            if ! ((APT)) || ! apt_has python3-lgpio; then
                missing=("${missing[@]/python3-lgpio}")
                mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sed '/^$/d')
                arch=$(machine_arch)
                case "$arch" in
                    aarch64 | armv7l) LGPIO_FROM=pypi ;;
                    *) LGPIO_FROM=none ;;
                esac
                if ((APT)); then
                    note note "python3-lgpio (the GPIO library for buttons and buzzer) is only in the Raspberry Pi OS archive (archive.raspberrypi.com), not in this system's"
                else
                    note note "python3-lgpio (the GPIO library for buttons and buzzer, Raspberry Pi OS archive only) is not installed"
                fi
                if [ "$LGPIO_FROM" = pypi ]; then
                    note note "installing lgpio from PyPI into the venv instead ($(lock_pins "$SRC/$LGPIO_LOCK"), a wheel for $arch)"
                else
                    note note "PyPI has lgpio wheels for arm64 and armhf only, not $arch: going on without GPIO (only the simulated table and \`zebra-table check\` on it work here)"
                fi
                changed "lgpio: from $LGPIO_FROM"
                save_state lgpio "$LGPIO_FROM"$'\n'
            fi ;;
        *) ;;
    esac
    if [ ${#missing[@]} -gt 0 ] && ! ((APT)); then
        die "missing packages: ${missing[*]} (--no-apt: install them first: apt install ${missing[*]})"
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        changed "packages: install ${missing[*]}"
        act env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
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

readonly CONSOLE_RE='console=(serial0|ttyAMA0|ttyS0),[0-9]+ ?'

# --uart takes the serial console off the UART; the line as it was is kept for --uninstall.
serial_console_off() {
    local cmdline=$1
    ((UART)) && [ -f "$ROOT$cmdline" ] || return 0
    grep -Eq "$CONSOLE_RE" "$ROOT$cmdline" || return 0
    changed "serial console taken off the UART ($cmdline; --uninstall puts it back)"
    if [ ! -f "$ROOT$STATE/cmdline.txt" ]; then
        act install -d -m 0755 "$ROOT$STATE"
        act cp "$ROOT$cmdline" "$ROOT$STATE/cmdline.txt"
    fi
    act sed -E -i "s/$CONSOLE_RE//" "$ROOT$cmdline"
    REBOOT=1
}

serial_console_back() {
    local cmdline=$1 kept=$ROOT$STATE/cmdline.txt tmp
    [ -f "$kept" ] || return 0
    tmp=$(mktemp)
    sed -E "s/$CONSOLE_RE//" "$kept" >"$tmp"
    if cmp -s "$tmp" "$ROOT$cmdline"; then
        changed "serial console put back on the UART ($cmdline as it was before --uart)"
        act cp "$kept" "$ROOT$cmdline"
        act rm -f "$kept"
        REBOOT=1
    elif cmp -s "$kept" "$ROOT$cmdline"; then
        act rm -f "$kept"
    else
        STEP="serial console put back on the UART"
        NOT_DONE+=("serial console: $cmdline changed since --uart; add back yourself: $(grep -Eo "$CONSOLE_RE" "$kept" | tr -d '\n')")
    fi
    rm -f "$tmp"
}

boot_config() {
    local f tmp what
    f=$(boot_config_file)
    if [ -z "$f" ]; then
        note skipped "boot config: no /boot/firmware/config.txt (not a Raspberry Pi): enable I2C yourself"
        return 0
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
    if [ "$MODE" = install ]; then
        serial_console_off "$(dirname "$f")/cmdline.txt"
    else
        serial_console_back "$(dirname "$f")/cmdline.txt"
    fi
}

modules() {
    local text=$'# I2C device files (/dev/i2c-N) for the seat screens: deploy/install.sh\ni2c-dev\n'
    put_text "$MODULES" 0644 "kernel modules" "$text"
    if ((PUT_CHANGED)) && ((LIVE)) && [ -z "$ROOT" ] && ! ((DRY)); then
        modprobe i2c-dev || note warning "modprobe i2c-dev failed: /dev/i2c-N appear after the reboot"
    fi
}

user_and_groups() {
    local g missing=() pre=() created uid
    mapfile -t pre < <(prefix_args)
    created=$(read_state created-groups "${GROUPS_NEEDED[@]}")
    for g in "${GROUPS_NEEDED[@]}"; do
        # shellcheck disable=SC2310  # a query: its status is the answer
        if has_group "$g"; then ok "group $g"; continue; fi
        changed "group $g"
        act groupadd "${pre[@]}" --system "$g"
        created+=$'\n'"$g"  # --purge removes only the groups this installer created
        if ! ((DRY)); then save_state created-groups "$(printf '%s\n' "$created" | sed '/^$/d')"$'\n'; fi
    done
    uid=$(uid_of "$NAME")
    if [ -n "$uid" ]; then
        ok "user $NAME"
        for g in "${GROUPS_NEEDED[@]}"; do
            # shellcheck disable=SC2310  # a query: its status is the answer
            in_group "$g" "$NAME" || missing+=("$g")
        done
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

# pip's index from its config ("" for pip's own default): the address the preflight checks.
pip_index_url() {
    local url=${PIP_INDEX_URL:-} conf
    for conf in "$ROOT/etc/xdg/pip/pip.conf" "$ROOT/etc/pip.conf"; do
        if [ -z "$url" ] && [ -f "$conf" ]; then
            url=$(sed -n 's/^[[:space:]]*index-url[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' "$conf" | head -n 1)
        fi
    done
    echo "$url"
}

# Says "no network" at once, rather than after pip's retries; offline, the wheelhouse serves.
readonly PREFLIGHT='import sys, urllib.request
url = sys.argv[1]
if not url:
    from pip._internal.models.index import PyPI  # pip'"'"'s default index
    url = PyPI.simple_url
try:
    urllib.request.urlopen(url, timeout=15).close()
except Exception as exc:  # any failure: the message says which
    sys.exit(f"{url} cannot be reached ({exc})")'
preflight_network() {
    local url
    ((DRY)) && return 0
    [ -z "$WHEELHOUSE" ] || return 0
    url=$(pip_index_url)
    if ! "$ROOT$VENV/bin/python" -c "$PREFLIGHT" "$url" 2>"$STAGE/network.err"; then
        die "no network: pip's index $(tail -n 1 "$STAGE/network.err"). Connect the table and rerun, or install offline: deploy/install.sh --wheelhouse DIR (docs/hardware.md)"
    fi
}

pip_install() {
    local from=()
    if [ -n "$WHEELHOUSE" ]; then from=(--no-index --find-links "$WHEELHOUSE"); fi
    act "$ROOT$VENV/bin/python" -m pip install --quiet --no-cache-dir --disable-pip-version-check "${from[@]}" "$@"
}

venv() {
    local want have="" skip=() pair pins=()
    STAGE=$(mktemp -d)
    mkdir "$STAGE/src"
    # A clean copy: pip builds in the source directory, which must not get root-owned files.
    tar -C "$SRC" --exclude=__pycache__ --exclude='*.pyc' -cf - \
        pyproject.toml README.md firmware_host drivers games hw_tests | tar -C "$STAGE/src" -xf -
    if [ -n "$ARMHF" ]; then for pair in "${ARMHF_NO_WHEEL[@]}"; do skip+=("${pair%%=*}"); done; fi
    lock_without "$SRC/$LOCK" "${skip[@]}" >"$STAGE/requirements.lock"
    if [ "$LGPIO_FROM" = pypi ]; then cat "$SRC/$LGPIO_LOCK" >"$STAGE/lgpio.lock"; fi
    if [ "$ARMHF" = piwheels ]; then
        mapfile -t pins < <(lock_pins "$SRC/$LOCK" | grep -E "^($(IFS='|'; echo "${skip[*]}"))==")
    fi
    want="$(source_hash "$STAGE/src") $(cat "$STAGE"/*.lock | sha256sum | cut -d' ' -f1) ${ARMHF:-any}"
    if [ -x "$ROOT$VENV/bin/python" ]; then
        ok "venv $VENV"
    else
        changed "venv $VENV (seeing the system's Python packages: python3-lgpio)"
        act python3 -m venv --system-site-packages "$ROOT$VENV"
    fi
    if [ -f "$ROOT$OPT/source.sha256" ]; then have=$(cat "$ROOT$OPT/source.sha256"); fi
    if [ "$have" = "$want" ] && [ -x "$ROOT$VENV/bin/$NAME" ]; then
        ok "package $NAME from $SRC"
    else
        changed "package $NAME from $SRC into $VENV, libraries from $LOCK${WHEELHOUSE:+ (offline: $WHEELHOUSE)} (minutes on a Pi Zero 2 W)"
        preflight_network
        # piwheels' files are not PyPI's: pinned to the locked versions, their hashes unknown
        if [ ${#pins[@]} -gt 0 ]; then pip_install --no-deps "${pins[@]}"; fi
        pip_install --require-hashes -r "$STAGE/requirements.lock"
        if [ -f "$STAGE/lgpio.lock" ]; then pip_install --require-hashes -r "$STAGE/lgpio.lock"; fi
        # the table itself, built with the locked setuptools just installed; --no-index: a library
        # the lock lacks stops the install here instead of coming unlocked from the network
        pip_install --no-index --no-build-isolation "$STAGE/src"
        # `zebra-table check --hw-tests` runs the real-table suite copied to $OPT/hw_tests
        act rm -rf "$ROOT$OPT/hw_tests"
        act cp -r "$STAGE/src/hw_tests" "$ROOT$OPT/hw_tests"
        if [ -n "$ROOT" ] && ! ((DRY)); then
            # pip wrote the staging path into its scripts' first line: the target's path instead
            local scripts=()
            mapfile -t scripts < <(grep -l -s "^#!$ROOT$VENV/bin/" "$ROOT$VENV"/bin/* || true)
            if [ ${#scripts[@]} -gt 0 ]; then act sed -i "1s|^#!$ROOT$VENV/bin/|#!$VENV/bin/|" "${scripts[@]}"; fi
        fi
        printf '%s\n' "$want" >"$STAGE/source.sha256"
        act install -m 0644 "$STAGE/source.sha256" "$ROOT$OPT/source.sha256"
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

# The config may hold the web token and the venue's password: root writes it, the service's
# group reads it, nobody else (0640 root:zebra-table, in a folder 0750 root:zebra-table).
config() {
    if [ -e "$ROOT$ETC/table.toml" ]; then
        ok "config $ETC/table.toml (kept as it is)"
    else
        changed "config $ETC/table.toml from deploy/table.example.toml: edit it for your table"
        act install -m 0640 "$SRC/deploy/table.example.toml" "$ROOT$ETC/table.toml"
        RESTART=1
    fi
    fix_attrs "$ETC/table.toml" 0640 root "$NAME" "config $ETC/table.toml"
}

env_file() {
    local text=$'# Environment of the zebra-table service (EnvironmentFile= of zebra-table.service).\n'
    if ((PI5)); then
        if [ -f "$ROOT$ENVFILE" ]; then
            if grep -q '^GPIOZERO_PIN_FACTORY=' "$ROOT$ENVFILE"; then ok "environment $ENVFILE"; return 0; fi
            changed "environment $ENVFILE: GPIOZERO_PIN_FACTORY=lgpio (Raspberry Pi 5)"
            cat "$ROOT$ENVFILE" >"$STAGE/env" && echo "GPIOZERO_PIN_FACTORY=lgpio" >>"$STAGE/env"
            act install -m 0644 "$STAGE/env" "$ROOT$ENVFILE"
            RESTART=1
            return 0
        fi
        text+=$'# A Raspberry Pi 5 has its GPIO on the RP1 chip: gpiozero must use lgpio.\nGPIOZERO_PIN_FACTORY=lgpio\n'
    fi
    if [ -f "$ROOT$ENVFILE" ]; then ok "environment $ENVFILE"; return 0; fi
    put_text "$ENVFILE" 0644 environment "$text"
    if ((PUT_CHANGED)); then RESTART=1; fi
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
    put_file "$tmp" "$RULE" 0644 "udev rule"
    if ((PUT_CHANGED)); then RELOAD_UDEV=1; fi
    rm -f "$tmp"
}

# The network the service may use, from the config's [web] and [venue] (none when both are off).
network_dropin() {
    local text
    if ((DRY)) && [ ! -x "$ROOT$VENV/bin/python" ]; then
        note would "unit drop-in $DROPIN/network.conf: from $ETC/table.toml once the venv exists"
        return 0
    fi
    if ! text=$("$ROOT$VENV/bin/python" -m firmware_host.storage.sandbox "$ROOT$ETC/table.toml" 2>"$STAGE/sandbox.err"); then
        note warning "the config does not load (see the config check below): the service gets no network"
        text=$("$ROOT$VENV/bin/python" -m firmware_host.storage.sandbox --none)
    fi
    put_text "$DROPIN/network.conf" 0644 "unit drop-in" "$text"$'\n'
    if ((PUT_CHANGED)); then RELOAD_UNIT=1; RESTART=1; fi
}

unit() {
    put_file "$SRC/deploy/zebra-table.service" "$UNIT" 0644 "systemd unit"
    if ((PUT_CHANGED)); then RELOAD_UNIT=1; RESTART=1; fi
    if ((UART)); then
        local text=$'# The reader controller is on the GPIO UART (deploy/install.sh --uart).\n[Service]\n'
        text+=$'DeviceAllow=char-ttyAMA rw\nDeviceAllow=char-ttyS rw\n'
        put_text "$DROPIN/uart.conf" 0644 "unit drop-in" "$text"
        if ((PUT_CHANGED)); then RELOAD_UNIT=1; RESTART=1; fi
    elif [ -e "$ROOT$DROPIN/uart.conf" ]; then
        changed "remove unit drop-in $DROPIN/uart.conf (no --uart)"
        act rm -f "$ROOT$DROPIN/uart.conf"
        RELOAD_UNIT=1; RESTART=1
    fi
    network_dropin
    # shellcheck disable=SC2310  # a query: its output is the answer
    if [ "$(systemctl_t is-enabled "$NAME.service" 2>/dev/null)" = enabled ]; then
        ok "service $NAME enabled at boot"
    else
        changed "service $NAME enabled at boot"
        act systemctl_t enable --quiet "$NAME.service"
    fi
}

# Runs a command on the target system: this one, or the one in ROOT (chroot: its systemd's sockets).
on_target() { if [ -n "$ROOT" ]; then chroot "$ROOT" "$@"; else "$@"; fi; }

readonly ACTIVATION=(udev daemon-reload restart)

# Reloads udev and systemd and restarts the service, as this run's changes need. What is to do is
# recorded first (STATE/pending) and crossed off as each step succeeds: a run stopped by a failed
# step leaves it there, and the next run finishes it, even with nothing else to change.
activate() {
    local todo=() step what leftover i failures
    leftover=" $(read_state pending "${ACTIVATION[@]}" | tr '\n' ' ') "
    ((RELOAD_UDEV)) || [[ $leftover == *" udev "* ]] && todo+=(udev)
    ((RELOAD_UNIT)) || [[ $leftover == *" daemon-reload "* ]] && todo+=(daemon-reload)
    { ((RESTART)) && ! ((REBOOT)) && [ "$MODE" = install ]; } || [[ $leftover == *" restart "* ]] && todo+=(restart)
    if [ ${#todo[@]} -eq 0 ]; then return 0; fi
    if ! ((LIVE)); then
        note skipped "${todo[*]}: systemd is not running here (a chroot, a container or an image build); the service starts at the next boot"
        if [ -f "$ROOT$STATE/pending" ]; then act rm -f "$ROOT$STATE/pending"; fi
        return 0
    fi
    save_state pending "$(printf '%s\n' "${todo[@]}")"
    for i in "${!todo[@]}"; do
        step=${todo[$i]}
        failures=${#NOT_DONE[@]}
        case "$step" in
            udev) what="udev rules reloaded" ;;
            daemon-reload) what="systemd units reloaded" ;;
            *) what="service $NAME (re)started" ;;
        esac
        if [[ $leftover == *" $step "* ]]; then what+=" (left to do by the last run)"; fi
        changed "$what"
        case "$step" in
            udev)
                act on_target udevadm control --reload-rules
                act on_target udevadm trigger --subsystem-match=tty --action=add ;;
            daemon-reload) act on_target systemctl daemon-reload ;;
            *) act on_target systemctl restart "$NAME.service" ;;
        esac
        if ((${#NOT_DONE[@]} > failures)); then return 0; fi  # uninstalling goes on: this step stays pending
        if ((i + 1 < ${#todo[@]})); then
            save_state pending "$(printf '%s\n' "${todo[@]:i+1}")"
        else
            act rm -f "$ROOT$STATE/pending"
        fi
    done
}

check_config() {
    local out
    ((DRY)) && return 0
    if out=$("$ROOT$VENV/bin/python" -m firmware_host.commands.main config check "$ROOT$ETC/table.toml" 2>&1); then
        ok "config check: ${out%%$'\n'*}"
    else
        note warning "config check failed: fix $ETC/table.toml, then: sudo deploy/install.sh (it restarts the service)"
        printf '%s\n' "$out" | sed 's/^/           /'
    fi
}

do_install() {
    remember_options
    install_packages
    boot_config
    modules
    user_and_groups
    put_dir "$OPT" 0755 root root
    put_dir "$ETC" 0750 root "$NAME"
    put_dir "$DATA" 0750 "$NAME" "$NAME"
    venv
    config
    env_file
    udev_rule
    unit
    activate
    check_config
}

# --purge: the groups this installer created, unless someone else uses them now.
remove_groups() {
    local g pre=() created members
    mapfile -t pre < <(prefix_args)
    created=$(read_state created-groups "${GROUPS_NEEDED[@]}")
    for g in $created; do
        # shellcheck disable=SC2310  # a query: its status is the answer
        if ! has_group "$g"; then continue; fi
        members=$(awk -F: -v g="$g" '$1 == g { print $4 }' "$ROOT/etc/group")
        if [ -n "$members" ]; then
            note kept "group $g (created by the install): it has members now ($members)"
            continue
        fi
        changed "remove group $g (created by the install)"
        act groupdel "${pre[@]}" "$g"
    done
}

do_uninstall() {
    local enabled uid
    # shellcheck disable=SC2310  # a query: its output is the answer
    enabled=$(systemctl_t is-enabled "$NAME.service" 2>/dev/null || true)
    if [ -e "$ROOT$UNIT" ] && [ "$enabled" = enabled ]; then
        changed "service $NAME disabled"
        act systemctl_t disable --quiet "$NAME.service"
    fi
    if [ -e "$ROOT$UNIT" ] && ((LIVE)); then
        changed "service $NAME stopped"
        act on_target systemctl stop "$NAME.service"
    fi
    if [ -e "$ROOT$UNIT" ] || [ -e "$ROOT$DROPIN" ]; then RELOAD_UNIT=1; fi
    if [ -e "$ROOT$RULE" ]; then RELOAD_UDEV=1; fi
    remove_path "$UNIT" "systemd unit"
    remove_path "$DROPIN" "unit drop-ins"
    remove_path "$RULE" "udev rule"
    remove_path "$ENVFILE" environment
    remove_path "$MODULES" "kernel modules"
    remove_path "$LINK" command
    remove_path "$OPT" "venv"
    boot_config
    activate
    if ((PURGE)); then
        remove_path "$ETC" config
        remove_path "$DATA" "data (tags, game journal)"
        uid=$(uid_of "$NAME")
        local pre=()
        mapfile -t pre < <(prefix_args)
        if [ -n "$uid" ]; then
            changed "remove user $NAME"
            act userdel "${pre[@]}" "$NAME"
        fi
        # userdel leaves the user's own group where login.defs does not say USERGROUPS_ENAB (a
        # root without one): a later install's useradd --user-group would stop on it
        # shellcheck disable=SC2310  # a query: its status is the answer
        if ! ((DRY)) && has_group "$NAME" && [ -z "$(awk -F: -v g="$NAME" '$1 == g { print $4 }' "$ROOT/etc/group")" ]; then
            changed "remove group $NAME"
            act groupdel "${pre[@]}" "$NAME"
        fi
        remove_groups
        if [ ${#NOT_DONE[@]} -eq 0 ]; then remove_path "$STATE" "installer records"; fi
    else
        ok "kept $ETC, $DATA and user $NAME (--purge removes them)"
    fi
}

check_system
load_options
if [ "$MODE" = install ]; then do_install; else do_uninstall; fi

if [ ${#NOT_DONE[@]} -gt 0 ]; then
    echo "Could not be done (the rest was):" >&2
    printf '  - %s\n' "${NOT_DONE[@]}" >&2
    exit 1
elif ((CHANGES == 0)) && [ "$MODE" = install ]; then
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
