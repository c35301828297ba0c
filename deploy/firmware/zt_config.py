"""The reader controller's wiring (docs/hardware.md, "Reader controller"): edit to match yours.

GP numbers are the Pico's GPIO numbers, not its pin numbers.
"""

# Readers: how many antennas (one MFRC522 each). Reader i is antenna i of the protocol; the
# table's config maps antennas to zones (deploy/table.example.toml: board 0-29, seat pads
# 30-35, centre slots 36-40).
ANTENNAS = 41

# The shared SPI bus (SPI0 on GP2 SCK, GP3 MOSI, GP4 MISO). Keep it slow: 41 modules on one
# bus make long wires and a heavy load.
SPI_ID = 0
SPI_BAUD = 1000000
SCK, MOSI, MISO = 2, 3, 4
RESET = 5  # every reader's RST, held high while running

# Chip selects: "shift" = a chain of 74HC595 shift registers, output i (chip i // 8, Q(i % 8))
# to reader i's SDA/NSS, each with a 10 kOhm pull-up to 3.3 V; their OE pin (pulled up) frames
# each transfer. "pins" = one GP pin per reader, listed in CS_PINS (small tables only).
CS_MODE = "shift"
SHIFT_DATA, SHIFT_CLOCK, SHIFT_LATCH, SHIFT_ENABLE = 6, 7, 8, 9
CS_PINS = ()

# Scanning.
MISSES = 3  # consecutive missed scans before a tag counts as gone
SETTLE_MS = 5  # wait after an antenna comes on before talking to the tags (ISO 14443-3)
MAX_TAGS = 4  # tags read per antenna per scan (cards stacked on a seat pad)
GAIN = 0x05  # receiver gain 0x00-0x07 (0x04 = chip default 33 dB, 0x07 = 48 dB)

# WS2812 LEDs, one per antenna, chained from GP LED_PIN. LED_ORDER[i] = the LED under antenna
# i when the chain does not follow the antenna numbers (empty = LED i under antenna i).
LED_PIN = 16
LED_COUNT = ANTENNAS
LED_ORDER = ()
BRIGHTNESS = 0.25  # 41 LEDs at full white draw 2.5 A; a quarter is bright enough under a board

# Status LED: on while the host talks, blinking when it is silent.
STATUS_LED = "LED"
