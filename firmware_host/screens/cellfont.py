"""A monospace bitmap font served glyph by glyph from a cache.

FreeType reads the bundled PCF font correctly but slowly (a measure or a draw costs ~0.3 ms, and
~8 ms straight from the .gz); the Pi Zero draws thousands of rows. Every glyph of a fixed-cell
font is drawn once with FreeType, kept as a tiny 1-bit image, and rows are pasted from those.
"""

from __future__ import annotations

import gzip
import io
from functools import lru_cache
from typing import Any

WORDS_KEPT = 512  # words kept per lane by `ink`: a word is 10 rows of a lane (160 bytes at 128 bits)
LANES_KEPT = 8  # lanes kept by `ink`: a lane is a text's length, rounded up to 64 bits
_MISSING = "\uffff"  # a noncharacter: the font draws its missing-glyph box for it

# Signs the games' texts use that the bundled font lacks, drawn for a 6x10 cell ("#": ink) in the
# font's style: ink in the 5 left columns, rows 1-8 (the capitals' rows, and no further down).
DRAWN: dict[str, tuple[str, ...]] = {
    "★": (  # a star: Drôles de Zèbres marks the seat a move is planned for
        "......",
        "..#...",
        "..#...",
        "#####.",
        ".###..",
        ".#.#..",
        "#...#.",
        "......",
        "......",
        "......",
    ),
    "☠": (  # skull and crossbones: Mata Hari's objectives
        "......",
        ".###..",
        "#####.",
        "#.#.#.",
        "#####.",
        ".#.#..",
        "#...#.",
        "..#...",
        "#...#.",
        "......",
    ),
}


class CellFont:
    """A fixed-cell bitmap font (width x height pixels per glyph) with a glyph cache."""

    def __init__(self, font: Any, width: int, height: int, source: str):
        self.font = font
        self.cell_w = width
        self.cell_h = height
        self.size = height
        self.source = source
        self._glyph = lru_cache(maxsize=1024)(self._draw_glyph)
        self._glyph_rows = lru_cache(maxsize=1024)(self._rows_of_glyph)
        self._glyph_tall = lru_cache(maxsize=1024)(self._tall)
        # lane -> word -> its rows stacked `lane` bits apart (`ink`'s loop reads them from a plain
        # dict: a text's first drawing looks one up per word)
        self._words: dict[int, dict[str, int]] = {}
        self._missing = self._glyph(_MISSING).tobytes()

    @classmethod
    def load(cls, data: bytes, source: str) -> CellFont:
        """A CellFont from a PCF font's bytes (gzipped or not)."""
        from PIL import ImageFont

        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        font = ImageFont.truetype(io.BytesIO(data), 10)
        left, top, right, bottom = font.getbbox("M", mode="1")
        width = int(font.getlength("M", mode="1"))
        height = int(font.getbbox("ÉAhdgjpqy|", mode="1")[3])
        return cls(font, width, height, source)

    def _draw_glyph(self, ch: str) -> Any:
        from PIL import Image, ImageDraw

        image = Image.new("1", (self.cell_w, self.cell_h))
        bitmap = DRAWN.get(ch)
        if bitmap is not None:  # the font lacks it: the table's own drawing, cut to the cell
            image.putdata([1 if y < len(bitmap) and x < len(bitmap[y]) and bitmap[y][x] == "#" else 0
                           for y in range(self.cell_h) for x in range(self.cell_w)])
            return image
        ImageDraw.Draw(image).text((0, 0), ch, font=self.font, fill=1)
        return image

    def has(self, ch: str) -> bool:
        """True when the font draws `ch` (not its missing-glyph box)."""
        return ch == " " or self._glyph(ch).tobytes() != self._missing

    # the parts of Pillow's font interface the renderer uses
    def getlength(self, text: str, mode: str = "1", *args: Any, **kw: Any) -> int:
        """Advance width of `text` in pixels."""
        return len(text) * self.cell_w

    def getbbox(self, text: str, mode: str = "1", *args: Any, **kw: Any) -> tuple[int, int, int, int]:
        """The cells' box of `text` (glyphs never ink outside their cell)."""
        return (0, 0, len(text) * self.cell_w, self.cell_h) if text else (0, 0, 0, 0)

    def strip(self, text: str) -> Any:
        """`text` drawn as a new 1-bit image, one cell per character."""
        from PIL import Image

        image = Image.new("1", (max(1, len(text) * self.cell_w), self.cell_h))
        for i, ch in enumerate(text):
            if ch != " ":
                image.paste(self._glyph(ch), (i * self.cell_w, 0))
        return image

    def ink(self, text: str) -> tuple[int, int]:
        """`text`'s pixel rows (`strip`'s pixels) stacked in one int, and the bits each takes."""
        # a row's leftmost pixel is its highest bit, the first row the highest; a lane is a
        # multiple of 64 bits, 128 at least: a screen canvas's row, so a strip's blit uses it as is
        w = self.cell_w
        lane = max(128, -(-len(text) * w // 64) * 64)
        words = self._words.get(lane)
        if words is None or len(words) + len(text) > WORDS_KEPT:  # at most one text's more
            if len(self._words) >= LANES_KEPT:
                self._words.clear()
            words = self._words[lane] = {}
        whole = -1
        for word in text.split(" "):  # a new text is mostly words seen before: joined word by word
            ink = words.get(word)
            if ink is None:
                ink = words[word] = self._word(word, lane)
            # a space is a blank cell: the next word starts one cell further
            whole = ink if whole < 0 else (whole << (len(word) + 1) * w) | ink
        return whole, lane

    def _word(self, word: str, lane: int) -> int:
        """`ink` of a word (no space), `lane` bits a row."""
        w = self.cell_w
        whole = 0
        for ch in word:
            whole = (whole << w) | self._glyph_tall(ch, lane)
        return whole

    def _tall(self, ch: str, lane: int) -> int:
        whole = 0
        for row in self._glyph_rows(ch):
            whole = (whole << lane) | row
        return whole

    def _rows_of_glyph(self, ch: str) -> tuple[int, ...]:
        if ch == " ":  # `strip` leaves spaces blank
            return (0,) * self.cell_h
        data = self._glyph(ch).tobytes()
        stride = (self.cell_w + 7) // 8
        pad = stride * 8 - self.cell_w
        return tuple(int.from_bytes(data[i * stride:(i + 1) * stride], "big") >> pad for i in range(self.cell_h))
