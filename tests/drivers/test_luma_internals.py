"""luma's private attributes the table relies on (drivers/luma_internals.py), on real luma objects:
a luma release that renames, moves or retypes one fails here, by name."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
import smbus2
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.interface.serial import i2c, noop
from luma.oled.device import ssd1306
from PIL import Image, ImageDraw

from drivers import luma_internals
from drivers.i2c_sim import SimI2C
from drivers.luma_internals import LumaInternalsError, RdwrPath
from drivers.screen_bank import ScreenBank
from drivers.screens import FRAME_BYTES, ScreenSpec, open_i2c

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


class FakeSMBus:
    """What luma's i2c opens by port, recording the I2C_RDWR messages it is given."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.messages: list[tuple[int, bytes]] = []

    def i2c_rdwr(self, *messages: smbus2.i2c_msg) -> None:
        self.messages += [(m.addr, bytes(m)) for m in messages]

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self.messages.append((address, bytes([register, *data])))

    def close(self) -> None:
        pass


@pytest.fixture
def managed(monkeypatch: pytest.MonkeyPatch) -> i2c:
    """luma's own i2c opened by port, as on the table (smbus2.SMBus replaced at the /dev edge)."""
    monkeypatch.setattr(smbus2, "SMBus", FakeSMBus)
    return i2c(port=3, address=0x3D)


def devices() -> dict[str, object]:
    """The real drivers on the simulated bus, and luma's dummy device."""
    sim = SimI2C()
    return {"ssd1306": sim.open_driver(ScreenSpec("ssd1306", bus=1)),
            "sh1106": sim.open_driver(ScreenSpec("sh1106", bus=2)),
            "dummy": sim.open_dummy(ScreenSpec(bus=3))}


# every private attribute drivers/luma_internals.py reads or sets: (object, attribute, type)
EXPECTED = [
    ("ssd1306", "_serial_interface", i2c), ("sh1106", "_serial_interface", i2c), ("dummy", "_serial_interface", noop),
    ("ssd1306", "_colstart", int), ("sh1106", "_page_address_offset", int),
    ("ssd1306", "_mask", list), ("ssd1306", "_offsets", list), ("ssd1306", "_w", int), ("ssd1306", "_h", int),
    ("managed", "_managed", bool), ("managed", "_i2c_msg_write", object), ("managed", "_bus", FakeSMBus),
    ("managed", "_addr", int), ("handed", "_managed", bool), ("handed", "_i2c_msg_write", type(None)),
]


def test_every_private_attribute_is_where_it_was_with_its_type(managed):
    objects = {**devices(), "managed": managed, "handed": i2c(bus=FakeSMBus(1))}
    missing = [f"{name}.{attr}" for name, attr, kind in EXPECTED
               if attr not in vars(objects[name]) or not isinstance(vars(objects[name])[attr], kind)]
    assert missing == []
    assert objects["ssd1306"]._colstart == 0 and objects["sh1106"]._page_address_offset == 2
    assert len(objects["ssd1306"]._mask) == 128 * 64 == len(objects["ssd1306"]._offsets)
    assert (objects["ssd1306"]._w, objects["ssd1306"]._h) == (128, 64)


def test_every_attribute_the_adapter_reads_is_checked_here():
    source = Path(luma_internals.__file__).read_text()
    read = set(re.findall(r'_read\(\w+, "(_\w+)"', source))
    assert read == {attr for _, attr, _ in EXPECTED}
    assert not re.search(r"\b(?!self)\w+\._[a-z]\w*", source.replace("serial_any._managed", "").replace(
        "serial_any._i2c_msg_write", "").replace("device_any._mask", "").replace("device_any._offsets", ""))


def test_no_other_module_reads_them():
    root = Path(__file__).resolve().parents[2]
    names = "|".join(sorted({attr for _, attr, _ in EXPECTED}))
    pattern = re.compile(rf"\b(?!self\.)\w+\.({names})\b")  # an object's own attributes are its business
    readers = [f"{path.relative_to(root)}:{n}" for top in ("drivers", "firmware_host", "bench", "hw_tests", "tests")
               for path in sorted((root / top).rglob("*.py")) if path.name not in ("luma_internals.py", Path(__file__).name)
               for n, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)]
    assert readers == []


def test_the_accessors_return_luma_s_own_objects():
    found = devices()
    for name in ("ssd1306", "sh1106", "dummy"):
        assert luma_internals.serial_interface(found[name]) is found[name]._serial_interface
    assert luma_internals.ssd1306_column_start(found["ssd1306"]) == 0
    assert luma_internals.sh1106_column_offset(found["sh1106"]) == 2
    serial = found["sh1106"]._serial_interface
    assert luma_internals.i2c_bus(serial) is serial._bus


def test_luma_s_managed_i2c_sends_its_data_the_way_the_lean_path_does(managed):
    """What the lean path (drivers/oled_updates.py) assumes of luma's i2c on a bus it opened:
    each data write is one I2C_RDWR message built by `_i2c_msg_write`, control byte first."""
    assert managed._managed is True and managed._i2c_msg_write is smbus2.i2c_msg.write
    path = luma_internals.rdwr_path(managed)
    assert path == RdwrPath(managed._bus.i2c_rdwr, luma_internals.write_message, 0x3D)  # smbus2's, kept buffers
    managed.data(list(range(40)))
    assert managed._bus.messages == [(0x3D, bytes([0x40, *range(40)]))]
    path.rdwr(path.message(path.address, b"\x40\x01"))
    assert managed._bus.messages[-1] == (0x3D, b"\x40\x01")


