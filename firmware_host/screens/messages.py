"""A seat's message over its screen: the rows it may take above a menu, the parts it is shown in
turn when longer than those (`status_windows`), and what laying it out will need, worked out
ahead (`warm_message`, `warm_status`). The layout (layout.py) places the rows; the seat's side
(firmware_host/apps/seat_ui.py) says which part shows."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from games.core import Screen

from . import fonts
from .metrics import (
    BANNER_INSET,
    MARGIN,
    STATUS_INSET,
    Elision,
    Key,
    Label,
    Texts,
    body_face,
    body_rows,
    check_size,
    essential_need,
    screen_texts,
    text_of,
    texts_cached,
)
from .textfit import wrap

STATUS_ROWS = 3  # a message above the menu takes three rows at most


def spare_rows(body: fonts.Face, text: str, rows: int, items: int, need: int, room: int) -> int:
    """The rows a message may take above the menu: those the essential lines and two menu rows
    leave, or, when the message needs more, those one menu row leaves (the menu then scrolls)."""
    wide = min(STATUS_ROWS, rows - min(2, items) - need)
    if wide >= min(STATUS_ROWS, len(wrap(body, text, room - STATUS_INSET, 1000))):
        return max(0, wide)
    return max(0, min(STATUS_ROWS, rows - min(1, items) - need))


def rows_above(body: fonts.Face, text: str, spare: int, room: int, elisions: list[Elision]) -> tuple[str, ...]:
    """A message above the menu, wrapped over the `spare` rows the menu and the essential lines
    leave; with no row spare it is not shown: a passing message never pushes what the seat must
    act on off the first page (reported as a cut, not an essential one; the seat's side shows a
    long message in turn, `status_windows`, and one with no room as a banner for its reading time)."""
    shown = wrap(body, text, room - STATUS_INSET, spare) if spare > 0 else ()
    if " ".join(shown).split() != text.split():
        elisions.append(Elision("status", text, " ".join(shown), False))
    return shown


def status_windows(screen: Screen, lang: str, menu: Sequence[Label], size: tuple[int, int], status: Label
                   ) -> tuple[str, ...]:
    """A message above this screen's menu (without one: a banner over it) cut into the parts that
    show in turn, each whole in the rows the first page spares it (empty: no row spare now)."""
    # of the menu, the parts depend only on whether it has no entry, one, or more (two rows kept)
    entries, dims, gen = min(len(menu), 2), (size[0], size[1]), fonts.generation()
    try:  # hashed once: the screen is not hashed again by the texts' key
        hs = hash(screen)
        k = Key((screen, lang, entries, dims, status, gen), hash((hs, lang, entries, dims, status, gen)), hs)
    except TypeError:  # a list where a tuple belongs: worked out without the cache
        return _status_windows(screen, lang, menu, dims, status)
    return status_windows_cached(k)


def _status_windows(screen: Screen, lang: str, menu: Sequence[Label], size: tuple[int, int], status: Label
                    ) -> tuple[str, ...]:
    """`status_windows` worked out afresh."""
    return _status_parts(screen_texts(screen, lang), len(menu), lang, size, status)


def warm_status(screen: Screen, lang: str, size: tuple[int, int], status: Label) -> None:
    """Work out now `status_windows` of a message over `screen`, whatever menu comes with it."""
    for entries in range(3):
        status_windows(screen, lang, ("",) * entries, size, status)


@lru_cache(maxsize=256)
def status_windows_cached(k: Key) -> tuple[str, ...]:
    """`status_windows`, cached: a seat's screen is drawn again at every event while it shows a
    message. The screen's and the menu's texts come from the layout's own caches: the seat's
    layout of this screen finds them there (its status windows are worked out first)."""
    screen, lang, entries, size, status, gen = k.args
    texts = texts_cached(Key((screen, lang, gen), hash((k.screen_hash, lang, gen))))
    return _status_parts(texts, entries, lang, size, status)


def _status_parts(texts: Texts, entries: int, lang: str, size: tuple[int, int], status: Label
                  ) -> tuple[str, ...]:
    """`status_windows` of a screen's texts in `lang` over a menu of `entries` entries."""
    text = text_of(status, lang)
    width, height = check_size(size)
    lines, bar = texts[1], texts[5]
    rows = body_rows(height, bar is not None)
    body, room = body_face(), width - 2 * MARGIN
    if not entries or rows < 2:  # a banner
        spare, wrapped = rows, wrap(body, text, width - 2 * BANNER_INSET, 1000)
    else:
        spare = spare_rows(body, text, rows, entries, essential_need(lines, room, fonts.generation()), room)
        wrapped = wrap(body, text, room - STATUS_INSET, 1000) if spare > 0 else ()
    if spare <= 0:
        return ()
    return _parts(text, wrapped, spare)


def _parts(text: str, wrapped: tuple[str, ...], spare: int) -> tuple[str, ...]:
    """A message wrapped in rows, cut into the parts of `spare` rows that show in turn."""
    if len(wrapped) <= spare:
        return (text,)  # whole (a word wider than a row is hyphenated once, where it shows)
    return tuple(" ".join(wrapped[i:i + spare]) for i in range(0, len(wrapped), spare))


def warm_message(text: Label, lang: str, size: tuple[int, int]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Work out now what laying out `text` as a seat's message will need whatever screen and menu
    it comes with (`warm`'s for a message): the rows of its parts above a menu (one to
    STATUS_ROWS rows each) and as a banner (with and without a countdown bar). Returns (rows
    above a menu, banner rows), for the pictures' own caches (`render.warm_message`)."""
    width, height = check_size(size)
    body, said = body_face(), text_of(text, lang)
    above: dict[str, None] = {}
    narrow = width - 2 * MARGIN - STATUS_INSET
    whole = wrap(body, said, narrow, 1000)
    for spare in range(1, STATUS_ROWS + 1):
        for part in _parts(said, whole, spare):
            above.update(dict.fromkeys(wrap(body, part, narrow, spare)))
    banner: dict[str, None] = {}
    wide = width - 2 * BANNER_INSET
    whole = wrap(body, said, wide, 1000)
    for bar in (False, True):
        rows = body_rows(height, bar)
        for part in _parts(said, whole, rows):
            banner.update(dict.fromkeys(wrap(body, part, wide, rows)))
    return tuple(above), tuple(banner)
