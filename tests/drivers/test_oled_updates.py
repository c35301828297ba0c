"""Partial screen updates: Pillow packing equals luma's, and a modelled controller always shows the
last image after any sequence of partial sends, on SSD1306 and SH1106, rotated or not."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from luma.core.error import DeviceNotFoundError
from PIL import Image, ImageDraw

from drivers.i2c_sim import OledRam, SimI2C, wire_seconds
from drivers.oled_updates import (
    FRAME,
    PAGES,
    WIDTH,
    PanelWriter,
    RowPacker,
    Window,
    changed_columns,
    pack,
    pack_picture,
    pack_rows,
    sh1106_windows,
    ssd1306_windows,
)
from drivers.screen_bank import ScreenBank
from drivers.screens import FRAME_BYTES, ScreenSpec

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Recorder:
    """A luma serial interface that keeps what it is sent (luma's own noop, with a memory)."""

    def __init__(self) -> None:
        self.commands: list[tuple[int, ...]] = []
        self.data_bytes: list[int] = []

    def command(self, *cmd: int) -> None:
        self.commands.append(cmd)

    def data(self, data: list[int]) -> None:
        self.data_bytes.extend(data)

    def cleanup(self) -> None:
        pass


Shape = tuple[str, int, int, int, int]
shapes = st.lists(st.tuples(st.sampled_from(["rect", "fill", "line", "point", "clear"]),
                            st.integers(0, 127), st.integers(0, 63), st.integers(0, 40), st.integers(0, 30)),
                  max_size=6)


def draw(base: Image.Image, ops: list[Shape]) -> Image.Image:
    """`base` with some shapes drawn or erased: small and large changes anywhere on the panel."""
    im = base.copy()
    d = ImageDraw.Draw(im)
    for kind, x, y, w, h in ops:
        x, y = x % im.width, y % im.height  # a quarter-turned panel's image is 64x128
        box = (x, y, min(x + w, im.width - 1), min(y + h, im.height - 1))
        if kind == "rect":
            d.rectangle(box, outline=1)
        elif kind == "fill":
            d.rectangle(box, fill=1)
        elif kind == "line":
            d.line(box, fill=1)
        elif kind == "point":
            d.point((x, y), fill=1)
        else:
            d.rectangle(box, fill=0)
    return im


def luma_packing(image: Image.Image) -> bytes:
    """The bytes luma's own ssd1306 driver writes for an image (its pixel loop)."""
    from luma.oled.device import ssd1306

    class Sink:
        def __init__(self) -> None:
            self.out: list[int] = []

        def command(self, *cmd: int) -> None:
            pass

        def data(self, data: list[int]) -> None:
            self.out.extend(data)

        def cleanup(self) -> None:
            pass

    sink = Sink()
    device = ssd1306(sink)
    sink.out.clear()
    device.display(image)
    return bytes(sink.out)


@settings(max_examples=60, deadline=None)
@given(shapes)
def test_pillow_packing_equals_luma_pixel_loop(ops):
    image = draw(Image.new("1", (128, 64)), ops)
    assert pack(image) == luma_packing(image)


@settings(max_examples=80, deadline=None)
@given(st.binary(min_size=FRAME, max_size=FRAME))
def test_packing_the_image_bytes_equals_luma_pixel_loop(raw):
    image = Image.frombytes("1", (128, 64), raw)
    assert pack_rows(raw) == luma_packing(image)


@settings(max_examples=30, deadline=None)
@given(shapes)
def test_packing_a_drawn_image_from_its_bytes_equals_pillow_packing(ops):
    image = draw(Image.new("1", (128, 64)), ops)
    assert pack_rows(image.tobytes()) == pack(image)


def test_a_turned_panel_is_packed_from_its_image_not_its_bytes():
    image = draw(Image.new("1", (64, 128)), [("rect", 3, 5, 40, 90), ("fill", 10, 100, 20, 20)])
    assert pack_picture(image, 1, image.tobytes()) == pack(image, 1)
    with pytest.raises(ValueError, match="1024 bytes"):
        pack_rows(bytes(1000))


@pytest.mark.parametrize("rotation", [0, 1, 2, 3])
@settings(max_examples=20, deadline=None)
@given(shapes)
def test_packing_a_turned_panel_turns_the_image_as_luma_does(rotation, ops):
    from luma.core.interface.serial import noop
    from luma.oled.device import ssd1306

    device = ssd1306(noop(), rotate=rotation)
    image = draw(Image.new("1", (device.width, device.height)), ops)
    assert pack(image, rotation) == pack(device.preprocess(image))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, PAGES - 1), st.integers(0, WIDTH - 1), st.integers(0, WIDTH - 1)),
                max_size=10))
