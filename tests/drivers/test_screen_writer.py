"""Background screen writers: the loop never waits for a bus, the last image asked is the one shown."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from drivers.i2c_sim import SimI2C, simulated_bank
from drivers.reader.virtual import wait_until
from drivers.screen_bank import ScreenBank
from drivers.screen_writer import i2c_root
from drivers.screens import ScreenSpec

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")

MUX = {3: 1, 4: 1, 5: 1, 6: 7}  # channels 3-5 on bus 1 behind a TCA9548A; 6 on another bus
SPECS = {1: ScreenSpec(bus=3), 2: ScreenSpec("sh1106", bus=4), 3: ScreenSpec(bus=5, rotation=2),
         4: ScreenSpec(bus=6)}


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def picture(n: int, size: tuple[int, int] = (128, 64)) -> Image.Image:
    im = Image.new("1", size)
    ImageDraw.Draw(im).rectangle((n % 100, 14, n % 100 + 20, 30), fill=1)
    ImageDraw.Draw(im).text((2, 40), str(n), fill=1)
    return im


def shows(sim: SimI2C, bank: ScreenBank, seat: int, image: Image.Image) -> bool:
    spec = bank[seat].spec
    return sim.pixels(spec.bus, spec.address).tobytes() == bank[seat].device.preprocess(image).tobytes()


@pytest.fixture
def table():
    sim = SimI2C(parents=MUX)
    bank, _ = simulated_bank(SPECS, sim, drivers=True, clock=Clock(), background=True)
    yield sim, bank
    sim.release(1)
    sim.release(7)
    bank.close()


def test_one_writer_per_physical_bus(table):
    sim, bank = table
    assert sorted((w.bus, sorted(w.screens)) for w in bank.writers) == [(1, [1, 2, 3]), (7, [4])]


def test_the_loop_never_waits_for_a_stalled_bus_and_the_latest_image_wins(table):
    sim, bank = table
    for seat in (1, 2):
        bank.show(seat, picture(0))
    assert bank.flush()
    sim.hold(1)  # the bus stalls: every write on it waits
    bank.show(1, picture(1))
    assert wait_until(lambda: sim.stalled[1] == 1)  # the writer is stuck inside a send
    done = threading.Event()

    def loop() -> None:  # what the event loop does meanwhile: it must get through all of it
        for n in range(2, 40):
            bank.show(1, picture(n))
            bank.show(2, picture(n))
            bank.show(4, picture(n))  # another bus: not held up either
            bank.poll()
        done.set()

    worker = threading.Thread(target=loop, daemon=True)
    worker.start()
    worker.join(10)
    assert done.is_set(), "show() waited for the stalled bus"
    assert wait_until(lambda: shows(sim, bank, 4, picture(39)))  # bus 7 went on alone
    sim.release(1)
    assert bank.flush()
    assert shows(sim, bank, 1, picture(39)) and shows(sim, bank, 2, picture(39))
    writer = bank.writers[0]
    assert writer.coalesced >= 2 * 36  # the images replaced while the bus was stuck were never sent
    assert bank[1].stats.frames_sent <= 4


def test_the_bank_says_it_is_sending_until_every_image_asked_is_sent(table):
    sim, bank = table
    assert not bank.sending()
    sim.hold(1)  # the writer stuck inside its send: still sending
    bank.show(1, picture(1))
    assert wait_until(lambda: sim.stalled[1] == 1)
    assert bank.sending()  # nothing waits: the one image is being sent
    bank.show(2, picture(2))  # one more waiting behind it
    assert bank.sending()
    sim.release(1)
    assert bank.flush()
    assert not bank.sending()
    assert shows(sim, bank, 1, picture(1)) and shows(sim, bank, 2, picture(2))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([1, 2, 3, 4]), st.integers(0, 5),
                          st.sampled_from(["show", "hold", "release"])), min_size=1, max_size=30))
def test_after_any_interleaving_each_screen_shows_the_last_image_asked(ops):
    sim = SimI2C(parents=MUX)
    bank, _ = simulated_bank(SPECS, sim, drivers=True, clock=Clock(), background=True)
    last: dict[int, Image.Image] = {}
    try:
        for seat, n, op in ops:
            if op == "hold":
                sim.hold(SPECS[seat].bus)
            elif op == "release":
                sim.release(SPECS[seat].bus)
            else:
                image = picture(n * 7 + seat, SPECS[seat].size)
                bank.show(seat, image)
                last[seat] = image
        sim.release(1)
        sim.release(7)
        assert bank.flush()
        for seat, image in last.items():
            assert shows(sim, bank, seat, image)
            assert bank.image(seat).tobytes() == image.tobytes()
    finally:
        sim.release(1)
        sim.release(7)
        bank.close()


def test_a_failing_screen_is_retried_in_the_background_with_backoff(table, caplog):
    sim, bank = table
    clock = bank._clock
    bank.show(1, picture(1))
    assert bank.flush()
    sim.unplug(3)
    with caplog.at_level(logging.WARNING, logger="drivers.screens"):
        bank.show(1, picture(2))
        bank.show(2, picture(2))
        assert bank.flush()
    assert [(s.seat, s.state) for s in bank.poll()] == [(1, "failed")]
    assert "seat 1 screen failed" in caplog.text
    assert shows(sim, bank, 2, picture(2))  # the other screens on the bus carry on
    sim.plug(3)
    clock.t = 0.5
    bank.poll()
    assert bank.flush() and bank[1].state == "failed"  # back-off not over: no attempt
    clock.t = 1.0
    bank.poll()
    assert bank.flush()
    assert [(s.seat, s.state) for s in bank.poll()] == [(1, "ok")]
    assert shows(sim, bank, 1, picture(2))  # the frame asked during the outage, whole


def test_close_sends_what_is_queued(table):
    sim, bank = table
    sim.hold(1)
    bank.show(1, picture(5))
    bank.show(1, picture(6))
    threading.Timer(0.05, sim.release, (1,)).start()
    bank.close()
    assert sim.pixels(3).tobytes() == picture(6).tobytes()
    assert bank.show(1, picture(7)) is False and bank.writers == []


def test_a_bug_in_a_send_does_not_stop_the_writer(caplog):
    from luma.core.device import dummy

    class Buggy(dummy):
        def display(self, image):
            if image.getpixel((0, 0)):
                raise RuntimeError("driver bug")
            super().display(image)

    bank = ScreenBank({1: ScreenSpec()}, lambda spec: Buggy(width=128, height=64, mode="1"),
                      clock=Clock(), background=True, bus_of=lambda bus: bus)
    try:
        bad = picture(1)
        bad.putpixel((0, 0), 1)
        with caplog.at_level(logging.ERROR, logger="drivers.screen_writer"):
            bank.show(1, bad)
            assert bank.flush()
        assert "driver bug" in caplog.text
        bank.show(1, picture(2))
        assert bank.flush()
        assert bank[1].device.image.tobytes() == picture(2).tobytes()
    finally:
        bank.close()


def test_mux_channels_are_grouped_by_their_parent_adapter(tmp_path: Path):
    devices = tmp_path / "devices" / "platform" / "soc" / "3f804000.i2c" / "i2c-1"
    (devices / "i2c-11").mkdir(parents=True)
    (tmp_path / "devices" / "i2c-20").mkdir()
    sysfs = tmp_path / "bus"
    sysfs.mkdir()
    (sysfs / "i2c-1").symlink_to(devices)
    (sysfs / "i2c-11").symlink_to(devices / "i2c-11")
    (sysfs / "i2c-20").symlink_to(tmp_path / "devices" / "i2c-20")
    assert [i2c_root(n, sysfs) for n in (1, 11, 20, 99)] == [1, 1, 20, 99]
