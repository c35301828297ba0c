"""Partial updates straight on smbus2's I2C_RDWR: the same transactions as through luma's i2c
interface, the same errors, and a screen unplugged on that path fails and recovers as before."""

from __future__ import annotations

import errno
import random

import pytest
import smbus2
from luma.core.error import DeviceNotFoundError
from luma.core.interface.serial import i2c
from PIL import Image, ImageDraw

from drivers.i2c_sim import OledRam, SimI2C
from drivers.luma_internals import i2c_bus, send_as_managed
from drivers.oled_updates import FRAME, WIDTH, PanelWriter, changed_columns, pack, ssd1306_windows
from drivers.screen_bank import ScreenBank
from drivers.screens import FRAME_BYTES, ScreenSpec
from firmware_host.loop.simulator import FakeClock

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


class WireLog:
    """An smbus2-like bus that records each I2C transaction as (address, bytes after it), and can
    fail the transactions starting with one control byte."""

    def __init__(self, fail: tuple[int, int] | None = None) -> None:
        self.transactions: list[tuple[int, bytes]] = []
        self.calls: list[str] = []
        self.fail = fail  # (control byte, errno)

    def _write(self, address: int, payload: bytes) -> None:
        if self.fail is not None and payload[0] == self.fail[0]:
            raise OSError(self.fail[1], "I/O failure")
        self.transactions.append((address, payload))

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self.calls.append("block")
        self._write(address, bytes([register, *data]))

    def i2c_rdwr(self, *messages: smbus2.i2c_msg) -> None:
        self.calls.append("rdwr")
        assert len(messages) == 1  # several would be one transfer with repeated starts: not luma's wire
        self._write(messages[0].addr, bytes(messages[0]))

    def close(self) -> None:
        pass


def serial_on(bus: WireLog, address: int = 0x3C) -> i2c:
    """luma's i2c on `bus`, writing data through I2C_RDWR as on the table's smbus2 bus."""
    serial = i2c(bus=bus, address=address)
    send_as_managed(serial)
    return serial


def writers(driver: str, fail: tuple[int, int] | None = None) -> tuple[PanelWriter, PanelWriter]:
    """A writer on the lean path and one forced through luma's interface, each on its own bus."""
    lean = PanelWriter(driver, serial_on(WireLog(fail)), colstart=0)
    luma = PanelWriter(driver, serial_on(WireLog(fail)), colstart=0)
    assert lean._lean is not None
    luma._lean = None
    return lean, luma


def wire(writer: PanelWriter) -> WireLog:
    """The bus a writer's luma i2c writes to."""
    bus = i2c_bus(writer.serial)
    assert isinstance(bus, WireLog)
    return bus


