#!/usr/bin/env bash
# Copies the reader controller firmware to a Raspberry Pi Pico that runs MicroPython.
#   deploy/firmware/flash.sh [--config FILE] [DEVICE]
# FILE replaces zt_config.py (your wiring); DEVICE is mpremote's (e.g. /dev/ttyACM0; default:
# the first board found). Needs mpremote (pip install mpremote). The table service holds the
# port while it runs: stop it first (sudo systemctl stop zebra-table).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
config="$here/zt_config.py"
device=()
while [ $# -gt 0 ]; do
    case "$1" in
        --config) config=${2:?--config needs a file}; shift ;;
        -h | --help) sed -n '2,6p' "$0"; exit 0 ;;
        -*) echo "flash.sh: unknown option $1" >&2; exit 2 ;;
        *) device=(connect "$1") ;;
    esac
    shift
done
[ -f "$config" ] || { echo "flash.sh: no config file $config" >&2; exit 2; }
command -v mpremote >/dev/null || { echo "flash.sh: needs mpremote: pip install mpremote" >&2; exit 1; }
if command -v systemctl >/dev/null && systemctl is-active --quiet zebra-table 2>/dev/null; then
    echo "flash.sh: the zebra-table service holds the port: sudo systemctl stop zebra-table" >&2
    exit 1
fi

# protocol.py is the host's codec (a link to drivers/reader/protocol.py); main.py goes last so a
# board never boots a new main.py with old modules.
args=(cp "$here/protocol.py" :protocol.py + cp "$config" :zt_config.py)
for module in zt_device.py zt_mfrc522.py zt_board.py main.py; do
    args+=(+ cp "$here/$module" ":$module")
done
mpremote "${device[@]}" "${args[@]}" + reset
echo "Flashed. The board restarts and announces itself to the table (HI)."