def test_windows_cover_every_change_at_the_lowest_cost(changes):
    changed: dict[int, tuple[int, int]] = {}
    for page, a, b in changes:
        lo, hi = min(a, b), max(a, b)
        old = changed.get(page, (lo, hi))
        changed[page] = (min(old[0], lo), max(old[1], hi))
    windows = ssd1306_windows(changed, overhead=10)
    for page, (lo, hi) in changed.items():
        assert any(w.page0 <= page <= w.page1 and w.col0 <= lo and hi <= w.col1 for w in windows)
    cost = sum(10 + w.size for w in windows)
    if changed:  # never worse than one bounding window, nor than a window per page
        bound = Window(min(changed), max(changed), min(c[0] for c in changed.values()),
                       max(c[1] for c in changed.values()))
        assert cost <= 10 + bound.size
        assert cost <= sum(10 + w.size for w in sh1106_windows(changed))
    else:
        assert windows == []


def cheapest_cover(changed: dict[int, tuple[int, int]], overhead: int) -> int:
    """The lowest cost of a cover, by trying every split of the changed pages into runs."""
    pages = sorted(changed)
    best = None
    for cuts in range(1 << max(0, len(pages) - 1)):  # bit i set: a window ends after pages[i]
        cost, first = 0, 0
        for i in range(len(pages)):
            if i == len(pages) - 1 or cuts >> i & 1:
                run = pages[first:i + 1]
                lo, hi = min(changed[p][0] for p in run), max(changed[p][1] for p in run)
                cost += overhead + (run[-1] - run[0] + 1) * (hi - lo + 1)
                first = i + 1
        best = cost if best is None else min(best, cost)
    return best or 0


column = st.one_of(st.integers(0, 3), st.integers(0, WIDTH - 1))  # narrow changes: a column's byte counts


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers(0, PAGES - 1), st.tuples(column, column), max_size=PAGES), st.integers(0, 12))
def test_windows_cost_what_the_cheapest_split_into_runs_costs(spans, overhead):
    changed = {page: (min(a, b), max(a, b)) for page, (a, b) in spans.items()}
    windows = ssd1306_windows(changed, overhead=overhead)
    assert sum(overhead + w.size for w in windows) == cheapest_cover(changed, overhead)
    assert [w.page0 for w in windows] == sorted(w.page0 for w in windows)
    for w in windows:  # each window starts and ends on a changed page, and bounds their columns
        run = [p for p in changed if w.page0 <= p <= w.page1]
        assert w.page0 in changed and w.page1 in changed
        assert (w.col0, w.col1) == (min(changed[p][0] for p in run), max(changed[p][1] for p in run))


def test_changed_columns_finds_first_and_last_byte():
    old = bytes(FRAME)
    new = bytearray(old)
    new[3 * WIDTH + 5] = 1
    new[3 * WIDTH + 90] = 0x80
    new[7 * WIDTH + 127] = 4
    assert changed_columns(old, bytes(new)) == {3: (5, 90), 7: (127, 127)}
    assert changed_columns(old, old) == {}


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=FRAME, max_size=FRAME),
       st.lists(st.tuples(st.integers(0, FRAME - 1), st.integers(1, 255)), max_size=12))
def test_changed_columns_equals_a_byte_by_byte_comparison(old, edits):
    new = bytearray(old)
    for at, flip in edits:
        new[at] ^= flip
    expected: dict[int, tuple[int, int]] = {}
    for i in range(FRAME):
        if old[i] != new[i]:
            page, col = divmod(i, WIDTH)
            first, _ = expected.get(page, (col, col))
            expected[page] = (first, col)
    assert changed_columns(old, bytes(new)) == expected


@pytest.mark.parametrize("driver,rotation", [("ssd1306", 0), ("sh1106", 0), ("ssd1306", 2), ("sh1106", 1)])
@settings(max_examples=25, deadline=None)
@given(steps=st.lists(st.tuples(st.booleans(), shapes), min_size=1, max_size=6))
def test_the_panel_shows_the_last_image_after_any_partial_sends(driver, rotation, steps):
    sim = SimI2C()
    spec = ScreenSpec(driver, bus=2, rotation=rotation)
    bank = ScreenBank({1: spec}, sim.open_driver, clock=Clock())
    screen, device = bank[1], bank[1].device
    image = Image.new("1", spec.size)
    for fresh, ops in steps:
        image = draw(Image.new("1", spec.size) if fresh else image, ops)
        before = sim.bytes_written[(2, 0x3C)]
        bank.show(1, image)
        assert sim.pixels(2).tobytes() == device.preprocess(image).tobytes()
        assert sim.bytes_written[(2, 0x3C)] - before <= FRAME_BYTES[driver]
    assert screen.stats.frames_sent >= 1


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_small_change_sends_only_its_window(driver):
    sim = SimI2C()
    bank = ScreenBank({1: ScreenSpec(driver, bus=2)}, sim.open_driver, clock=Clock())
    image = draw(Image.new("1", (128, 64)), [("fill", 0, 0, 127, 11), ("rect", 10, 20, 60, 20)])
    bank.show(1, image)
    assert bank[1].stats.bytes_sent == FRAME_BYTES[driver]  # the first frame is whole
    before = sim.bytes_written[(2, 0x3C)]
    bank.show(1, draw(image, [("point", 100, 50, 0, 0)]))  # one pixel in page 6
    sent = sim.bytes_written[(2, 0x3C)] - before
    assert sent == (6 + 1 if driver == "ssd1306" else 3 + 1)
    assert bank[1].stats.frames_partial == 1