def frames(n: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    frame = bytearray(rng.randbytes(FRAME))
    out = []
    for _ in range(n):
        for _ in range(rng.randrange(1, 6)):  # a few runs of changed columns on random pages
            page, col = rng.randrange(8), rng.randrange(WIDTH)
            for c in range(col, min(WIDTH, col + rng.randrange(1, 40))):
                frame[page * WIDTH + c] = rng.randrange(256)
        out.append(bytes(frame))
    return out


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_lean_path_puts_luma_s_transactions_on_the_wire(driver, seed):
    lean, luma = writers(driver)
    for frame in frames(40, seed):
        assert lean.send(frame) == luma.send(frame)
    assert wire(lean).transactions == wire(luma).transactions
    assert set(wire(lean).calls) == {"rdwr"}  # one I2C_RDWR message per transaction
    assert set(wire(luma).calls) == {"block", "rdwr"}  # luma: SMBus block commands, RDWR data


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_command_messages_kept_for_windows_that_come_back_write_the_same(driver, monkeypatch):
    monkeypatch.setattr("drivers.oled_updates.COMMAND_CACHE", 3)  # also cleared when full
    monkeypatch.setattr("drivers.oled_updates.WINDOW_CACHE", 2)  # and a panel's own windows too
    lean, luma = writers(driver)
    sequence = frames(6, 7)
    for frame in sequence * 4 + sequence[::-1] * 3:  # the same changes again and again
        assert lean.send(frame) == luma.send(frame)
    assert wire(lean).transactions == wire(luma).transactions
    assert 0 < len(lean._commands) <= 3 and len(lean._windows_sent) <= 2
    if driver == "ssd1306":  # the covers kept are the ones computed afresh
        for frame in sequence:
            assert lean.windows(frame) == ssd1306_windows(changed_columns(lean.sent, frame))


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@pytest.mark.parametrize(("control", "code"), [(0x00, errno.EREMOTEIO), (0x00, errno.EIO), (0x00, errno.ETIMEDOUT),
                                               (0x40, errno.EREMOTEIO), (0x40, errno.EIO)])
def test_failures_raise_what_luma_raises(driver, control, code):
    """A NACK or I/O error on a command is luma's DeviceNotFoundError; anything else, and any data
    failure, stays the bus's OSError."""
    lean, luma = writers(driver, fail=(control, code))
    raised = []
    for writer in (lean, luma):
        with pytest.raises(OSError if control == 0x40 or code == errno.ETIMEDOUT else DeviceNotFoundError) as exc:
            writer.send(bytes(FRAME))
        raised.append((type(exc.value), str(exc.value)))
        assert writer.sent is None  # the next send is whole
    assert raised[0] == raised[1]


def test_only_luma_s_i2c_writing_through_i2c_rdwr_takes_the_lean_path(mocker):
    assert PanelWriter("ssd1306", serial_on(WireLog()))._lean is not None
    assert PanelWriter("ssd1306", i2c(bus=WireLog()))._lean is None  # a handed bus: luma writes 32-byte blocks
    assert PanelWriter("ssd1306", mocker.Mock())._lean is None
    from luma.core.interface.serial import noop

    assert PanelWriter("ssd1306", noop())._lean is None


def test_the_simulated_bus_decodes_commands_sent_through_i2c_rdwr():
    sim = SimI2C()
    ram = sim.attach(2, 0x3C, "ssd1306")
    bus = sim.smbus(2)
    bus.i2c_rdwr(smbus2.i2c_msg.write(0x3C, bytes([0x00, 0x20, 0x00, 0x21, 10, 11, 0x22, 3, 4])))
    bus.i2c_rdwr(smbus2.i2c_msg.write(0x3C, bytes([0x40, 1, 2, 3, 4])))
    assert (ram.ram[3][10], ram.ram[3][11], ram.ram[4][10], ram.ram[4][11]) == (1, 2, 3, 4)
    assert isinstance(ram, OledRam) and sim.bytes_written[(2, 0x3C)] == 8 + 4


def picture(n: int, size: tuple[int, int] = (128, 64)) -> Image.Image:
    im = Image.new("1", size)
    ImageDraw.Draw(im).ellipse((n, 4, n + 30, 40), outline=1)
    ImageDraw.Draw(im).text((2, 44), f"frame {n}", fill=1)
    return im


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("background", [False, True])
def test_a_screen_unplugged_on_the_lean_path_fails_and_recovers_as_before(driver, background):
    sim, clock = SimI2C(), FakeClock(0.0)
    bank = ScreenBank({1: ScreenSpec(driver, bus=1), 2: ScreenSpec(driver, bus=2)}, sim.open_driver, clock=clock,
                      backoff=(1.0, 30.0), background=background, bus_of=lambda bus: bus)
    assert all(s._panel is not None and s._panel._lean is not None for s in bank.screens.values())
    bank.show(1, picture(0), owned=True)
    bank.flush()
    sim.unplug(1)
    bank.show(1, picture(3), owned=True)
    bank.show(2, picture(3), owned=True)
    bank.flush()
    changes = bank.poll(0.5)
    assert [(s.seat, s.state, s.error) for s in changes] == [(1, "failed", "I2C device not found on address: 0x3C")]
    assert bank[2].state == "ok" and sim.pixels(2).tobytes() == picture(3).tobytes()
    failures = bank[1].stats.failures
    assert bank.poll(0.9) == [] and bank[1].stats.failures == failures  # backing off: not retried yet
    bank.poll(1.0)  # due: the probe fails, the delay doubles
    bank.flush()
    assert bank[1].state == "failed" and bank[1].stats.failures == failures + 1
    assert bank.poll(2.9) == [] and bank[1].stats.failures == failures + 1
    sim.plug(1)  # powers up with garbage in its RAM
    written = sim.bytes_written[(1, 0x3C)]
    changes = bank.poll(3.0)  # reopened here, or asked of the writer and reported at the next poll
    bank.flush()
    assert [s.state for s in changes + bank.poll(3.0)] == ["ok"]
    assert bank[1].stats.recoveries == 1
    # luma's init clears the RAM, then the waiting picture goes whole
    assert sim.bytes_written[(1, 0x3C)] - written >= 2 * FRAME_BYTES[driver]
    assert sim.pixels(1).tobytes() == picture(3).tobytes()
    before = sim.bytes_written[(1, 0x3C)]
    bank.show(1, picture(4), owned=True)
    bank.flush()
    assert 0 < sim.bytes_written[(1, 0x3C)] - before < FRAME_BYTES[driver]  # partial again
    assert sim.pixels(1).tobytes() == picture(4).tobytes()
    assert pack(picture(4)) == bank[1]._last_sent
    bank.close()
