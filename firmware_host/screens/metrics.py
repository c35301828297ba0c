"""A seat's screen measured: its geometry (rows, margins, insets), its texts in one language with
their pixel widths, and the lines fitted to a row, each cached by the hashes the layout keys on
(`Key`). The layout (`layout.py`) and the message above the menu build on these."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.core import Screen, Text, is_essential
from games.frozen import quick_init

from . import fonts
from .textfit import fit, wrap

SIZE = (128, 64)
TITLE_H = 11  # inverted title bar: 1 px above the 10 px glyph cell
BODY_TOP = TITLE_H + 1
PITCH = 10
BAR_H = 5
MARGIN = 1  # left and right of text rows: 21 cells of 6 px fit in 126
MENU_INSET = 3  # menu labels start here, inside the cursor bar
STATUS_INSET = 3  # a message above the menu is marked by a line on its left
BANNER_INSET = 4  # a message covering the body is framed: its rows start this far from either side
ARROWS_W = 6  # room for the ▲▼ scroll marks right of a scrolling menu
ICON = 9
BIG_GAP = 4
ICONS = ("turn", "wait", "eye", "warn", "ok", "trophy")
MARQUEE_STEP = 0.35  # seconds per sideways scroll step of a highlighted menu entry
MARQUEE_PX = 6  # one character of the 6x10 font per step
MARQUEE_HOLD = 3  # steps held at each end, so the start and the end can be read

Label = Text | str


class RenderError(ValueError):
    """A screen size the renderer cannot lay out."""


@quick_init
@dataclass(frozen=True)
class Elision:
    """A text shown shorter than it is: where ("title", "line", "menu", "banner"), the full text,
    what is shown, and whether the game marked it essential (a property test forbids those)."""

    kind: str
    text: str
    shown: str
    essential: bool = False



def text_of(value: Any, lang: str) -> str:
    """Text, str or anything else as one printable row of text (never raises)."""
    if value is None:
        return ""
    s = value.get(lang) if isinstance(value, Text) else str(value)
    return s if s.isprintable() else "".join(ch if ch.isprintable() else " " for ch in s)


def check_size(size: tuple[int, int]) -> tuple[int, int]:
    """(width, height) as ints, or RenderError for a size no layout fits."""
    try:
        return _SIZES_OK[size]  # a size seen before: its (int, int)
    except (KeyError, TypeError):  # new, or unhashable (a list): checked below
        pass
    try:
        width, height = (int(v) for v in size)
    except (TypeError, ValueError):
        raise RenderError(f"size must be (width, height), got {size!r}") from None
    if width < 48 or height < 32 or width > 1024 or height > 1024:
        raise RenderError(f"cannot lay out a {width}x{height} screen (48x32 at least)")
    if len(_SIZES_OK) < 16 and size == (width, height) and all(v.__class__ is int for v in size):
        _SIZES_OK[(width, height)] = (width, height)
    return width, height


# sizes checked (tuples of two ints) -> themselves: a size equal to one of them gives the same
# ints (128.0 == 128 and int(128.0) == 128; True == 1 is far below the smallest width)
_SIZES_OK: dict[tuple[Any, ...], tuple[int, int]] = {}


def bar_value(value: Any) -> float | None:
    if value is None:
        return None
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return 0.0 if math.isnan(v) else min(1.0, max(0.0, v))


def body_face() -> fonts.Face:
    """The font of every text row and of the title."""
    return fonts.pixel_face()


def body_rows(height: int, bar: bool) -> int:
    """The text rows under the title bar (above the countdown bar, if any)."""
    return max(1, (height - BODY_TOP - (BAR_H + 1 if bar else 0)) // PITCH)


def width_of(text: str) -> int:
    """Pixel width of a text row in the body font."""
    return fonts.text_width(body_face(), text)



class Key:
    """The arguments of a layout, hashed once: the picture's cache and the layout's share it, and
    the screen's and the menu's own hashes key their texts, cached apart (`texts_cached`, `items_cached`)."""

    __slots__ = ("args", "hash", "screen_hash", "menu_hash")

    def __init__(self, args: tuple[Any, ...], hashed: int, screen_hash: int = 0, menu_hash: int = 0) -> None:
        self.args = args
        self.hash = hashed
        self.screen_hash = screen_hash
        self.menu_hash = menu_hash

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Key) and self.args == other.args



Texts = tuple[str, tuple[tuple[str, bool], ...], int, str | None, str | None, float | None]


@lru_cache(maxsize=64)
def texts_cached(k: Key) -> Texts:
    """The screen's texts in `lang`: (title, (line, essential) pairs, widest line, big number, icon, bar).

    Cached apart from the whole layout: a message or a cursor move lays out the same screen again."""
    return screen_texts(*k.args[:2])


def screen_texts(screen: Screen, lang: str) -> Texts:
    lines = tuple((text_of(t, lang), is_essential(t)) for t in (screen.lines or ()))
    big = text_of(screen.big, lang) if screen.big not in (None, "") else None
    face, measure = body_face(), fonts.text_width  # `width_of` without its two calls a line
    return (text_of(screen.title, lang), lines, max([measure(face, t) for t, _ in lines], default=0), big,
            screen.icon if screen.icon in ICONS else None, bar_value(screen.bar))


@lru_cache(maxsize=64)
def items_cached(k: Key) -> tuple[tuple[str, ...], tuple[int, ...], int]:
    """The menu's labels in `lang`, their widths and the widest (cached as `texts_cached`)."""
    return menu_texts(*k.args[:2])


def menu_texts(menu: Sequence[Label], lang: str) -> tuple[tuple[str, ...], tuple[int, ...], int]:
    items = tuple(text_of(t, lang) for t in menu)
    face, measure = body_face(), fonts.text_width  # `width_of` without its two calls an entry
    widths = tuple([measure(face, t) for t in items])
    return items, widths, max(widths, default=0)


@lru_cache(maxsize=128)
def fitted_lines(lines: tuple[tuple[str, bool], ...], room: int, generation: int
               ) -> tuple[tuple[str, ...], tuple[Elision, ...]]:
    """The lines fitted to `room` pixels: essential ones wrapped, others ellipsised (reported)."""
    body = body_face()
    rows: list[str] = []
    elisions: list[Elision] = []
    for text, essential in lines:
        if width_of(text) <= room:
            rows.append(text)
        elif essential:
            rows.extend(wrap(body, text, room, 1000))
        else:
            shown = fit(body, text, room)
            rows.append(shown)
            elisions.append(Elision("line", text, shown, False))
    return tuple(rows), tuple(elisions)


@lru_cache(maxsize=128)
def essential_need(lines: tuple[tuple[str, bool], ...], room: int, generation: int) -> int:
    """How many text rows the first page needs to hold every essential line (0: none)."""
    body = body_face()
    need = count = 0
    for text, essential in lines:
        count += len(wrap(body, text, room, 1000)) if essential and width_of(text) > room else 1
        if essential:
            need = count
    return need
