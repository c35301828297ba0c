"""A 1-bit picture as one Python int per row, drawn by OR-ing and masking cached bit strips.

Pillow's drawing calls cost ~15 µs each in Python and C bookkeeping (a masked `bitmap`, a
`paste`) for a few dozen pixels; a seat's screen is ~20 of them. Here a text row or a rectangle
is one shift and one OR of big ints, and the picture is its bytes (`Canvas.tobytes`).
In a Strip's row, pixel x is bit (width - 1 - x): rows are mode "1" image rows as `tobytes`
lays them out (MSB first), without the byte padding.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any


class Strip:
    """Ink of a small picture: `rows` of `width` bits (pixel x is bit width-1-x), the first one
    `top` rows below the strip's origin (blank rows above and below are left out)."""

    __slots__ = ("width", "top", "rows", "_tall")

    def __init__(self, width: int, top: int, rows: tuple[int, ...]) -> None:
        self.width = width
        self.top = top
        self.rows = rows
        self._tall: dict[int, int] = {}

    def tall(self, bits: int) -> int:
        """The rows stacked in one int, `bits` bits a row (a canvas's layout, for a one-op blit)."""
        whole = self._tall.get(bits)
        if whole is None:
            whole = 0
            for row in self.rows:
                whole = (whole << bits) | row
            self._tall[bits] = whole
        return whole


EMPTY = Strip(0, 0, ())
# a drawing kept to be applied again: (rows, pixels it set to black, pixels it set to white), each
# an int of `rows` picture rows, the first in the highest bits
Layer = tuple[int, int, int]


def strip_of(image: Any, top: int = 0) -> Strip:
    """The ink of a mode "1" image whose first row lies `top` rows below the strip's origin."""
    width, height = image.size
    stride = (width + 7) // 8
    data = image.tobytes()
    pad = stride * 8 - width
    rows = [int.from_bytes(data[i * stride:(i + 1) * stride], "big") >> pad for i in range(height)]
    return trimmed(width, top, rows)


def trimmed(width: int, top: int, rows: list[int]) -> Strip:
    """A Strip of `rows`, blank rows at either end dropped (they cost work at every blit)."""
    first = next((i for i, r in enumerate(rows) if r), None)
    if first is None:
        return Strip(width, 0, ())
    last = max(i for i, r in enumerate(rows) if r)
    return Strip(width, top + first, tuple(rows[first:last + 1]))


def stacked(width: int, top: int, height: int, whole: int, lane: int) -> Strip:
    """`trimmed` of `height` rows given stacked in one int, `lane` bits a row (the first in the
    highest bits, each narrower than `lane`), the strip's `tall(lane)` kept from it."""
    if not whole:
        return Strip(width, 0, ())
    first = height - 1 - (whole.bit_length() - 1) // lane  # the first row with ink
    below = ((whole & -whole).bit_length() - 1) // lane  # blank rows under the last with ink
    whole >>= lane * below
    mask = (1 << lane) - 1
    n = height - below - first
    strip = Strip(width, top + first, tuple([(whole >> lane * (n - 1 - i)) & mask for i in range(n)]))
    strip._tall[lane] = whole
    return strip


@lru_cache(maxsize=512)
def _box(bits: int, height: int, x0: int, y0: int, x1: int, y1: int) -> int:
    """The whole-picture mask of pixels x0..x1, y0..y1 (inclusive, already clipped)."""
    span = ((1 << (x1 - x0 + 1)) - 1) << (bits - 1 - x1)
    whole = 0
    for _ in range(y1 - y0 + 1):
        whole = (whole << bits) | span
    return whole << ((height - 1 - y1) * bits)


