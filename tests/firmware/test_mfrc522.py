"""The reference firmware's MFRC522 driver and chip selects against an emulated chip and tags.

FakeChip emulates the MFRC522 registers, FIFO and Transceive command, and ISO 14443A tags
(REQA, anticollision with bit collisions, SELECT cascade, HLTA). FakeBus is the shared SPI bus:
it routes each transfer to the one chip whose chip select is low, and fails if several are.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "deploy" / "firmware"
sys.path.insert(0, str(FIRMWARE))

import zt_board  # noqa: E402
import zt_mfrc522 as rc  # noqa: E402

SEL = (0x93, 0x95, 0x97)


def bits_of(data: bytes) -> list[int]:
    """Bits in transmission order: each byte least significant bit first."""
    return [(b >> i) & 1 for b in data for i in range(8)]


def pack(bits: list[int], align: int) -> bytes:
    """Received bits as the FIFO holds them: the first stored at bit `align` of byte 0."""
    stream = [0] * align + bits
    return bytes(sum(bit << i for i, bit in enumerate(stream[k:k + 8])) for k in range(0, len(stream), 8))


class FakeTag:
    """An ISO 14443A tag with a 4-, 7- or 10-byte UID."""

    def __init__(self, uid: str):
        self.uid = bytes.fromhex(uid)
        assert len(self.uid) in (4, 7, 10)
        self.levels = {4: 1, 7: 2, 10: 3}[len(self.uid)]
        self.state = "OFF"
        self.level = 0

    def cl(self, level: int) -> bytes:
        """UID CLn of a cascade level with its BCC."""
        u = self.uid
        parts = {1: [u], 2: [b"\x88" + u[:3], u[3:]], 3: [b"\x88" + u[:3], b"\x88" + u[3:6], u[6:]]}[self.levels]
        part = parts[level]
        return part + bytes([part[0] ^ part[1] ^ part[2] ^ part[3]])

    def sak(self, level: int) -> int:
        return 0x04 if level < self.levels - 1 else 0x00


class FakeChip:
    """The registers, FIFO and radio of one MFRC522 with tags on its antenna."""

    def __init__(self, version: int = 0x92):
        self.version = version
        self.regs = bytearray(64)
        self.fifo: list[int] = []
        self.tags: list[FakeTag] = []
        self.dead = False
        self.field_ons = 0
        self.reset()

    def reset(self) -> None:
        self.regs = bytearray(64)
        self.regs[rc.VERSION] = self.version
        self.regs[rc.COLL] = 0x80
        self.fifo = []
        self._field(False)

    @property
    def field(self) -> bool:
        return self.regs[rc.TX_CONTROL] & 0x03 == 0x03

    def _field(self, on: bool) -> None:
        for tag in self.tags:
            tag.state = "IDLE" if on else "OFF"  # a tag without field loses its state
        if on:
            self.field_ons += 1

    def transfer(self, tx: bytes) -> bytes:
        """One SPI transfer (CS low): address byte, then data."""
        if self.dead:
            return bytes(len(tx))
        reg = (tx[0] >> 1) & 0x3F
        assert tx[0] & 0x01 == 0, "bit 0 of an address byte must be 0"
        if tx[0] & 0x80:
            return bytes([0, self.read(reg)])
        self.write(reg, tx[1])
        return bytes(len(tx))

    def read(self, reg: int) -> int:
        if reg == rc.FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == rc.FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def write(self, reg: int, value: int) -> None:
        if reg == rc.COMMAND:
            if value & 0x0F == rc.SOFT_RESET:
                self.reset()
                return
            self.regs[reg] = value & 0x0F
        elif reg == rc.COM_IRQ:
            mask = value & 0x7F
            self.regs[reg] = self.regs[reg] | mask if value & 0x80 else self.regs[reg] & ~mask
        elif reg == rc.FIFO_LEVEL:
            if value & 0x80:
                self.fifo = []
        elif reg == rc.FIFO_DATA:
            self.fifo.append(value)
        elif reg == rc.TX_CONTROL:
            was = self.field
            self.regs[reg] = value
            if self.field != was:
                self._field(self.field)
        elif reg == rc.BIT_FRAMING:
            self.regs[reg] = value
            if value & 0x80 and self.regs[rc.COMMAND] == rc.TRANSCEIVE:
                self._transceive()
        else:
            self.regs[reg] = value

    def _transceive(self) -> None:
        frame, self.fifo = bytes(self.fifo), []
        framing = self.regs[rc.BIT_FRAMING]
        self.regs[rc.ERROR] = 0
        answer = self._answer(frame, framing & 0x07, (framing >> 4) & 0x07) if self.field else None
        if answer is None:
            self.regs[rc.COM_IRQ] |= 0x01  # TimerIRq: nobody answered
            return
        data, collision, last_bits = answer
        self.fifo = list(data)
        self.regs[rc.CONTROL] = last_bits
        self.regs[rc.COM_IRQ] |= 0x30
        if collision:
            self.regs[rc.ERROR] |= 0x08 | 0x02  # CollErr, and the parity of that byte is off too
            self.regs[rc.COLL] = (self.regs[rc.COLL] & 0x80) | (collision & 0x1F)

    def _answer(self, frame: bytes, tx_bits: int, align: int):
        if tx_bits == 7 and len(frame) == 1 and frame[0] in (0x26, 0x52):
            woken = [t for t in self.tags if t.state == "IDLE" or (frame[0] == 0x52 and t.state == "HALT")]
            for t in woken:
                t.state, t.level = "READY", 0
            return (bytes([0x44 if woken[0].levels > 1 else 0x04, 0]), 0, 0) if woken else None
        if frame[:2] == rc.HLTA and len(frame) == 4:
            assert rc.crc_a(frame[:2]) == frame[2:], "HLTA with a bad CRC"
            for t in self.tags:
                if t.state == "ACTIVE":
                    t.state = "HALT"
            return None
        if not frame or frame[0] not in SEL:
            return None
        level, nvb = SEL.index(frame[0]), frame[1]
        ready = [t for t in self.tags if t.state == "READY" and t.level == level]
        if nvb == 0x70:
            assert len(frame) == 9 and rc.crc_a(frame[:7]) == frame[7:], "SELECT with a bad CRC"
            chosen = [t for t in ready if t.cl(level) == frame[2:7]]
            for t in ready:
                if t not in chosen:
                    t.state = "IDLE"
            if not chosen:
                return None
            sak = chosen[0].sak(level)
            for tag in chosen:  # tags sharing this UID CLn all go on to the next level
                if tag.sak(level) & 0x04:
                    tag.level += 1
                else:
                    tag.state = "ACTIVE"
            return bytes([sak]) + rc.crc_a(bytes([sak])), 0, 0
        known = ((nvb >> 4) - 2) * 8 + (nvb & 0x07)
        assert align == known % 8 and tx_bits == known % 8, "RxAlign/TxLastBits must match NVB"
        prefix = bits_of(frame[2:])[:known]
        matching = [t for t in ready if bits_of(t.cl(level))[:known] == prefix]
        if not matching:
            return None
        rest = [bits_of(t.cl(level))[known:] for t in matching]
        received, collision = [], 0
        zero_after = not self.regs[rc.COLL] & 0x80
        for i in range(40 - known):
            column = {r[i] for r in rest}
            if collision and zero_after:
                received.append(0)
            elif len(column) > 1:
                collision = i + 1  # CollPos counts the bits received in this frame
                received.append(1)
            else:
                received.append(column.pop())
        return pack(received, align), collision, (align + len(received)) % 8


class FakeBus:
    """The shared SPI bus: each transfer goes to the chip whose select is active."""

    def __init__(self, chips: list[FakeChip], selected):
        self.chips = chips
        self.selected = selected  # () -> list of selected chip indexes
        self.transfers = 0

    def _chip(self) -> FakeChip:
        sel = self.selected()
        assert len(sel) == 1, f"chip selects active during a transfer: {sel}"
        self.transfers += 1
        return self.chips[sel[0]]

    def write(self, buf: bytes) -> None:
        self._chip().transfer(bytes(buf))

    def write_readinto(self, tx: bytes, rx: bytearray) -> None:
        rx[:] = self._chip().transfer(bytes(tx))


class SimpleSelect:
    """A selector for one bus of chips: address() then strobe()."""

    def __init__(self):
        self.index = 0
        self.active = False

    def address(self, index: int) -> None:
        assert not self.active, "address changed during a transfer"
        self.index = index

    def strobe(self, on: bool) -> None:
        self.active = on

    def selected(self) -> list[int]:
        return [self.index] if self.active else []


def reader(chip: FakeChip, **kw) -> rc.MFRC522:
    sel = SimpleSelect()
    bus = FakeBus([chip], sel.selected)
    return rc.MFRC522(bus, sel, 0, lambda ms: None, **kw)


def test_crc_a_known_values():
    assert rc.crc_a(b"\x50\x00") == b"\x57\xCD"  # HLTA as every reader sends it
    assert rc.crc_a(b"\x00") == bytes((0xFE, 0x51))  # a SAK of 0
    assert rc.hex_uid(b"\x04\xa1\x0f") == "04A10F"


@pytest.mark.parametrize("uid", ["DEADBEEF", "04A1B2C3D4E5F6", "0102030405060708090A"])
def test_reads_4_7_and_10_byte_uids(uid):
    chip = FakeChip()
    chip.tags = [FakeTag(uid)]
    r = reader(chip)
    assert r.scan() == [uid]
    assert not chip.field  # the antenna is off between scans
    assert r.scan() == [uid]  # the field went off: the halted tag answers again
    assert chip.field_ons == 2


def test_empty_antenna_and_init_settings():
    chip = FakeChip()
    r = reader(chip)
    assert r.scan() == []
    assert chip.regs[rc.MODE] == 0x3D and chip.regs[rc.TX_ASK] == 0x40 and chip.regs[rc.T_RELOAD_L] == 40
    assert chip.regs[rc.RF_CFG] == 0x50 and not chip.field


@pytest.mark.parametrize("uids", [
    ["04A1B2C3D4E5F6", "04A1B2C3D4E5F7"],  # 7-byte UIDs differing in the last bit only
    ["DEADBEEF", "DEADBEEE", "1EADBEEF"],  # three at once: two collisions at one level
    ["04112233445566", "04112233445567", "04112233445565", "0411223344556E"],
    ["DEADBEEF", "04A1B2C3D4E5F6"],  # a 4-byte and a 7-byte tag
])
def test_several_tags_on_one_antenna_are_all_read(uids):
    chip = FakeChip()
    chip.tags = [FakeTag(u) for u in uids]
    assert sorted(reader(chip).scan()) == sorted(uids)


def test_max_tags_bounds_a_scan():
    chip = FakeChip()
    chip.tags = [FakeTag(f"DEADBE{i:02X}") for i in range(6)]
    assert len(reader(chip, max_tags=4).scan()) == 4


@pytest.mark.parametrize("version, message", [(0x00, "no answer from reader chip"),
                                              (0xFF, "no answer from reader chip"),
                                              (0x42, "unknown reader chip version 0x42")])
def test_absent_or_foreign_chip_raises(version, message):
    chip = FakeChip(version=version)
    with pytest.raises(rc.ChipError, match=message):
        reader(chip).scan()


def test_a_chip_that_dies_raises_and_is_reset_when_back():
    chip = FakeChip()
    chip.tags = [FakeTag("DEADBEEF")]
    r = reader(chip)
    assert r.scan() == ["DEADBEEF"]
    chip.dead = True
    with pytest.raises(rc.ChipError):
        r.scan()
    assert not r.ready
    chip.dead = False
    chip.reset()  # a brown-out: the registers are back to their defaults
    assert r.scan() == ["DEADBEEF"] and r.ready and chip.regs[rc.MODE] == 0x3D


class Pins:
    """GPIO pins that remember their level and every write."""

    def __init__(self):
        self.level: dict[str, int] = {}
        self.writes = 0

    def pin(self, name: str):
        pins = self

        class Pin:
            def value(self, v=None):
                if v is None:
                    return pins.level.get(name, 0)
                pins.writes += 1
                was = pins.level.get(name, 0)
                pins.level[name] = v
                pins.edge(name, was, v)

        return Pin()

    def edge(self, name: str, was: int, now: int) -> None:
        pass


class ShiftChain(Pins):
    """74HC595s in a chain: shift on the clock's rising edge, copy on the latch's, OE low = drive."""

    def __init__(self, outputs: int):
        super().__init__()
        self.shift = [1] * outputs
        self.out = [1] * outputs

    def edge(self, name: str, was: int, now: int) -> None:
        if name == "clock" and not was and now:
            self.shift = [self.level.get("data", 0)] + self.shift[:-1]
        if name == "latch" and not was and now:
            self.out = list(self.shift)

    def selected(self) -> list[int]:
        if self.level.get("enable", 1):
            return []  # outputs float: the pull-ups hold every chip select high
        return [i for i, v in enumerate(self.out) if v == 0]


def test_shift_register_selects_each_reader_of_a_chain():
    n = 20
    chain = ShiftChain(n)
    sel = zt_board.ShiftSelect(chain.pin("data"), chain.pin("clock"), chain.pin("latch"), chain.pin("enable"), n)
    chips = [FakeChip() for _ in range(n)]
    for i in (0, 7, 8, 19):
        chips[i].tags = [FakeTag(f"0A0B0C{i:02X}")]
    bus = FakeBus(chips, chain.selected)
    readers = [rc.MFRC522(bus, sel, i, lambda ms: None) for i in range(n)]
    found = {i: r.scan() for i, r in enumerate(readers)}
    assert found == {i: ([f"0A0B0C{i:02X}"] if i in (0, 7, 8, 19) else []) for i in range(n)}
    writes = chain.writes
    readers[19].scan()  # same reader again: no shifting, only OE strobes
    assert chain.writes - writes < 2 * bus.transfers
    assert chain.selected() == []


def test_pin_select_one_gpio_per_reader():
    pins = Pins()
    sel = zt_board.PinSelect([pins.pin(f"cs{i}") for i in range(3)])

    def selected() -> list[int]:
        return [i for i in range(3) if pins.level[f"cs{i}"] == 0]

    chips = [FakeChip() for _ in range(3)]
    chips[2].tags = [FakeTag("CAFEF00D")]
    bus = FakeBus(chips, selected)
    assert [rc.MFRC522(bus, sel, i, lambda ms: None).scan() for i in range(3)] == [[], [], ["CAFEF00D"]]
    assert selected() == []


class Pixels(list):
    """A NeoPixel stand-in: a list of colours and a write counter."""

    def __init__(self, n: int):
        super().__init__([(0, 0, 0)] * n)
        self.writes = 0

    def write(self) -> None:
        self.writes += 1


def test_strip_scales_maps_and_writes_only_changes():
    px = Pixels(4)
    strip = zt_board.Strip(px, 4, order=(3, 2, 1, 0), brightness=0.5)
    strip.set(0, (255, 128, 0))
    strip.show()
    strip.show()
    assert px[3] == (127, 64, 0) and px.writes == 1
    strip.set(9, (1, 1, 1))  # no such LED: ignored
    strip.off()
    strip.show()
    assert set(px) == {(0, 0, 0)} and px.writes == 2
