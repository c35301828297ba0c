"""Fonts for the seat screens: DejaVu Sans when installed, else Pillow's font with drawn accents.

DejaVu Sans comes with Debian's fonts-dejavu-core (present on Raspberry Pi OS) and covers every
French letter. Pillow's bundled fallback (`ImageFont.load_default(size=...)`, Pillow ≥ 10.1) is a
subset of Aileron WITHOUT accented letters: é, è, à, ç, É all come out as the same missing-glyph
box. So with the fallback we draw the base letter and add the accent with a few pixels ourselves
(NFD decomposition), and replace a few typographic signs (œ, «, …, ◀) by ASCII look-alikes.

Fonts are loaded once per (size, weight) and cached; `configure` (tests, odd systems) resets.
"""

from __future__ import annotations

import logging
import math
import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .bitrows import EMPTY, Strip, stacked, strip_of
from .cellfont import CellFont

log = logging.getLogger(__name__)

REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
ENV_DIR = "ZEBRA_TABLE_FONT_DIR"  # a folder holding DejaVuSans*.ttf, searched first
FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu",  # Debian, Raspberry Pi OS, Ubuntu
    "/usr/share/fonts/dejavu",  # Fedora, Alpine
    "/usr/share/fonts/TTF",  # Arch
    "/usr/share/fonts/dejavu-sans-fonts",
    "/usr/local/share/fonts",
    "~/.local/share/fonts",
    "~/.fonts",
    "/Library/Fonts",
    "/opt/homebrew/share/fonts",
)
FALLBACK = "pillow-default"
_PROBE = "ÉAhdgjpqy|"  # tallest capitals-with-accent to deepest descenders: the line's extent
_MISSING = "\uffff"  # a noncharacter: every font draws its missing-glyph box for it
_MARKS = {"\u0301": "acute", "\u0300": "grave", "\u0302": "circumflex", "\u0308": "diaeresis",
          "\u0303": "tilde", "\u0327": "cedilla"}
_ASCII_LOOKALIKE = {
    "œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss", "’": "'", "‘": "'", "«": '"', "»": '"',
    "“": '"', "”": '"', "…": "...", "–": "-", "—": "-", "◀": "<", "▶": ">", "•": "*", "·": ".",
    "×": "x", "\u00a0": " ", "\u202f": " ", "★": "*", "☠": "X",
}

_settings: dict[str, Any] = {"dirs": None, "fallback_only": False}
_generation = 0


@dataclass(frozen=True, eq=False)
class Face:
    """A loaded font and what the renderer needs to place it.

    top: rows above the tallest glyph when drawn at y=0; height: rows from there to the deepest
    descender. synthetic: accents are drawn by us (the font has none).
    """

    font: Any
    size: int
    bold: bool
    source: str
    synthetic: bool
    top: int
    height: int
    ellipsis: str


def configure(dirs: Sequence[str | os.PathLike[str]] | None = None, fallback_only: bool = False) -> None:
    """Change where fonts are looked for (None: the standard places), or force the fallback."""
    global _generation
    _settings["dirs"] = None if dirs is None else tuple(str(d) for d in dirs)
    _settings["fallback_only"] = fallback_only
    _generation += 1
    find_font.cache_clear()
    face.cache_clear()
    _missing.cache_clear()
    _plan.cache_clear()
    _strip.cache_clear()
    strip_rows.cache_clear()
    _measure.cache_clear()
    _cells.cache_clear()
    pixel_face.cache_clear()


def generation() -> int:
    """A number that changes whenever `configure` is called (render caches key on it)."""
    return _generation


@lru_cache(maxsize=4)
def find_font(bold: bool = False) -> Path | None:
    """The DejaVu Sans file for the weight, from $ZEBRA_TABLE_FONT_DIR or the standard places."""
    if _settings["fallback_only"]:
        return None
    dirs = _settings["dirs"]
    if dirs is None:
        env = os.environ.get(ENV_DIR)
        dirs = ((env,) if env else ()) + FONT_DIRS
    name = BOLD if bold else REGULAR
    for folder in dirs:
        path = Path(folder).expanduser() / name
        if path.is_file():
            return path
    return None


