"""The real luma ssd1306/sh1106 drivers under our screen layer, on a simulated smbus or no bus at all."""

from __future__ import annotations

import glob

import pytest
from PIL import Image, ImageDraw

from drivers.i2c_sim import SimI2C
from drivers.screen_bank import ScreenBank
from drivers.screens import FRAME_BYTES, ScreenSpec, open_i2c

# luma.oled 3.16 still calls Image.getdata (removed in Pillow 14): upstream's warning, not ours.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def picture(n: int) -> Image.Image:
    im = Image.new("1", (128, 64))
    ImageDraw.Draw(im).ellipse((n, 4, n + 30, 40), outline=1)
    return im


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_frame_bytes_match_what_the_real_driver_writes(driver):
    sim = SimI2C()
    bank = ScreenBank({1: ScreenSpec(driver, bus=2)}, sim.open_driver, clock=Clock())
    assert type(bank[1].device).__name__ == driver
    before = sim.bytes_written[(2, 0x3C)]
    assert before > FRAME_BYTES[driver]  # init sequence + luma's initial clear
    assert bank.show(1, picture(0))
    assert sim.bytes_written[(2, 0x3C)] - before == FRAME_BYTES[driver]
    assert bank.stats.bytes_sent == FRAME_BYTES[driver]
    bank.show(1, picture(0))  # unchanged: not a byte on the bus
    assert sim.bytes_written[(2, 0x3C)] - before == FRAME_BYTES[driver]


def test_real_driver_fails_and_recovers_on_the_bus():
    sim, clock = SimI2C(), Clock()
    bank = ScreenBank({1: ScreenSpec(bus=1), 2: ScreenSpec("sh1106", bus=2)}, sim.open_driver, clock=clock)
    sim.unplug(1)
    assert bank.show(1, picture(3)) is False  # luma raises DeviceNotFoundError on the NACK
    assert bank.show(2, picture(3)) is True
    assert bank[1].state == "failed" and "0x3C" in bank[1].status().error
    clock.t = 1.0
    bank.poll()  # the probe fails: no device built, no atexit hook left behind
    assert bank[1].state == "failed"
    sim.plug(1)
    clock.t = 3.0
    written = sim.bytes_written[(1, 0x3C)]
    assert [s.state for s in bank.poll()] == ["ok"]
    # re-initialised, then the waiting picture sent again
    assert sim.bytes_written[(1, 0x3C)] - written > 2 * FRAME_BYTES["ssd1306"]
    assert bank[1].stats.recoveries == 1


def test_unplugged_at_start_never_builds_a_device():
    sim = SimI2C()
    sim.unplug(3)
    bank = ScreenBank({1: ScreenSpec(bus=3)}, sim.open_driver, clock=Clock())
    assert bank[1].state == "absent" and (3, 0x3C) not in sim.devices
    assert sim.bytes_written[(3, 0x3C)] == 0


@pytest.mark.skipif(bool(glob.glob("/dev/i2c-*")), reason="this machine has I2C buses")
def test_real_i2c_opener_without_a_bus_reports_the_missing_device():
    """The production opener on a machine without /dev/i2c-N: reported, never raised."""
    bank = ScreenBank({1: ScreenSpec(bus=1), 2: ScreenSpec(bus=1, address=0x3D)}, open_i2c, clock=Clock())
    statuses = bank.statuses()
    assert [s.state for s in statuses] == ["absent", "absent"]
    assert "/dev/i2c-1" in statuses[0].error
    assert bank.show(1, picture(1)) is False
    assert bank.poll(5.0) == []  # retried quietly, still absent
    assert bank[1].stats.failures == 2