def test_a_handed_bus_is_put_on_the_managed_path():
    serial = i2c(bus=FakeSMBus(1), address=0x3C)
    assert serial._managed is False and luma_internals.rdwr_path(serial) is None  # luma: 32-byte SMBus blocks
    luma_internals.send_as_managed(serial)
    assert luma_internals.rdwr_path(serial) == RdwrPath(serial._bus.i2c_rdwr, luma_internals.write_message, 0x3C)
    serial.data([1, 2, 3])
    assert serial._bus.messages == [(0x3C, b"\x40\x01\x02\x03")]


def test_other_interfaces_have_no_lean_path(mocker):
    assert luma_internals.rdwr_path(noop()) is None
    assert luma_internals.rdwr_path(mocker.Mock()) is None


def test_the_ssd1306_tables_are_shared_and_other_devices_are_let_be():
    sim = SimI2C()
    first = open_i2c(ScreenSpec(bus=1), bus=sim.smbus(1))
    second = open_i2c(ScreenSpec(bus=2), bus=sim.smbus(2))
    assert first._mask is second._mask and first._offsets is second._offsets
    assert luma_internals.share_pixel_tables(sim.open_dummy(ScreenSpec(bus=3))) is False
    assert luma_internals.share_pixel_tables(sim.open_driver(ScreenSpec("sh1106", bus=4))) is False


class Moved:
    """A luma object of a release that keeps its internals elsewhere."""


@pytest.mark.parametrize(("accessor", "attribute"), [
    (luma_internals.serial_interface, "_serial_interface"),
    (luma_internals.ssd1306_column_start, "_colstart"),
    (luma_internals.sh1106_column_offset, "_page_address_offset"),
    (luma_internals.i2c_bus, "_bus"),
    (luma_internals.send_as_managed, "_managed"),
])
def test_a_moved_attribute_is_named_in_the_error(accessor, attribute):
    with pytest.raises(LumaInternalsError, match=f"Moved has no {attribute} .*checked with luma.core 2.6.0"):
        accessor(Moved())


def test_a_retyped_attribute_is_refused():
    device = Moved()
    device._colstart = True  # a bool is not a column
    with pytest.raises(LumaInternalsError, match="holds a bool in _colstart"):
        luma_internals.ssd1306_column_start(device)
    device._serial_interface = object()
    with pytest.raises(LumaInternalsError, match="no command and data"):
        luma_internals.serial_interface(device)


def test_a_moved_i2c_attribute_is_named(managed):
    del managed._addr
    with pytest.raises(LumaInternalsError, match="i2c has no _addr"):
        luma_internals.rdwr_path(managed)
    device = ssd1306(noop())
    del device._mask
    with pytest.raises(LumaInternalsError, match="ssd1306 has no _mask"):
        luma_internals.share_pixel_tables(device)


@pytest.mark.parametrize(("driver", "accessor"), [("ssd1306", "ssd1306_column_start"),
                                                  ("sh1106", "sh1106_column_offset"), ("sh1106", "serial_interface")])
def test_a_screen_whose_luma_moved_an_attribute_still_shows_whole_frames(driver, accessor, caplog, monkeypatch):
    """The screen falls back to luma's own `display` (whole frames), and says why."""
    real = getattr(luma_internals, accessor)
    monkeypatch.setattr(luma_internals, accessor, lambda device: real(Moved()))
    sim = SimI2C()
    with caplog.at_level(logging.WARNING, "drivers.screens"):
        bank = ScreenBank({1: ScreenSpec(driver, bus=2)}, sim.open_driver)
    assert bank[1].state == "ok" and "whole frames only: luma's Moved has no" in caplog.text
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).ellipse((10, 4, 60, 40), outline=1)
    before = sim.bytes_written[(2, 0x3C)]
    assert bank.show(1, image)
    assert sim.pixels(2).tobytes() == image.tobytes()
    assert sim.bytes_written[(2, 0x3C)] - before == FRAME_BYTES[driver]  # luma's own whole frame
    bank.close()


@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 130, 1025])
def test_the_kept_buffer_message_is_smbus2s_message(n):
    import smbus2

    payload = bytes((i * 7 + 1) % 256 for i in range(n))
    ours, theirs = luma_internals.write_message(0x3C, payload), smbus2.i2c_msg.write(0x3C, payload)
    assert (ours.addr, ours.flags, ours.len, bytes(ours)) == (theirs.addr, theirs.flags, theirs.len, bytes(theirs))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0x3C, 0x3D]), st.binary(max_size=1100)), min_size=1, max_size=12))
def test_written_over_messages_are_smbus2s_messages_at_each_send(sends):
    data = luma_internals.DataMessages()
    for address, payload in sends:
        ours, theirs = data(address, payload), smbus2.i2c_msg.write(address, payload)
        # what the kernel reads of it while the call lasts: the message as smbus2 would make it
        assert (ours.addr, ours.flags, ours.len, bytes(ours)) == (theirs.addr, theirs.flags, theirs.len, bytes(theirs))
