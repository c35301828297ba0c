"""The whole reference firmware (zt_board.build + run) on CPython, its hardware emulated.

machine, neopixel, sys, select and time are stand-ins: the SPI bus reaches emulated MFRC522s
(test_firmware_mfrc522.FakeChip) through an emulated 74HC595 chain, and the USB serial line is
a byte queue read back with the host's parser.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from drivers.reader import protocol as host
from tests.firmware.test_mfrc522 import FakeBus, FakeChip, FakeTag, Pixels, ShiftChain

FIRMWARE = Path(__file__).resolve().parents[2] / "deploy" / "firmware"
sys.path.insert(0, str(FIRMWARE))

import zt_board  # noqa: E402
import zt_config  # noqa: E402


class Board:
    """Stand-ins for the MicroPython modules zt_board.build needs, wired to emulated chips."""

    def __init__(self):
        self.chips = [FakeChip() for _ in range(zt_config.ANTENNAS)]
        self.chain = ShiftChain(zt_config.ANTENNAS)
        self.names = {zt_config.SHIFT_DATA: "data", zt_config.SHIFT_CLOCK: "clock",
                      zt_config.SHIFT_LATCH: "latch", zt_config.SHIFT_ENABLE: "enable"}
        self.pins: dict[object, object] = {}
        self.inbox = bytearray()
        self.outbox = bytearray()
        self.now = 0
        self.watchdog: list[int] = []
        self.pixels: Pixels | None = None
        self.bus: FakeBus | None = None
        self.machine = self._machine()

    def _machine(self):
        board = self

        class Pin:
            OUT = 1

            def __new__(cls, ident, mode=None, value=None):
                name = board.names.get(ident)
                pin = board.chain.pin(name) if name else _Level()
                if value is not None:
                    pin.value(value)
                board.pins[ident] = pin
                return pin

        class SPI:
            def __new__(cls, ident, **kw):
                assert kw["baudrate"] == zt_config.SPI_BAUD and kw["polarity"] == 0 and kw["phase"] == 0
                board.bus = FakeBus(board.chips, board.chain.selected)
                return board.bus

        class WDT:
            def __init__(self, timeout):
                assert timeout <= 8388  # the RP2040's longest
                board.watchdog.append(0)

            def feed(self):
                board.watchdog[-1] += 1

        return type("machine", (), {"Pin": Pin, "SPI": SPI, "WDT": WDT})

    def modules(self):
        board = self

        class NeoPixel(Pixels):
            def __init__(self, pin, n):
                super().__init__(n)
                board.pixels = self

        class Stdin:
            buffer = type("In", (), {"read": lambda self, n: board._take(n)})()

        class Stdout:
            buffer = type("Out", (), {"write": lambda self, b: board.outbox.extend(b)})()

        class Poll:
            def register(self, obj, mask):
                assert obj is Stdin

            def poll(self, timeout):
                return [(Stdin, 1)] if board.inbox else []

        time = type("time", (), {
            "sleep_ms": staticmethod(lambda ms: None),
            "ticks_ms": staticmethod(lambda: board.now),
            "ticks_diff": staticmethod(lambda a, b: a - b),
            "ticks_add": staticmethod(lambda a, b: a + b),
        })
        neopixel = type("neopixel", (), {"NeoPixel": NeoPixel})
        sys_module = type("sys", (), {"stdin": Stdin, "stdout": Stdout})
        select = type("select", (), {"poll": Poll, "POLLIN": 1})
        return neopixel, sys_module, select, time

    def _take(self, n: int) -> bytes:
        data = bytes(self.inbox[:n])
        del self.inbox[:n]
        return data

    def frames(self) -> list[dict]:
        parser = host.FrameParser()
        msgs = parser.feed(bytes(self.outbox))
        assert parser.rejected == {}
        self.outbox.clear()
        return msgs


class _Level:
    def __init__(self):
        self.level = 0

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v


@pytest.fixture
def board():
    b = Board()
    neopixel, sys_module, select, time = b.modules()
    b.parts = zt_board.build(b.machine, neopixel, sys_module, select, time)
    return b


def test_the_firmware_runs_on_emulated_hardware(board: Board):
    controller, link, status = board.parts
    assert board.pins[zt_config.RESET].value() == 1  # readers out of reset
    board.chips[0].tags = [FakeTag("04A1B2C3D4E5F6")]
    board.chips[40].tags = [FakeTag("1A2B3C4D"), FakeTag("CAFEF00D")]
    board.chips[12].version = 0x00
    board.chips[12].reset()
    zt_board.run(board.machine, controller, link, status, lambda: board.now, turns=zt_config.ANTENNAS)
    msgs = board.frames()
    assert msgs[0] == {"type": "HI", "id": 0, "ver": 2, "fw": "zt-pico-1.1", "ants": 41, "seq": 0}
    events = {(m["ant"], m["uid"]) for m in msgs if m["type"] == "ADD"}
    assert events == {(0, "04A1B2C3D4E5F6"), (40, "1A2B3C4D"), (40, "CAFEF00D")}
    assert {"type": "ERR", "code": "ANT", "detail": "12 no answer from reader chip"} in msgs
    assert [m for m in msgs if m["type"] == "HB"] == [{"type": "HB", "seq": 1}]  # due after the first scan
    assert board.watchdog == [] and board.chain.selected() == []  # no host yet: no watchdog

    board.inbox += b"\n" + host.encode({"type": "HELLO", "id": 1, "ver": 1})
    board.inbox += host.encode({"type": "LED", "id": 2, "ant": 40, "rgb": "FF0000"})
    board.inbox += host.encode({"type": "INVQ", "id": 3})
    board.now = 1000
    zt_board.run(board.machine, controller, link, status, lambda: board.now, turns=3)
    msgs = board.frames()
    kinds = [m["type"] for m in msgs]
    assert kinds[:7] == ["HI", "HI", "ACK", "INV", "INV", "INV", "END"]
    assert msgs[6] == {"type": "END", "id": 3, "count": 3, "seq": 3}
    assert board.pixels[40] == (int(255 * zt_config.BRIGHTNESS), 0, 0)
    assert status.value() == 1 and board.watchdog and board.watchdog[-1] >= 1

    board.chips[0].tags = []
    zt_board.run(board.machine, controller, link, status, lambda: board.now, turns=zt_config.ANTENNAS * 3)
    assert {"type": "DEL", "seq": 4, "ant": 0, "uid": "04A1B2C3D4E5F6"} in board.frames()
    board.now = 10000  # the host went quiet: the status LED blinks
    zt_board.run(board.machine, controller, link, status, lambda: board.now, turns=1)
    assert status.value() == 0


def test_pin_selects_from_the_config(monkeypatch):
    monkeypatch.setattr(zt_config, "CS_MODE", "pins")
    monkeypatch.setattr(zt_config, "CS_PINS", (10, 11, 12))
    made = []

    class Pin:
        OUT = 1

        def __init__(self, ident, mode=None, value=None):
            self.level = value
            made.append(self)

        def value(self, v=None):
            self.level = v

    sel = zt_board.build_selector(type("machine", (), {"Pin": Pin}))
    assert isinstance(sel, zt_board.PinSelect) and [p.level for p in made] == [1, 1, 1]
    sel.address(1)
    sel.strobe(True)
    assert [p.level for p in made] == [1, 0, 1]


def test_main_py_starts_the_board():
    text = (FIRMWARE / "main.py").read_text()
    assert "import zt_board" in text and text.rstrip().endswith("zt_board.main()")


def test_the_reader_names_itself_on_usb_so_udev_matches_it_and_no_other_pico():
    calls = []

    class Builtin:
        desc_dev, desc_cfg = b"dev", b"cfg"

    class USBDevice:
        BUILTIN_DEFAULT = Builtin

        def active(self, on):
            calls.append(("active", on))

        def config(self, desc_dev, desc_cfg, desc_strs=None):
            calls.append(("config", desc_dev, desc_cfg, desc_strs))

    assert zt_board.usb_identity(type("machine", (), {"USBDevice": USBDevice}))
    assert calls == [("active", False), ("config", b"dev", b"cfg", {2: "zebra-table reader"}), ("active", True)]
    assert not zt_board.usb_identity(type("machine", (), {}))  # MicroPython < 1.23: nothing to do
    rule = (FIRMWARE.parent / "99-zebra-table-reader.rules").read_text()
    assert f'ATTRS{{product}}=="{zt_board.USB_PRODUCT}"' in rule
