#!/usr/bin/env bash
# Builds the table's Debian package with dpkg-deb: the source tree in /usr/share/zebra-table/src,
# and maintainer scripts that run its deploy/install.sh (one set of install steps for both):
#   apt install ./zebra-table_VERSION_ARCH.deb    = deploy/install.sh (nothing apt-installed inside)
#   apt remove zebra-table                        = deploy/install.sh --uninstall
#   apt purge zebra-table                         = deploy/install.sh --uninstall --purge
#   deploy/build-deb.sh [--arch amd64|arm64|armhf] [--wheelhouse DIR] [--out DIR]
# --wheelhouse: the package carries those wheels (deploy/wheelhouse.sh DIR ARCH) and installs
# offline; without it the libraries come from PyPI at install time, as the lock says.
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "build-deb.sh: $*" >&2; exit 1; }
arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
wheels=""
out=$SRC/dist
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) arch=${2:?--arch needs amd64, arm64 or armhf}; shift ;;
        --wheelhouse) wheels=${2:?--wheelhouse needs a directory}; shift ;;
        --out) out=${2:?--out needs a directory}; shift ;;
        *) die "unknown option: $1 (see the head of this script)" ;;
    esac
    shift
done
case "$arch" in amd64 | arm64 | armhf) ;; *) die "--arch: amd64, arm64 or armhf, not $arch" ;; esac
command -v dpkg-deb >/dev/null || die "needs dpkg-deb (Debian's dpkg)"
if [ -n "$wheels" ]; then
    compgen -G "$wheels/*.whl" >/dev/null || die "--wheelhouse $wheels: no wheels (deploy/wheelhouse.sh $wheels $arch)"
fi
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$SRC/pyproject.toml" | head -n 1)
[ -n "$version" ] || die "no version in pyproject.toml"
depends="python3 (>= 3.11), python3-venv, fonts-dejavu-core, i2c-tools, passwd, systemd"
# 32-bit: PyPI has no armv7l wheels of Pillow and cbor2 (deploy/locks.sh)
if [ "$arch" = armhf ]; then depends+=", python3-pil, python3-cbor2"; fi

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
share=$tree/usr/share/zebra-table
mkdir -p "$share/src" "$tree/DEBIAN" "$tree/usr/share/doc/zebra-table"
tar -C "$SRC" --exclude=__pycache__ --exclude='*.pyc' -cf - \
    pyproject.toml README.md firmware_host drivers games hw_tests deploy | tar -C "$share/src" -xf -
rm -rf "$share/src/deploy/debian"
if [ -n "$wheels" ]; then mkdir "$share/wheels" && cp "$wheels"/*.whl "$share/wheels/"; fi
cp "$SRC/README.md" "$tree/usr/share/doc/zebra-table/README.md"
size=$(du -sk "$tree/usr" | cut -f1)
cat >"$tree/DEBIAN/control" <<CONTROL
Package: zebra-table
Version: $version
Architecture: $arch
Maintainer: zebra-table <zebra-table@localhost>
Installed-Size: $size
Depends: $depends
Recommends: python3-lgpio
Section: games
Priority: optional
Description: smart game table: NFC-sensed pieces, a screen per seat, five games refereed
 The table's service (zebra-table.service), its config /etc/zebra-table/table.toml and its data
 /var/lib/zebra-table, installed by deploy/install.sh into /opt/zebra-table; the Python
 libraries at the versions of deploy/requirements.lock.
CONTROL
for script in postinst prerm postrm; do install -m 0755 "$SRC/deploy/debian/$script" "$tree/DEBIAN/$script"; done
mkdir -p "$out"
deb=$out/zebra-table_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$tree" "$deb" >/dev/null
echo "build-deb.sh: $deb"