def test_partial_commands_go_through_the_devices_serial_interface(mocker):
    """luma's driver on a mock serial interface: the window is set, then its data follows."""
    from luma.oled.device import ssd1306

    serial = mocker.Mock()
    bank = ScreenBank({1: ScreenSpec()}, lambda spec: ssd1306(serial), clock=Clock())
    image = Image.new("1", (128, 64))
    bank.show(1, image)
    serial.reset_mock()
    changed = draw(image, [("fill", 40, 17, 9, 3)])  # columns 40-49, rows 17-20: page 2
    assert bank.show(1, changed)
    assert serial.method_calls == [mocker.call.command(0x21, 40, 49, 0x22, 2, 2),
                                   mocker.call.data(pack(changed)[2 * 128 + 40:2 * 128 + 50])]


def test_sh1106_page_addressing_uses_the_column_offset():
    writer = PanelWriter("sh1106", Recorder())
    frame = bytearray(FRAME)
    writer.send(bytes(frame))
    writer.serial.commands.clear()
    frame[5 * WIDTH + 20] = 0xFF
    frame[5 * WIDTH + 21] = 0x0F
    assert writer.send(bytes(frame)) == 3 + 2
    assert writer.serial.commands == [(0xB5, 22 & 0x0F, 0x10 | (22 >> 4))]
    assert writer.serial.data_bytes[-2:] == [0xFF, 0x0F]


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_whole_frame_after_the_screen_comes_back(driver):
    sim, clock = SimI2C(), Clock()
    bank = ScreenBank({1: ScreenSpec(driver, bus=4)}, sim.open_driver, clock=clock)
    first = draw(Image.new("1", (128, 64)), [("fill", 0, 0, 127, 11)])
    bank.show(1, first)
    sim.unplug(4)
    second = draw(first, [("rect", 30, 30, 10, 10)])
    assert bank.show(1, second) is False and bank[1].state == "failed"
    sim.plug(4)  # powers up with garbage in its RAM
    assert sim.pixels(4).tobytes() != second.tobytes()
    clock.t = 5.0
    before = sim.bytes_written[(4, 0x3C)]
    assert [s.state for s in bank.poll()] == ["ok"]
    assert sim.pixels(4).tobytes() == second.tobytes()
    # luma's init clears the RAM, then our first frame is whole again
    assert sim.bytes_written[(4, 0x3C)] - before >= 2 * FRAME_BYTES[driver]


def test_ram_model_follows_horizontal_window_wrapping():
    ram = OledRam("ssd1306")
    ram.command(bytes([0x20, 0x00, 0x21, 10, 11, 0x22, 3, 4]))
    ram.data(bytes([1, 2, 3, 4, 5]))  # 2x2 window, then wraps to its start
    assert (ram.ram[3][10], ram.ram[3][11], ram.ram[4][10], ram.ram[4][11]) == (5, 2, 3, 4)


def test_wire_time_of_a_whole_frame_is_23_ms():
    # luma's command transaction (control byte + 6) and one data transaction (control + 1024)
    assert wire_seconds(7) + wire_seconds(1025) == pytest.approx(0.0233, abs=0.0002)


def _byte_by_byte(ram: OledRam, data: bytes) -> None:
    for byte in data:  # the reference: one byte at a time through the chip's pointer
        ram._data_bytes(bytes([byte]))


@settings(max_examples=300, deadline=None)
@given(driver=st.sampled_from(["ssd1306", "sh1106"]),
       steps=st.lists(st.one_of(
           st.tuples(st.just("cmd"), st.lists(st.sampled_from(
               [0x20, 0x00, 0x01, 0x02, 0x21, 0x22, 0xB0, 0xB3, 0xB7, 0x00, 0x05, 0x0F, 0x10, 0x12, 0x17, 0x7F,
                3, 7, 100, 127]), max_size=8)),
           st.tuples(st.just("data"), st.binary(max_size=300))), max_size=12))
def test_ram_model_copies_runs_as_the_byte_loop_does(driver, steps):
    fast, slow = OledRam(driver), OledRam(driver)
    for kind, payload in steps:
        if kind == "cmd":
            fast.command(bytes(payload))
            slow.command(bytes(payload))
        else:
            fast.data(payload)
            _byte_by_byte(slow, payload)
        assert (fast.ram, fast.page, fast.col, fast.mode) == (slow.ram, slow.page, slow.col, slow.mode)


