"""Seat screens on luma's dummy device: changed-only frames, absent/failing screens, PNG export."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pytest
from PIL import Image, ImageChops, ImageDraw

from drivers.i2c_sim import SimI2C, simulated_bank
from drivers.screen_bank import ScreenBank
from drivers.screens import FRAME_BYTES, ScreenError, ScreenSpec, ScreenStats


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def picture(n: int, size: tuple[int, int] = (128, 64)) -> Image.Image:
    im = Image.new("1", size)
    ImageDraw.Draw(im).rectangle((n, 2, n + 10, 20), fill=1)
    return im


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.tobytes() == b.tobytes()


SPECS = {1: ScreenSpec(bus=3), 2: ScreenSpec(bus=4), 3: ScreenSpec("sh1106", bus=5, address=0x3D)}


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_only_changed_frames_are_sent(clock):
    bank, sim = simulated_bank(SPECS, clock=clock)
    assert [s.state for s in bank.statuses()] == ["ok", "ok", "ok"]
    assert bank.show(1, picture(0)) is True
    assert bank.show(1, picture(0)) is False
    assert bank.show(1, picture(5)) is True
    assert bank.show(3, picture(5)) is True
    assert same(bank[1].device.image, picture(5))  # the dummy holds what we sent
    assert same(bank.image(3), picture(5))
    assert bank[1].stats == ScreenStats(frames_sent=2, frames_skipped=1, bytes_sent=2 * FRAME_BYTES["ssd1306"])
    assert bank.stats.bytes_sent == 2 * 1030 + 1048
    assert bank.stats.frames_sent == 3
    assert bank.show(7, picture(0)) is False  # a seat without a screen ignores frames
    assert bank.poll() == []


def test_a_caller_reusing_its_image_does_not_fool_change_detection(clock):
    bank, _ = simulated_bank({1: ScreenSpec()}, clock=clock)
    im = picture(0)
    assert bank.show(1, im)
    ImageDraw.Draw(im).point((100, 60), fill=1)
    assert bank.show(1, im)
    assert bank[1].stats.frames_sent == 2


def test_screen_absent_at_start_is_reported_and_retried_with_backoff(clock, caplog):
    sim = SimI2C()
    sim.unplug(4)
    with caplog.at_level(logging.WARNING, logger="drivers.screens"):
        bank, _ = simulated_bank(SPECS, sim, clock=clock)
    assert [(p.seat, p.state) for p in bank.problems()] == [(2, "absent")]
    assert "not found" in bank[2].status().error
    assert "seat 2 screen absent" in caplog.text
    assert bank[2].status().describe(clock.t) == (
        "seat 2 screen (ssd1306 on /dev/i2c-4 at 0x3c): absent: I2C device not found on address: 0x3C; retry in 1 s")

    # the others keep working, the absent seat keeps its latest picture for later
    assert bank.show(1, picture(1)) and not bank.show(2, picture(2))
    assert same(bank.image(2), picture(2))

    clock.t += 0.5
    assert bank.poll() == [] and bank[2].stats.failures == 1  # not due yet: no attempt
    clock.t += 0.5
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="drivers.screens"):
        assert bank.poll() == []  # retried, still absent: no new warning
    assert bank[2].stats.failures == 2 and caplog.text == ""
    assert bank[2].status().retry_at == pytest.approx(clock.t + 2)  # back-off doubled

    sim.plug(4)
    clock.t += 1.9
    bank.poll()
    assert bank[2].state == "absent"
    clock.t += 0.1
    changed = bank.poll()
    assert [(s.seat, s.state) for s in changed] == [(2, "ok")]
    assert same(bank[2].device.image, picture(2))  # the waiting picture is shown at once
    assert bank[2].stats.recoveries == 1 and bank[2].stats.frames_sent == 1
    assert bank.problems() == []


def test_screen_failing_later_recovers_and_repaints(clock):
    bank, sim = simulated_bank(SPECS, clock=clock)
    for seat in bank.seats:
        bank.show(seat, picture(seat))
    sim.unplug(5, 0x3D)
    assert bank.show(3, picture(30)) is False
    assert bank.show(1, picture(10)) is True  # the others do not notice
    assert [(s.seat, s.state) for s in bank.poll()] == [(3, "failed")]
    assert bank[3].device is None and "Remote I/O" in bank[3].status().error
    clock.t += 1
    bank.poll()
    assert bank[3].state == "failed" and bank[3].stats.failures == 2
    sim.plug(5, 0x3D)
    clock.t += 2
    assert [(s.seat, s.state) for s in bank.poll()] == [(3, "ok")]
    # the new controller starts blank: the picture is sent again although it did not change
    assert same(bank[3].device.image, picture(30))
    assert bank.show(3, picture(30)) is False
    s = bank[3].stats
    assert (s.frames_sent, s.failures, s.recoveries, s.frames_skipped) == (2, 2, 1, 1)


def test_backoff_is_capped(clock):
    sim = SimI2C()
    sim.unplug(1)
    bank, _ = simulated_bank({1: ScreenSpec()}, sim, clock=clock, backoff=(1.0, 4.0))
    delays = []
    for _ in range(5):
        clock.t = bank[1].status().retry_at
        before = clock.t
        bank.poll()
        delays.append(bank[1].status().retry_at - before)
    assert delays == [2.0, 4.0, 4.0, 4.0, 4.0]


def test_rotation(clock):
    bank, _ = simulated_bank({1: ScreenSpec(rotation=2), 2: ScreenSpec(bus=2, rotation=1)}, clock=clock)
    bank.show(1, picture(3))
    assert same(bank[1].device.image, picture(3).rotate(180))  # the panel is mounted upside down
    assert bank.size(2) == (64, 128)
    with pytest.raises(ScreenError, match=r"image is \(128, 64\), the screen needs \(64, 128\)"):
        bank.show(2, picture(0))
    assert bank.show(2, picture(0, (64, 128)))


def test_non_monochrome_images_are_converted(clock):
    bank, _ = simulated_bank({1: ScreenSpec()}, clock=clock)
    assert bank.show(1, picture(4).convert("L"))
    assert same(bank[1].device.image, picture(4))


def test_save_png(tmp_path, clock):
    bank, _ = simulated_bank({1: ScreenSpec(), 2: ScreenSpec(bus=2)}, clock=clock)
    bank.show(1, picture(8))
    path = bank.save_png(1, tmp_path / "seat1.png")
    assert same(Image.open(path).convert("1"), picture(8))
    big = Image.open(bank.save_png(1, tmp_path / "big.png", scale=4)).convert("1")
    assert big.size == (512, 256)
    assert same(big.resize((128, 64), Image.Resampling.NEAREST), picture(8))
    blank = Image.open(bank.save_png(2, tmp_path / "blank.png"))
    assert blank.size == (128, 64) and blank.getbbox() is None
    with pytest.raises(ScreenError, match="scale"):
        bank.save_png(1, tmp_path / "x.png", scale=0)


def test_persist_unless_asked_to_blank(clock):
    bank, _ = simulated_bank({1: ScreenSpec()}, clock=clock)
    assert bank[1].device.persist is True
    bank.show(1, picture(1))
    device = bank[1].device
    bank.close()
    assert same(device.image, picture(1))  # left showing
    assert bank[1].state == "closed" and bank.show(1, picture(2)) is False
    assert bank.poll() and bank.poll() == []  # closing is reported once, never retried

    blanking, _ = simulated_bank({1: ScreenSpec()}, clock=clock, blank_at_exit=True)
    assert blanking[1].device.persist is False
    blanking.show(1, picture(1))
    device = blanking[1].device
    blanking.close()
    assert device.image.getbbox() is None  # luma's cleanup cleared it


def test_close_with_explicit_blank(clock):
    bank, _ = simulated_bank({1: ScreenSpec()}, clock=clock)
    bank.show(1, picture(1))
    device = bank[1].device
    bank.close(blank=True)
    assert ImageChops.difference(device.image.convert("L"), Image.new("L", (128, 64))).getbbox() is None


@dataclass
class ConfigLike:
    driver: str = "sh1106"
    bus: int = 7
    address: int = 0x3C
    rotation: int = 0


def test_specs_from_config_objects_and_bad_specs(clock):
    bank, _ = simulated_bank({4: ConfigLike()}, clock=clock)
    assert bank[4].spec == ScreenSpec("sh1106", 7)
    with pytest.raises(ScreenError, match="2 screens on /dev/i2c-1 at 0x3c"):
        ScreenBank({1: ScreenSpec(), 2: ScreenSpec()}, SimI2C().open_dummy)
    for bad, msg in [(dict(driver="st7735"), "unknown screen driver"), (dict(bus=-1), "bus"),
                     (dict(address=0x80), "address"), (dict(rotation=4), "rotation"), (dict(bus=True), "bus")]:
        with pytest.raises(ScreenError, match=msg):
            ScreenSpec(**bad)


def test_a_screen_that_opens_but_never_takes_a_frame_still_backs_off(clock):
    """A controller that answers its init but fails every frame (loose wire): no 1 s retry loop."""
    from luma.core.device import dummy

    class HalfDead(dummy):
        def display(self, image):
            raise OSError(5, "Input/output error")

    bank = ScreenBank({1: ScreenSpec()}, lambda spec: HalfDead(width=128, height=64, mode="1"), clock=clock)
    bank.show(1, picture(1))
    delays = []
    for _ in range(4):
        clock.t = bank[1].status().retry_at
        before = clock.t
        bank.poll()  # reopens, resends the waiting picture, fails again
        delays.append(bank[1].status().retry_at - before)
    assert delays == [2.0, 4.0, 8.0, 16.0]
    assert bank[1].state == "failed" and bank[1].stats.frames_sent == 0