class Canvas:
    """A width x height 1-bit picture, black to start with, held as ONE int: row 0 in the highest
    bits, each row `bits` wide (the width rounded up to whole bytes, like mode "1" image bytes).

    A glyph row, a rectangle or a whole text strip is then one shift and one OR (or AND NOT) of
    big ints, done in C: no Python loop over rows when nothing needs clipping.
    """

    __slots__ = ("width", "height", "bits", "ink")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.bits = (width + 7) // 8 * 8
        self.ink = 0

    def fill(self, x0: int, y0: int, x1: int, y1: int, ink: int = 1) -> None:
        """The rectangle x0..x1, y0..y1 (inclusive corners, like Pillow's) set to `ink`."""
        mask = self.fill_mask(x0, y0, x1, y1)
        if ink:
            self.ink |= mask
        else:
            self.ink &= ~mask

    def fill_mask(self, x0: int, y0: int, x1: int, y1: int) -> int:
        """The pixels `fill` sets, as a whole-picture mask."""
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, self.width - 1), min(y1, self.height - 1)
        if x1 < x0 or y1 < y0:
            return 0
        return _box(self.bits, self.height, x0, y0, x1, y1)

    def blit(self, s: Strip, x: int, y: int, ink: int = 1,
             box: tuple[int, int, int, int] | None = None) -> None:
        """Ink `s` with its origin at (x, y), inside `box` (x0, y0, x1, y1 inclusive) if given."""
        mask = self.blit_mask(s, x, y, box)
        if ink:
            self.ink |= mask
        else:
            self.ink &= ~mask

    def blit_mask(self, s: Strip, x: int, y: int, box: tuple[int, int, int, int] | None = None) -> int:
        """The pixels `blit` sets, as a whole-picture mask."""
        n = len(s.rows)
        if not n:
            return 0
        top = y + s.top
        bits = self.bits
        shifted = (self.height - top - n) * bits + bits - x - s.width
        if box is None and x >= 0 and x + s.width <= self.width and top >= 0 and top + n <= self.height:
            mask = s.tall(bits) << shifted  # inside the picture: nothing to clip
        else:
            x0, y0, x1, y1 = box if box is not None else (0, 0, self.width - 1, self.height - 1)
            x0, y0 = max(x0, 0, x), max(y0, 0, top)
            x1, y1 = min(x1, self.width - 1, x + s.width - 1), min(y1, self.height - 1, top + n - 1)
            if x1 < x0 or y1 < y0:
                return 0
            # row by row: a clipped strip may be wider than a row of the picture (a marquee)
            shift = bits - x - s.width
            span = ((1 << (x1 - x0 + 1)) - 1) << (bits - 1 - x1)
            mask = 0
            for i in range(y0 - top, y1 - top + 1):
                row = s.rows[i] << shift if shift >= 0 else s.rows[i] >> -shift
                mask = (mask << bits) | (row & span)
            mask <<= (self.height - 1 - y1) * bits
        return mask

    def put(self, layer: Layer, top: int) -> None:
        """Apply `layer` with its first row at row `top` (rows outside the picture are dropped)."""
        rows, clear, ink = layer
        below = self.height - top - rows  # picture rows under the layer
        bits = self.bits
        if below >= 0:
            clear, ink = clear << below * bits, ink << below * bits
        else:
            clear, ink = clear >> -below * bits, ink >> -below * bits
        if top < 0:
            whole = (1 << self.height * bits) - 1
            clear, ink = clear & whole, ink & whole
        if clear:
            self.ink &= ~clear
        self.ink |= ink

    def tobytes(self) -> bytes:
        """The picture as mode "1" image bytes (rows of whole bytes, MSB first)."""
        return self.ink.to_bytes(self.bits // 8 * self.height, "big")


class Recorder(Canvas):
    """A Canvas that notes every pixel its drawing touched, to give that drawing back as a Layer:
    applied with `Canvas.put`, a Layer leaves a picture exactly as the same calls drawn on it would,
    the picture being as wide as the Recorder (calls are cut at its sides the same way)."""

    __slots__ = ("touched", "cut")

    def __init__(self, width: int, height: int) -> None:
        super().__init__(width, height)
        self.touched = 0  # every pixel a call set, to either ink
        self.cut = False  # a call reached above or below the Recorder: a taller picture would differ

    def fill(self, x0: int, y0: int, x1: int, y1: int, ink: int = 1) -> None:
        """As Canvas.fill, the rectangle noted as touched."""
        if y1 >= y0 and (y0 < 0 or y1 >= self.height):
            self.cut = True
        self._mark(self.fill_mask(x0, y0, x1, y1), ink)

    def blit(self, s: Strip, x: int, y: int, ink: int = 1,
             box: tuple[int, int, int, int] | None = None) -> None:
        """As Canvas.blit, the strip's ink noted as touched (only those pixels change)."""
        if s.rows and (y + s.top < 0 or y + s.top + len(s.rows) > self.height):
            self.cut = True
        self._mark(self.blit_mask(s, x, y, box), ink)

    def _mark(self, mask: int, ink: int) -> None:
        """`mask` set to `ink`, and noted as touched."""
        if ink:
            self.ink |= mask
        else:
            self.ink &= ~mask
        self.touched |= mask

    def layer(self) -> Layer | None:
        """What was drawn, or None if a call reached past the top or the bottom."""
        if self.cut:
            return None
        return self.height, self.touched & ~self.ink, self.ink