pages_of_rows = st.lists(st.sampled_from([bytes(WIDTH), bytes([0xFF]) * WIDTH, bytes(range(WIDTH)),
                                         bytes(range(WIDTH, 2 * WIDTH)), bytes([0x81, 0x18]) * (WIDTH // 2)]),
                         min_size=PAGES, max_size=PAGES).map(b"".join)  # pages that come back, on any panel


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.one_of(pages_of_rows, st.binary(min_size=FRAME, max_size=FRAME)),
                          st.lists(st.tuples(st.integers(0, FRAME - 1), st.integers(1, 255)), max_size=6)),
                min_size=1, max_size=14),
       st.integers(1, 12))
def test_panels_packers_pack_each_frame_as_a_whole_packing_does(frames, kept):
    shared: dict[bytes, bytes] = {}
    packers = [RowPacker(shared) for _ in range(3)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("drivers.oled_updates.PAGE_CACHE", kept)  # a small cache: pages are dropped and packed again
        for panel, rows, edits in frames:  # a frame for a panel: pages seen before, a few bytes changed
            frame = bytearray(rows)
            for i, flip in edits:
                frame[i] ^= flip
            want = pack_rows(bytes(frame))
            assert packers[panel].pack(bytes(frame)) == want == luma_packing(Image.frombytes("1", (128, 64),
                                                                                            bytes(frame)))
            assert packers[panel].pack(bytes(frame)) == want  # the same frame again
            assert len(shared) <= kept
    with pytest.raises(ValueError, match="1024 bytes"):
        packers[0].pack(bytes(1000))


@settings(max_examples=60, deadline=None)
@given(st.lists(pages_of_rows, min_size=2, max_size=5, unique=True),
       st.lists(st.tuples(st.integers(0, 2), st.integers(0, 4)), min_size=1, max_size=24),
       st.integers(1, 4))
def test_pictures_seen_before_are_packed_as_a_whole_packing_does(pool, shows, kept):
    """Panels sharing their packed pictures: every picture, first met or looked up (on its own
    panel or another, kept or dropped from a small cache), is packed as from scratch."""
    pages: dict[bytes, bytes] = {}
    frames: dict[bytes, bytes] = {}
    packers = [RowPacker(pages, frames) for _ in range(3)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("drivers.oled_updates.FRAME_CACHE", kept)
        for panel, pick in shows:
            rows = pool[pick % len(pool)]
            assert packers[panel].pack(rows) == pack_rows(rows)
            assert len(frames) <= kept
    assert packers[0].pack(bytearray(pool[0])) == pack_rows(pool[0])  # any bytes-like picture


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@settings(max_examples=100, deadline=None)
@example(steps=[(False, bytes(FRAME), []), (True, None, [(3 * WIDTH + 5, 1)]),  # page 3 changed, not sent
                (False, bytes(FRAME), [(3 * WIDTH + 100, 1)]),  # whole, page 3 another change
                (False, None, [(3 * WIDTH + 100, 1)])])  # its change undone: column 100, not 5
@given(steps=st.lists(st.tuples(st.booleans(), st.one_of(st.none(), pages_of_rows),
                                st.lists(st.tuples(st.integers(0, FRAME - 1), st.integers(1, 255)), max_size=4)),
                      min_size=1, max_size=10))
def test_a_writer_whose_send_failed_shows_every_later_frame(driver, steps):
    """One writer, some of its sends failing (the panel gone for that send, back with garbage in its
    RAM): the send after a failure is whole, and every frame sent whole or in part is what the
    panel then shows (what the writer kept of the frames before never outlives a failure). A frame
    is new pages, or the one before with a few bytes changed: small changes, small windows."""
    sim = SimI2C()
    writer = PanelWriter.for_device(driver, sim.open_driver(ScreenSpec(driver, bus=2)))
    want = None
    frame = bytearray(FRAME)
    for fails, rows, edits in steps:
        if rows is not None:
            frame = bytearray(rows)
        for i, flip in edits:
            frame[i] ^= flip
        if fails and bytes(frame) != writer.sent:  # a send that writes something, to a panel gone
            sim.unplug(2)
            with pytest.raises((OSError, DeviceNotFoundError)):
                writer.send(bytes(frame))
            assert writer.sent is None
            sim.plug(2)  # its RAM garbage now: only a whole frame shows a picture again
        else:
            writer.send(bytes(frame))
            want = bytes(frame)
        if writer.sent is not None:
            ram = sim.rams[(2, 0x3C)]
            assert b"".join(page[ram.offset:ram.offset + WIDTH] for page in ram.ram) == want