@lru_cache(maxsize=16)
def face(size: int, bold: bool = False) -> Face:
    """The font of `size` pixels (bold or regular), loaded once."""
    from PIL import ImageFont

    path = find_font(bold) or (find_font(False) if bold else None)
    font: Any = None
    source = FALLBACK
    if path is not None:
        try:
            font = ImageFont.truetype(str(path), size)
            source = str(path)
        except OSError as exc:
            log.warning("cannot load font %s: %s", path, exc)
    if font is None:
        if not _settings["fallback_only"] and not _settings.setdefault("warned", False):
            _settings["warned"] = True
            log.warning("DejaVu Sans not found (install fonts-dejavu-core): accents are drawn by hand")
        font = ImageFont.load_default(size=size)
    synthetic = _glyph(font, "é") == _glyph(font, _MISSING)
    box = font.getbbox(_PROBE, mode="1")
    top = int(box[1])
    ellipsis = "…" if _glyph(font, "…") != _glyph(font, _MISSING) else "..."
    return Face(font, size, bold, source, synthetic, top, int(box[3]) - top, ellipsis)


PIXEL_FONT = "data/fonts/6x10.pcf.gz"  # X.Org misc-fixed 6x10, public domain (see its LICENSE file)


@lru_cache(maxsize=1)
def pixel_face() -> Face:
    """The screens' text font: misc-fixed 6x10, a bitmap drawn for 10-pixel rows (bundled).

    Each glyph is a 6x10 cell with its accents inside it: 21 characters and 5 rows fit under the
    title bar, where DejaVu at 10 px gives 4 blurred rows. Falls back to `face(10)` when the
    bundled file cannot be read (or the fallback is forced).
    """
    from importlib.resources import files

    if not _settings["fallback_only"]:
        try:
            resource = files("firmware_host").joinpath(PIXEL_FONT)
            font = CellFont.load(resource.read_bytes(), str(resource))
            # missing glyphs (◀ ▶) are swapped for look-alikes by the synthetic path
            return Face(font, font.size, False, font.source, True, 0, font.cell_h, "…")
        except OSError as exc:
            log.warning("cannot load the screen font %s: %s", PIXEL_FONT, exc)
    return face(10)


def _glyph(font: Any, ch: str) -> bytes:
    from PIL import Image, ImageDraw

    size = getattr(font, "size", 10) * 2
    im = Image.new("1", (size, size))
    ImageDraw.Draw(im).text((0, 0), ch, font=font, fill=1)
    return im.tobytes()


@lru_cache(maxsize=512)
def _missing(f: Face, ch: str) -> bool:
    if hasattr(f.font, "has"):  # a CellFont knows its glyphs
        return not f.font.has(ch)
    return _glyph(f.font, ch) == _glyph(f.font, _MISSING)


@lru_cache(maxsize=1024)
def _plan(f: Face, text: str) -> tuple[str, tuple[tuple[int, str], ...]]:
    """For a font without accents: the text to draw and the (index, accent) marks to add."""
    base: list[str] = []
    marks: list[tuple[int, str]] = []
    for ch in text:
        if ch.isascii() or not _missing(f, ch):
            base.append(ch)
            continue
        decomposed = unicodedata.normalize("NFD", ch)
        letter, accents = decomposed[0], decomposed[1:]
        if accents and letter.isascii():
            for accent in accents:
                if accent in _MARKS:
                    marks.append((len(base), _MARKS[accent]))
            base.append(letter)
        else:
            base.append(_ASCII_LOOKALIKE.get(ch, "?"))
    return "".join(base), tuple(marks)


def text_width(f: Face, text: str) -> int:
    """Width in pixels of `text` drawn in `f` on a 1-bit image, ink overhang included (cached: a new
    string is measured to fit it, then again to rasterise it, and a layout costs as much as a draw)."""
    font = f.font
    if type(font) is CellFont and text.isascii():  # one cell a character: counted, not measured
        return len(text) * font.cell_w
    return _measure(f, text)


