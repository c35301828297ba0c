# shellcheck shell=bash
# Reading the locks (deploy/requirements.lock, deploy/lgpio.lock): sourced by deploy/install.sh and
# deploy/wheelhouse.sh.

# PyPI has no armv7l wheels of these (32-bit Raspberry Pi OS): piwheels where pip is configured for
# it (Raspberry Pi OS's /etc/pip.conf), else Debian's packages, which the venv sees.
# shellcheck disable=SC2034  # used by the scripts that source this file
readonly ARMHF_NO_WHEEL=(pillow=python3-pil cbor2=python3-cbor2)

# The pins of a lock file, "name==version" one a line (markers and hashes left out).
lock_pins() { sed -n 's/^\([A-Za-z0-9._-]*==[^ ;\\]*\).*/\1/p' "$1"; }

# The lock without the packages named (their lines and hash lines): they come from elsewhere.
lock_without() {  # LOCK NAME...
    local lock=$1
    shift
    awk -v names=" $* " '/^[A-Za-z0-9]/ { split($1, a, "=="); skip = index(names, " " tolower(a[1]) " ") > 0 }
        !skip' "$lock"
}
