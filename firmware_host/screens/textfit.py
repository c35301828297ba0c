"""Fitting text to a screen's rows: pixel widths, ellipsis, word wrap, the big number's font.

Cached: the same labels come back screen after screen. `layout` lays screens out with these;
`layout.clear_caches` empties these caches too.
"""

from __future__ import annotations

from functools import lru_cache

from . import fonts
from .cellfont import CellFont

BIG_SIZES = (30, 24, 20, 16, 12)


_width = fonts.text_width  # counted for the bitmap font, else cached there (the function itself: one call a measure)


def _prefix_len(face: fonts.Face, text: str, width: int, suffix: str) -> int:
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _width(face, text[:mid].rstrip() + suffix) <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def ellipsised(face: fonts.Face, text: str, width: int) -> str:
    """The longest prefix of `text` that fits `width` with an ellipsis after it."""
    k = _prefix_len(face, text, width, face.ellipsis)
    if k:
        return text[:k].rstrip() + face.ellipsis
    return face.ellipsis if _width(face, face.ellipsis) <= width else ""


@lru_cache(maxsize=4096)
def fit(face: fonts.Face, text: str, width: int) -> str:
    """`text`, ellipsised if it is wider than `width` pixels."""
    if _width(face, text) <= width:
        return text
    return ellipsised(face, text, width)


def title_parts(title: str) -> tuple[str, str, str]:
    """A title as (decorative head, separator, essential tail): "Mata Hari · tour 3" holds
    "tour 3" after its last " · ", "Revanche T20 (1-0)" what follows its first word."""
    if " · " in title:
        head, tail = title.rsplit(" · ", 1)
        return head, " · ", tail
    head, _, tail = title.partition(" ")
    return (head, " ", tail) if tail else ("", "", title)


@lru_cache(maxsize=1024)
def fit_title(face: fonts.Face, title: str, width: int) -> str:
    """`title` in `width` pixels: the decorative head is ellipsised first, the tail (whose turn,
    which round, the score) stays whole while it fits alone."""
    if _width(face, title) <= width:
        return title
    head, sep, tail = title_parts(title)
    suffix = face.ellipsis + sep + tail
    if not head or _width(face, suffix) > width:
        return ellipsised(face, title, width)
    k = _prefix_len(face, head, width, suffix)
    return head[:k].rstrip() + suffix


@lru_cache(maxsize=2048)
def wrap(face: fonts.Face, text: str, width: int, max_rows: int) -> tuple[str, ...]:
    """`text` word-wrapped to `width` pixels in at most `max_rows` rows (the last one ellipsised)."""
    rows: list[str] = []
    current = ""
    # a bitmap font's text whose every character is one cell (no look-alike drawn wider: its width
    # is its length in cells, `fonts.text_width`) is wrapped by counting: so is every part of it
    cell = face.font.cell_w if type(face.font) is CellFont else 0
    if cell and not text.isascii() and _width(face, text) != len(text) * cell:
        cell = 0
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if (len(candidate) * cell if cell else _width(face, candidate)) <= width:
            current = candidate
            continue
        if current:
            rows.append(current)
        while _width(face, word) > width:  # a word wider than the screen: hyphenate
            cut = max(1, _prefix_len(face, word, width, "-"))
            rows.append(word[:cut] + "-")
            word = word[cut:]
        current = word
    if current:
        rows.append(current)
    if len(rows) > max_rows:
        rows = rows[:max_rows]
        if rows:
            rows[-1] = ellipsised(face, rows[-1] + " ", width) if max_rows else ""
    return tuple(rows)


def big_face(text: str, room_w: int, room_h: int) -> fonts.Face:
    """The largest big-number font in which `text` fits `room_w` x `room_h`."""
    return _big_face(text, room_w, room_h, fonts.generation())


@lru_cache(maxsize=256)
def _big_face(text: str, room_w: int, room_h: int, generation: int) -> fonts.Face:
    face = fonts.face(BIG_SIZES[-1], True)
    for size in BIG_SIZES:
        face = fonts.face(size, True)
        if _width(face, text) <= room_w and face.height - 2 <= room_h:
            break
    return face
