"""Partial updates of SSD1306/SH1106 panels: pack an image into controller pages, send what changed.

Both controllers hold 8 pages of 128 columns; a byte is one column of 8 pixels, the top pixel in
bit 0. luma's drivers pack that buffer pixel by pixel in Python (≈0.5 ms here, several ms on a
Pi Zero) and always send the whole 1 KB. `pack` does it with Pillow (transpose, `tobytes`) and a
bit-reversal table; `PanelWriter` then sends only the changed part, through the device's own luma
serial interface (drivers/luma_internals.py: real i2c on the table, a simulated bus or luma's
noop/mock interfaces in tests). Where that interface is luma's i2c sending its data through
smbus2's I2C_RDWR (the table's bus, the simulated one), each command block and each data run goes
to that same `i2c_rdwr` as one write transaction built from bytes: the transactions luma's
`command` and `data` make, without luma's lists and smbus2's SMBus block union; the command
messages of windows that come back are kept, and so are the windows of changes that come back.

- SSD1306, horizontal addressing (set by luma's init): COLUMNADDR (0x21) and PAGEADDR (0x22) open a
  window of pages x columns, then the data fills it row by row. Changed pages are grouped into
  windows so that command overhead plus resent bytes is smallest.
- SH1106 has no window commands: it is page-addressed. Each changed page gets its page (0xB0+n) and
  start column (low and high nibbles, plus the panel's 2-column offset), then that page's changed
  columns.

A writer that has not sent a frame yet (just opened, or reopened after an outage) sends the whole
frame: the controller's RAM is then known again.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from drivers import luma_internals
from drivers.luma_internals import RdwrPath, SerialInterface

if TYPE_CHECKING:
    from PIL.Image import Image, Transpose

WIDTH, PAGES = 128, 8
FRAME = WIDTH * PAGES
COLUMNADDR, PAGEADDR, PAGE_START = 0x21, 0x22, 0xB0
CONTROL_COMMAND, CONTROL_DATA = 0x00, b"\x40"  # the byte before an I2C transaction's commands / data
COMMAND_CACHE = 256  # command messages kept, every panel together: about 150 KB at most
WINDOW_CACHE = 64  # a panel's windows with their (shared) command messages: about 15 KB at most
COVER_CACHE = 512  # window covers kept: about 200 KB at most
PAGE_CACHE = 512  # packed pages kept by a table's panels: about 200 KB at most
FRAME_CACHE = 64  # whole packed pictures kept by a table's panels: about 130 KB at most
SH1106_COLUMN_OFFSET = 2  # 128 visible columns in a 132-column RAM
# Bytes a window costs besides its data on I2C: its command transaction (address, control byte,
# 6 command bytes) and the data transaction's address and control byte.
SSD1306_WINDOW_OVERHEAD = 2 + 6 + 2


def pack(image: Image, rotation: int = 0) -> bytes:
    """A mode "1" image as the controller's 1024 bytes (page by page, top pixel in bit 0), turned
    as luma turns it for a panel mounted `rotation` quarter turns (its `preprocess`)."""
    if image.mode != "1":
        image = image.convert("1")
    size = _SIZES[rotation & 1]
    if image.size != size:
        raise ValueError(f"a panel image is {size[0]}x{size[1]}, got {image.size[0]}x{image.size[1]}")
    # one transpose: row x then holds panel column x top to bottom, 8 bytes, one per page, top
    # pixel in bit 0 ("1;R"); for a turned panel it includes luma's turn
    columns = image.transpose(_COLUMNS[rotation & 3]).tobytes("raw", "1;R")
    return b"".join([columns[0::8], columns[1::8], columns[2::8], columns[3::8],
                     columns[4::8], columns[5::8], columns[6::8], columns[7::8]])


_SIZES = ((WIDTH, PAGES * 8), (PAGES * 8, WIDTH))


def pack_rows(rows: bytes) -> bytes:
    """`pack` of an upright (rotation 0) panel's image given as its mode "1" bytes (rows of 16
    bytes, leftmost pixel in the high bit), without Pillow: each 8x8 block of pixels (one row
    byte of 8 rows) is a 64-bit word of one big integer, and the 128 words are transposed at once."""
    if len(rows) != FRAME:
        raise ValueError(f"a panel image is {FRAME} bytes, got {len(rows)}")
    return b"".join(_pack_pages(rows, PAGES))


def _pack_pages(rows: bytes, pages: int) -> list[bytes]:
    """Each of `pages` pages given one after the other by their rows (8 rows of 16 bytes), packed
    as the panel holds it: 128 column bytes, the top pixel in bit 0."""
    # the pages upside down: each row byte's column holds their rows bottom first, a block's rows
    # bottom first too, so that after the transpose the top pixel is bit 0
    flipped = rows[::-1]
    x = int.from_bytes(b"".join(map(flipped.__getitem__, _ROW_BYTES)), "big")
    # the three exchanges of an 8x8 bit transpose (Hacker's Delight), every block at once: each
    # mask's bits and their partners lie in one block, so no block reaches into the next
    mask7, mask14, mask28 = _MASKS[pages]
    t = (x ^ (x >> 7)) & mask7
    x ^= t ^ (t << 7)
    t = (x ^ (x >> 14)) & mask14
    x ^= t ^ (t << 14)
    t = (x ^ (x >> 28)) & mask28
    x ^= t ^ (t << 28)
    # the blocks came by row byte, pages last first: a page is every pages-th block (8-byte
    # items, copied as they are: no byte order involved)
    blocks = memoryview(x.to_bytes(pages * WIDTH, "big")).cast("Q")
    return list(map(memoryview.tobytes, map(blocks.__getitem__, _PAGE_BLOCKS[pages])))


# the slices of `_pack_pages` (taken by `map`: no bytecode a slice): each row byte's column,
# the last first, and each page's blocks for 1 to 8 pages, the last page's first
_ROW_BYTES = tuple(slice(c, None, WIDTH // 8) for c in range(WIDTH // 8 - 1, -1, -1))
_PAGE_BLOCKS = [tuple(slice(n - 1 - p, None, n) for p in range(n)) for n in range(PAGES + 1)]
# the transpose's masks for 1 to 8 pages (one 64-bit word a block, 16 blocks a page)
_MASKS = [tuple(int.from_bytes(bytes.fromhex(m) * (16 * n), "big")
                for m in ("00AA00AA00AA00AA", "0000CCCC0000CCCC", "00000000F0F0F0F0")) for n in range(PAGES + 1)]
# each page's rows, and its column bytes, in a frame (slices made once: a slice made in a loop
# costs more than the bytes it copies)
_PAGE_SLICES = tuple(slice(a, a + WIDTH) for a in range(0, FRAME, WIDTH))


class RowPacker:
    """`pack_rows` for one panel's frames in turn: a whole picture seen lately is looked up in
    `frames` (rows -> packed, shared by the panels of a table: a cursor moved back, a notice shown
    again, the same screen on another seat); else a page whose rows are those of the frame before
    keeps its packed bytes, another is looked up in `pages` (rows -> packed, shared too: pages
    come back, on one screen or another), and only the rest is packed."""

    __slots__ = ("rows", "packed", "pages", "frames")

    def __init__(self, pages: dict[bytes, bytes] | None = None, frames: dict[bytes, bytes] | None = None) -> None:
        self.rows = self.packed = b""  # the last frame's rows, and them packed
        self.pages: dict[bytes, bytes] = {} if pages is None else pages
        self.frames: dict[bytes, bytes] = {} if frames is None else frames

    def pack(self, rows: bytes) -> bytes:
        """`pack_rows(rows)`."""
        if len(rows) != FRAME:
            raise ValueError(f"a panel image is {FRAME} bytes, got {len(rows)}")
        if type(rows) is not bytes:  # a key of `frames`, and kept: an immutable copy
            rows = bytes(rows)
        was, packed, pages = self.rows, self.packed, self.pages
        if rows == was:
            return packed
        frames = self.frames
        done = frames.get(rows)  # the renderer hands a picture seen lately as the same object: hashed once
        if done is not None:
            self.rows, self.packed = rows, done
            return done
        out: list[bytes] = []
        missing: list[int] = []  # where `out` holds a page's rows, to be packed
        for span in _PAGE_SLICES:
            page = rows[span]
            if packed and page == was[span]:
                out.append(packed[span])
                continue
            done = pages.get(page)
            if done is None:
                missing.append(len(out))
                done = page
            out.append(done)
        if missing:  # packed together: one transpose
            for i, done in zip(missing, _pack_pages(b"".join([out[i] for i in missing]), len(missing)), strict=True):
                if len(pages) >= PAGE_CACHE:
                    pages.pop(next(iter(pages)), None)  # the oldest goes
                pages[out[i]] = done
                out[i] = done
        packed = b"".join(out)
        if len(frames) >= FRAME_CACHE:
            frames.pop(next(iter(frames)), None)  # the oldest goes
        frames[rows] = packed
        self.rows, self.packed = rows, packed
        return packed


def pack_picture(image: Image, rotation: int = 0, rows: bytes | None = None, packer: RowPacker | None = None
                 ) -> bytes:
    """`pack`, from the image's mode "1" bytes (`rows`) when its caller has them and the panel is
    upright (by the panel's `packer`, if given: the pages that changed since its last frame)."""
    if rows is not None and rotation == 0 and image.mode == "1" and image.size == _SIZES[0]:
        return pack_rows(rows) if packer is None else packer.pack(rows)
    return pack(image, rotation)


def _columns() -> dict[int, Transpose]:
    from PIL.Image import Transpose

    # luma's rotate=r turns the image by -90*r degrees (ROTATE_270, ROTATE_180, ROTATE_90 for r =
    # 1, 2, 3), then TRANSPOSE makes columns rows: the two compose into one of Pillow's transposes
    return {0: Transpose.TRANSPOSE, 1: Transpose.FLIP_TOP_BOTTOM, 2: Transpose.TRANSVERSE,
            3: Transpose.FLIP_LEFT_RIGHT}


class _Columns(dict[int, "Transpose"]):
    """The transposes by rotation, looked up at the first packing (Pillow loads lazily)."""

    def __missing__(self, key: int) -> Transpose:
        self.update(_columns())
        return self[key]


_COLUMNS = _Columns()


class Window(NamedTuple):
    """Pages `page0`..`page1` x columns `col0`..`col1` (inclusive) of the panel (a tuple: made,
    read and compared in C, for every window sent)."""

    page0: int
    page1: int
    col0: int
    col1: int

    @property
    def size(self) -> int:
        """Data bytes in the window."""
        return (self.page1 - self.page0 + 1) * (self.col1 - self.col0 + 1)

    def data(self, frame: bytes) -> bytes:
        """The window's bytes of a packed frame, in the order the controller fills it."""
        return b"".join(frame[p * WIDTH + self.col0:p * WIDTH + self.col1 + 1]
                        for p in range(self.page0, self.page1 + 1))


WHOLE = Window(0, PAGES - 1, 0, WIDTH - 1)


def changed_columns(old: bytes, new: bytes) -> dict[int, tuple[int, int]]:
    """Page -> (first, last) changed column, for the pages that differ between two packed frames."""
    return _spans(_changes(old, new, [UNKNOWN] * PAGES))


def _spans(changes: bytes) -> dict[int, tuple[int, int]]:
    """`_changes`' bytes as changed_columns gives them."""
    return {changes[i]: (changes[i + 1], changes[i + 2]) for i in range(0, len(changes), 3)}


def _changes(old: bytes, new: bytes, ints: list[int]) -> bytes:
    """changed_columns as bytes: page, first, last for each changed page (a small cache key).
    `ints` holds `old`'s pages as integers (UNKNOWN where not worked out), and then `new`'s: a
    writer keeps them, so that each changed page is made an integer once, not twice."""
    out: list[int] = []
    for page, span in _PAGE_SPANS:  # a page's bytes compared at once (C); only a changed one is measured
        was, now = old[span], new[span]
        if was != now:
            # the page's XOR as one integer, its first column in the highest byte: the highest
            # set bit is in the first changed column, the lowest in the last
            after = int.from_bytes(now, "big")
            before = ints[page]
            if before < 0:
                before = int.from_bytes(was, "big")
            ints[page] = after
            diff = before ^ after
            out += (page, _LAST_BIT - diff.bit_length() >> 3, _LAST_BIT - (diff & -diff).bit_length() >> 3)
    return bytes(out)


UNKNOWN = -1  # a page's integer not worked out (a page's integer is never negative)
_NONE_KNOWN = (UNKNOWN,) * PAGES
_PAGE_SPANS = tuple(enumerate(_PAGE_SLICES))
_LAST_BIT = WIDTH * 8  # a column's bits counted from the page's first column's highest bit


def ssd1306_windows(changed: dict[int, tuple[int, int]], overhead: int = SSD1306_WINDOW_OVERHEAD) -> list[Window]:
    """The windows covering every changed column with the fewest bytes on the bus (commands included)."""
    pages = sorted(changed)
    return _cover(pages, [changed[page] for page in pages], overhead)


def _cover(pages: list[int], spans: list[tuple[int, int]], overhead: int) -> list[Window]:
    """`ssd1306_windows` of the changed `pages` in order, `spans` their (first, last) columns."""
    n = len(pages)
    if n < 2:  # none, or one page: its changed columns are the cheapest cover
        return [Window(p, p, *span) for p, span in zip(pages, spans)]
    # costs[j]: the cheapest cover of pages[:j], whose last window spans pages[i]..pages[j-1]
    # (and every page between) over columns lo..hi, picks[j] = (i, lo, hi)
    costs = [0]
    picks = [(0, 0, 0)]
    for j in range(1, n + 1):
        top = pages[j - 1] + 1
        lo, hi = WIDTH, -1
        cheapest = 1 << 30
        pick = picks[0]
        for i in range(j - 1, -1, -1):  # plain comparisons and locals: this runs for every new change
            first, end = spans[i]
            if first < lo:
                lo = first
            if end > hi:
                hi = end
            cost = costs[i] + (top - pages[i]) * (hi - lo + 1)
            if cost < cheapest:
                cheapest, pick = cost, (i, lo, hi)
        costs.append(cheapest + overhead)
        picks.append(pick)
    windows = []
    j = n
    while j > 0:
        i, lo, hi = picks[j]
        windows.append(Window(pages[i], pages[j - 1], lo, hi))
        j = i
    return windows[::-1]


@lru_cache(maxsize=COVER_CACHE)
def _ssd1306_cover(changes: bytes) -> tuple[Window, ...]:
    """`ssd1306_windows` of `_changes`' bytes (page by page, in order)."""
    return tuple(_cover(list(changes[0::3]), list(zip(changes[1::3], changes[2::3])), SSD1306_WINDOW_OVERHEAD))


def sh1106_windows(changed: dict[int, tuple[int, int]]) -> list[Window]:
    """One window per changed page (the SH1106 has no multi-page window)."""
    return [Window(page, page, first, last) for page, (first, last) in sorted(changed.items())]


class PanelWriter:
    """Sends frames to one SSD1306 or SH1106 through its luma serial interface, only what changed.

    `sent` is the controller's RAM as far as we know: None until a whole frame got through. A
    failed send leaves it None, so the next frame on a reopened screen is whole.
    """

    def __init__(self, driver: str, serial: SerialInterface, column_offset: int | None = None,
                 colstart: int = 0) -> None:
        if driver not in ("ssd1306", "sh1106"):
            raise ValueError(f"no partial updates for {driver!r}")
        self.driver = driver
        self.serial = serial
        self.column_offset = SH1106_COLUMN_OFFSET if column_offset is None else column_offset
        self.colstart = colstart
        self.sent: bytes | None = None
        self._ints = [UNKNOWN] * PAGES  # `sent`'s pages as integers (see `_changes`)
        self._lean = luma_internals.rdwr_path(serial)
        # address + command payload -> its smbus2 i2c_msg (lean path), shared by the panels: a
        # message names no bus, and the panels of a table answer at the same address
        self._commands: dict[bytes, object] = _COMMANDS.setdefault(self._lean.message, {}) if self._lean else {}
        # this panel's windows sent lately -> their command message (one of `_commands`)
        self._windows_sent: dict[Window, object] = {}
        # the data runs' messages: smbus2's, written over (this writer sends from one thread)
        self._data: Callable[[int, bytes], object] | None = None
        if self._lean is not None:
            lean = self._lean.message is luma_internals.write_message
            self._data = luma_internals.DataMessages() if lean else self._lean.message

    @classmethod
    def for_device(cls, driver: str, device: object) -> PanelWriter:
        """A writer on a luma ssd1306/sh1106 device's own serial interface and column offsets
        (LumaInternalsError if luma keeps them elsewhere than it did)."""
        serial = luma_internals.serial_interface(device)
        if driver == "ssd1306":
            return cls(driver, serial, colstart=luma_internals.ssd1306_column_start(device))
        return cls(driver, serial, luma_internals.sh1106_column_offset(device))

    def windows(self, frame: bytes) -> list[Window]:
        """What sending `frame` would write: everything at first, then the changed windows."""
        return self._windows(frame, list(self._ints))

    def _windows(self, frame: bytes, ints: list[int]) -> list[Window]:
        """`windows`, `ints` (`sent`'s pages as integers) made those of `frame`."""
        if self.sent is None:
            ints[:] = _NONE_KNOWN
            return [Window(p, p, 0, WIDTH - 1) for p in range(PAGES)] if self.driver == "sh1106" else [WHOLE]
        changes = _changes(self.sent, frame, ints)
        if self.driver == "sh1106":
            return sh1106_windows(_spans(changes))
        # the same changes come back often (a cursor moving, a line redrawn): their cover is kept
        return list(_ssd1306_cover(changes))

    def send(self, frame: bytes) -> int:
        """Send a packed frame's changes; the payload bytes written (commands + data)."""
        windows = self._windows(frame, self._ints)  # `_ints` then `frame`'s, which `sent` becomes
        self.sent = None  # unknown RAM until the whole send went through
        if self._lean is not None:
            total = self._send_lean(frame, windows, self._lean)
            self.sent = frame
            return total
        total = 0
        serial = self.serial
        for w in windows:
            if self.driver == "ssd1306":
                commands = (COLUMNADDR, self.colstart + w.col0, self.colstart + w.col1, PAGEADDR, w.page0, w.page1)
                serial.command(*commands)
                data = w.data(frame)
                serial.data(data)  # luma slices it into lists itself
                total += len(commands) + len(data)
            else:
                column = w.col0 + self.column_offset
                for page in range(w.page0, w.page1 + 1):
                    serial.command(PAGE_START + page, column & 0x0F, 0x10 | (column >> 4))
                    data = frame[page * WIDTH + w.col0:page * WIDTH + w.col1 + 1]
                    serial.data(data)  # luma slices it into lists itself
                    total += 3 + len(data)
        self.sent = frame
        return total

    def _send_lean(self, frame: bytes, windows: list[Window], path: RdwrPath) -> int:
        """`send` on smbus2's I2C_RDWR: each command block and each data run one write transaction,
        the control byte first: the bytes luma's i2c writes (its `command` goes through the SMBus
        I2C-block write, which is that same single transaction), without its lists."""
        total = 0
        commands, mine = self._commands, self._windows_sent
        rdwr, message, address = path.rdwr, self._data or path.message, path.address
        ssd1306, colstart = self.driver == "ssd1306", self.colstart
        for window in windows:
            page0, page1, col0, col1 = window
            end = col1 + 1
            if ssd1306:
                sent = mine.get(window)  # the window's own message: no key of its bytes made
                if sent is None:
                    key = bytes((address, CONTROL_COMMAND, COLUMNADDR, colstart + col0, colstart + col1,
                                 PAGEADDR, page0, page1))
                    kept = commands.get(key)  # one lookup: another bus's writer may clear the dict
                    sent = self._command_message(key) if kept is None else kept
                    if len(mine) >= WINDOW_CACHE:
                        mine.clear()
                    mine[window] = sent
                try:
                    rdwr(sent)
                except OSError as exc:
                    if exc.errno not in _NACK:
                        raise
                    raise _not_found(address) from exc
                if page0 == page1:
                    base = page0 * WIDTH
                    payload = CONTROL_DATA + frame[base + col0:base + end]
                else:
                    payload = b"".join([CONTROL_DATA, *[frame[base + col0:base + end]
                                                        for base in range(page0 * WIDTH, page1 * WIDTH + 1, WIDTH)]])
                rdwr(message(address, payload))  # a failed data write stays an OSError, as in luma
                total += 5 + len(payload)  # 6 command bytes + the data, no control bytes
            else:
                column = col0 + self.column_offset
                low, high = column & 0x0F, 0x10 | (column >> 4)
                for page in range(page0, page1 + 1):
                    key = bytes((address, CONTROL_COMMAND, PAGE_START + page, low, high))
                    kept = commands.get(key)
                    _command(rdwr, self._command_message(key) if kept is None else kept, address)
                    base = page * WIDTH
                    rdwr(message(address, CONTROL_DATA + frame[base + col0:base + end]))
                    total += 3 + end - col0
        return total

    def _command_message(self, key: bytes) -> object:
        """The i2c_msg of a command transaction (`key`: address, then the payload), kept: the same
        windows come back frame after frame (the kernel copies a write message's buffer, so one
        message can be sent again and again)."""
        assert self._lean is not None
        if len(self._commands) >= COMMAND_CACHE:
            self._commands.clear()
        message = self._commands[key] = self._lean.message(self._lean.address, key[1:])
        return message


# i2c_msg factory -> its kept command messages
_COMMANDS: dict[Callable[[int, bytes], object], dict[bytes, object]] = {}


_NACK = (errno.EREMOTEIO, errno.EIO)


def _command(rdwr: Callable[..., object], message: object, address: int) -> None:
    """One command transaction; a NACK or I/O error raises luma's DeviceNotFoundError, as luma's
    `command` does (what drivers.screens expects of a screen that went away)."""
    try:
        rdwr(message)
    except OSError as exc:
        if exc.errno not in _NACK:
            raise
        raise _not_found(address) from exc


def _not_found(address: int) -> Exception:
    """luma's DeviceNotFoundError for a screen that does not answer at `address`."""
    from luma.core.error import DeviceNotFoundError

    error: Exception = DeviceNotFoundError(f"I2C device not found on address: 0x{address:02X}")
    return error
