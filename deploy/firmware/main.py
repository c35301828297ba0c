"""Reader controller firmware for the table (docs/protocol.md): runs at power-on.

Flash MicroPython on a Raspberry Pi Pico, then copy this folder's .py files to it
(deploy/firmware/flash.sh). The wiring is in zt_config.py and docs/hardware.md.
"""

import zt_board

zt_board.main()
