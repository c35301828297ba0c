"""docs/hardware.md agrees with what it documents: the example config, the firmware's wiring,
install.sh and the unit."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from firmware_host.storage.config import load_config

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "hardware.md").read_text()
EXAMPLE = load_config(ROOT / "deploy" / "table.example.toml")
# BCM GPIO -> pin of the 40-pin header (Raspberry Pi pinout)
HEADER = {2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32, 13: 33, 14: 8,
          15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22,
          26: 37, 27: 13}


def rows(first_header: str) -> list[list[str]]:
    """The body rows of the markdown table whose header starts with `first_header`."""
    lines = DOC.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    out = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        out.append([cell.strip() for cell in line.strip("|").split("|")])
    return out


def test_seat_wiring_table_is_the_example_config():
    table = rows("seat")
    assert [int(r[0]) for r in table] == [s.id for s in EXAMPLE.seats]
    for row, seat in zip(table, EXAMPLE.seats):
        for cell, name in zip(row[1:4], ("left", "right", "ok")):
            gpio, pin = map(int, re.fullmatch(r"GPIO(\d+) \(pin (\d+)\)", cell).groups())
            assert gpio == seat.buttons[name] and pin == HEADER[gpio], (seat.id, name, cell)
        assert seat.screen.driver in row[4]
        assert ("rotation = 2" in row[4]) == (seat.screen.rotation == 2)


def test_pi_pins_and_buzzer():
    table = {r[0]: r for r in rows("what")}
    assert table["buzzer (GPIO18)"][1] == f"pin {HEADER[EXAMPLE.buzzer_pin]}" and EXAMPLE.buzzer_pin == 18
    assert table["I2C SDA (GPIO2)"][1] == "pin 3" and table["I2C SCL (GPIO3)"][1] == "pin 5"


def test_pico_wiring_table_is_the_firmware_config():
    sys.path.insert(0, str(ROOT / "deploy" / "firmware"))
    try:
        import zt_config as c
    finally:
        sys.path.remove(str(ROOT / "deploy" / "firmware"))
    pico = {r[0].split(" ")[0]: r[1] for r in rows("Pico")}
    want = {c.SCK: "SCK", c.MOSI: "MOSI", c.MISO: "MISO", c.RESET: "RST", c.SHIFT_DATA: "DS",
            c.SHIFT_CLOCK: "SHCP", c.SHIFT_LATCH: "STCP", c.SHIFT_ENABLE: "OE", c.LED_PIN: "DIN"}
    for gp, word in want.items():
        assert word in pico[f"GP{gp}"], (gp, word)
    assert c.CS_MODE == "shift" and c.ANTENNAS == len(EXAMPLE.antennas) == 41
    assert f"| {c.ANTENNAS} | MFRC522" in DOC and f"| {c.ANTENNAS} | WS2812B" in DOC


def test_boot_config_block_is_what_install_sh_writes():
    block = re.search(r"```\n(\[all\]\n.*?)```", DOC, re.S).group(1).splitlines()
    script = (ROOT / "deploy" / "install.sh").read_text()
    assert block[:3] == ["[all]", "dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000"]
    assert "[all]\\ndtparam=i2c_arm=on\\ndtparam=i2c_arm_baudrate=400000\\n" in script
    assert block[3] == "dtoverlay=i2c-mux,pca9548,addr=0x70"
    assert "dtoverlay=i2c-mux,pca9548,addr=%s" in script and "MUX=0x70" in script


def test_install_section_names_what_install_sh_installs():
    script = (ROOT / "deploy" / "install.sh").read_text()
    packages = re.search(r"^readonly PACKAGES=\((.*)\)$", script, re.M).group(1)
    assert f"`{packages}`" in DOC
    constants = dict(re.findall(r"^readonly ([A-Z]+)=((?:/|\$OPT/)\S+)$", script, re.M))
    paths = {name: value.replace("$OPT", constants["OPT"]) for name, value in constants.items()}
    assert set(paths) >= {"OPT", "VENV", "ETC", "DATA", "UNIT", "RULE", "ENVFILE", "MODULES", "LINK"}
    for name, path in paths.items():
        assert path in DOC, (name, path)
    assert f"{paths['ETC']}/table.toml" in DOC
    for option in ("--uninstall", "--purge", "--dry-run", "--uart", "--i2c-mux", "--reader-serial"):
        assert option in DOC and option in script, option
    unit = (ROOT / "deploy" / "zebra-table.service").read_text()
    assert "WatchdogSec=30s" in unit and "`WatchdogSec=30s`" in DOC