@lru_cache(maxsize=512)
def _cells(f: Face, ch: str) -> int:
    """How many characters `ch` is drawn as (`_plan` swaps a missing one for its look-alike)."""
    return len(_plan(f, ch)[0]) if f.synthetic else 1


@lru_cache(maxsize=4096)
def _measure(f: Face, text: str) -> int:
    if not text:
        return 0
    if type(f.font) is CellFont:  # a missing character's look-alike may take two cells ("œ": "oe")
        extra = sum((_cells(f, ch) - 1) * text.count(ch) for ch in set(text).difference(_ASCII))
        return (len(text) + extra) * f.font.cell_w
    if f.synthetic and not text.isascii():
        text = _plan(f, text)[0]
    # mode "1" matters: unhinted advances (the default mode) can be 10 % short of what a 1-bit
    # draw lays out, and some glyphs ink past their advance.
    advance: float = f.font.getlength(text, mode="1")
    return max(math.ceil(advance), int(f.font.getbbox(text, mode="1")[2]))


_ASCII = frozenset(map(chr, range(128)))  # one cell each in a CellFont: left out of `_measure`'s count at once
_PAD = 2  # rows above and below a text strip for hand-drawn accents and cedillas


def draw_text(draw: Any, xy: tuple[int, int], text: str, f: Face, fill: int = 1) -> None:
    """Draw `text` with its top-left glyph corner at `xy` (accents drawn by hand if need be).

    Each distinct string is rasterised once and cached as a 1-bit strip: FreeType rendering is
    most of a screen's cost, and screens repeat their labels.
    """
    if text:
        draw.bitmap((xy[0], xy[1] - _PAD), _strip(f, text), fill=fill)


@lru_cache(maxsize=512)
def _strip(f: Face, text: str) -> Any:
    from PIL import Image, ImageDraw

    image = Image.new("1", (text_width(f, text) + _PAD, f.height + 2 * _PAD))
    if hasattr(f.font, "strip"):  # a CellFont pastes cached glyphs (no accent to add by hand)
        base = _plan(f, text)[0] if f.synthetic and not text.isascii() else text
        image.paste(f.font.strip(base), (0, _PAD - f.top))
        return image
    draw = ImageDraw.Draw(image)
    x, y = 0, _PAD - f.top
    if not f.synthetic or text.isascii():
        draw.text((x, y), text, font=f.font, fill=1)
        return image
    base, marks = _plan(f, text)
    draw.text((x, y), base, font=f.font, fill=1)
    for index, mark in marks:
        left = x + f.font.getlength(base[:index], mode="1")
        x0, y0, x1, y1 = f.font.getbbox(base[index], mode="1")
        _draw_mark(draw, int(left + (x0 + x1) / 2), y + int(y0), y + int(y1) - 1, mark, 1)
    return image


@lru_cache(maxsize=2048)
def strip_rows(f: Face, text: str) -> Strip:
    """`text`'s ink as bit rows, origin at the top-left glyph corner (what `draw_text` puts at xy)."""
    if not text:
        return EMPTY
    if hasattr(f.font, "ink"):  # a CellFont joins its glyphs' rows: no image at all
        base = _plan(f, text)[0] if f.synthetic and not text.isascii() else text
        whole, lane = f.font.ink(base)
        return stacked(len(base) * f.font.cell_w, -f.top, f.font.cell_h, whole, lane)
    return strip_of(_strip(f, text), -_PAD)


def _draw_mark(draw: Any, cx: int, top: int, bottom: int, mark: str, fill: int) -> None:
    above, high = top - 2, top - 3
    points = {
        "acute": [(cx, above), (cx + 1, high)],
        "grave": [(cx - 1, high), (cx, above)],
        "circumflex": [(cx - 1, above), (cx, high), (cx + 1, above)],
        "diaeresis": [(cx - 1, above), (cx + 1, above)],
        "tilde": [(cx - 2, above), (cx - 1, high), (cx, above), (cx + 1, high)],
        "cedilla": [(cx, bottom + 1), (cx + 1, bottom + 2), (cx, bottom + 2)],
    }[mark]
    draw.point(points, fill=fill)
