"""Where everything goes on a seat's screen: rows, pages, the big number, menu scrolling, and a
report of every text that had to be cut (elisions). Shared by the picture, the text twin and the
buttons (◀ ▶ walk through the menu entries and the extra pages), so all three agree.

Rules (128x64, the bundled 6x10 bitmap font: 21 characters, 5 rows under the title bar):

- A line the game marks essential (`games.core.essential`) is never cut: it wraps over as many
  rows as it needs. Other lines hold one row and are ellipsised when too wide (reported).
- No line is ever dropped: rows that do not fit go on extra pages. Without a menu ◀ ▶ flip the
  pages; with one, the first page holds the first rows and the menu, and ◀ ▶ move through the menu
  entries and then the extra pages ("2/3" in the title bar says where the seat is).
- A title too wide keeps its essential tail (after its last " · ", else after its first word:
  whose turn, which round, the score) and loses its head first; a title's icon (but the warning)
  goes before any of its words.
- The big number sits right of the text only when every row still fits beside it on one page;
  otherwise it goes in the title bar, small but whole.
- The highlighted menu entry, when wider than its row, scrolls sideways (`scroll` steps); other
  entries are ellipsised (reported: the seat reads them by moving the cursor onto them).
- A message (`status`) shown while the seat has a menu takes the top rows (three at most) and
  leaves the menu visible and usable: a press is never swallowed by a message, and never made
  blind. It takes only rows the essential lines leave on the first page, down to one menu row
  (the menu then scrolls); a message longer than those rows is cut into parts shown in turn
  (`status_windows`; none spare: the seat shows it as a banner for its reading time). Without a
  menu a message is a banner covering the body.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from games.core import Screen, evolve
from games.frozen import dict_eq

from . import fonts, messages
from .messages import STATUS_ROWS, rows_above, spare_rows, status_windows
from .metrics import (
    ARROWS_W,
    BANNER_INSET,
    BAR_H,
    BIG_GAP,
    BODY_TOP,
    ICON,
    ICONS,
    MARGIN,
    MARQUEE_HOLD,
    MARQUEE_PX,
    MARQUEE_STEP,
    MENU_INSET,
    PITCH,
    SIZE,
    STATUS_INSET,
    TITLE_H,
    Elision,
    Key,
    Label,
    RenderError,
    Texts,
    body_face,
    body_rows,
    check_size,
    essential_need,
    fitted_lines,
    items_cached,
    menu_texts,
    screen_texts,
    text_of,
    texts_cached,
    width_of,
)
from .textfit import _big_face, _width, big_face, fit, fit_title, wrap

# the layout's API, and the measures its users read here (metrics.py holds them)
__all__ = [
    "ARROWS_W", "BANNER_INSET", "BAR_H", "BIG_GAP", "BODY_TOP", "Elision", "ICON", "ICONS", "Key", "Label", "MARGIN",
    "MARQUEE_HOLD", "MARQUEE_PX", "MARQUEE_STEP", "MENU_INSET", "PITCH", "Plan", "RenderError", "SIZE", "STATUS_INSET",
    "STATUS_ROWS", "TITLE_H", "Texts", "body_face", "check_size", "clear_caches", "key", "marquee_offset", "navigate",
    "page_rows", "plan", "plan_of", "status_windows", "text_of", "title_extras", "warm", "width_of",
]


@dict_eq
@dataclass(frozen=True)
class Plan:
    """One page of a seat's screen, laid out: shared by the picture and the text twin."""

    title: str  # the whole title (the picture ellipsises it in `title_shown`)
    title_shown: str
    icon: str | None
    banner: str | None
    banner_rows: tuple[str, ...]
    lines: tuple[str, ...]  # text rows of this page, already fitted or wrapped
    menu: tuple[str, ...]  # the visible menu window, whole labels
    selected: int  # index in the window of the cursor row, -1 without menu or off the menu page
    status_rows: tuple[str, ...]  # a message above the menu, wrapped
    more_above: bool
    more_below: bool
    big: str | None
    big_beside: bool  # True: right of the rows; False: in the title bar
    bar: float | None
    rows: int  # body rows of the screen
    pitch: int
    page: int
    pages: int
    menu_count: int  # every entry, visible or not
    scroll_px: int  # sideways offset of the highlighted entry, in pixels
    scrolls: bool  # the highlighted entry is wider than its row and scrolls
    text_room: int  # pixels for a text row on this page
    menu_room: int  # pixels for a menu label
    elisions: tuple[Elision, ...] = field(default=())

    @property
    def marker(self) -> str:
        """The page marker of the title bar ("2/3"), empty for a single page."""
        return f"{self.page + 1}/{self.pages}" if self.pages > 1 else ""


_PLAN_FIELDS = tuple(f.name for f in fields(Plan))


def _new_plan(*values: Any) -> Plan:
    """`Plan(*values)` without the frozen `__init__`'s setattr per field (a third of a layout's
    cost): a Plan has no `__post_init__`, and equality, hashing and repr read the fields."""
    p = object.__new__(Plan)
    p.__dict__.update(zip(_PLAN_FIELDS, values, strict=True))
    return p


def marquee_offset(overflow: int, step: int) -> int:
    """Sideways offset (px) of a label `overflow` px too wide, at scroll step `step`."""
    if overflow <= 0 or step <= 0:
        return 0
    moves = math.ceil(overflow / MARQUEE_PX)
    cycle = MARQUEE_HOLD + moves + MARQUEE_HOLD
    k = step % cycle
    if k < MARQUEE_HOLD:
        return 0
    return min(overflow, (k - MARQUEE_HOLD + 1) * MARQUEE_PX)


# ---------------------------------------------------------------------------------------------
# The layout


def plan(screen: Screen, lang: str = "fr", menu: Sequence[Label] = (), cursor: int = 0,
         banner: Label | None = None, size: tuple[int, int] = SIZE, page: int = 0, scroll: int = 0,
         status: Label | None = None) -> Plan:
    """Lay out page `page` of a screen of `size` (the page is clamped to those that exist).

    Cached: an event lays out the same frame up to three times (the marquee check, a press of
    ◀ ▶, the picture), and a Plan is an immutable value of its arguments."""
    k = key(screen, lang, menu, cursor, banner, size, page, status)
    if k is None:  # an unhashable screen (a list where a tuple belongs): lay out without cache
        return _plan(screen, lang, menu, cursor, banner, size, page, scroll, status)
    return plan_of(k, scroll)


def key(screen: Screen, lang: str = "fr", menu: Sequence[Label] = (), cursor: int = 0,
        banner: Label | None = None, size: tuple[int, int] = SIZE, page: int = 0,
        status: Label | None = None) -> Key | None:
    """The cache key of a layout's arguments but the scroll step (None if one is unhashable)."""
    menu = tuple(menu)
    sized: tuple[Any, ...] = tuple(size)
    gen = fonts.generation()
    try:
        hs, hm = hash(screen), hash(menu)
        return Key((screen, lang, menu, cursor, banner, sized, page, status, gen),
                   hash((hs, lang, hm, cursor, banner, sized, page, status, gen)), hs, hm)
    except TypeError:
        return None


def plan_of(k: Key, scroll: int = 0) -> Plan:
    """`plan` of the arguments a Key holds, at marquee step `scroll`: the layout is the same at
    every step but for the highlighted entry's offset (worked out once, then shifted)."""
    base = _plan_at_rest(k)
    if not base.scrolls or not scroll:
        return base
    offset = marquee_offset(width_of(base.menu[base.selected]) - (base.menu_room - 1), scroll)
    return base if offset == base.scroll_px else evolve(base, scroll_px=offset)


@lru_cache(maxsize=256)
def _plan_at_rest(k: Key) -> Plan:
    screen, lang, menu, cursor, banner, size, page, status, _ = k.args
    return _plan(screen, lang, menu, cursor, banner, size, page, 0, status, k)


Look = tuple[str, str | None, str | None, tuple[str, ...]]  # title shown, icon, big number in it, rows


def warm(screen: Screen, lang: str, size: tuple[int, int]) -> tuple[list[Look], str]:
    """Work out now what laying out `screen` will need whatever its menu and message: its texts,
    their widths and its lines fitted to a row (caches keyed by what they hold, so a frame of it
    laid out later finds them). Returns how a page without a page marker shows it (title,
    icon, the big number in the title, rows: once, or with a big number twice: in the title,
    and beside the rows narrowed for it) and the title over a message covering the body, for
    the pictures' own caches (`render.warm`)."""
    width, height = check_size(size)
    gen = fonts.generation()
    title, lines, _, big, icon, bar = texts_cached(Key((screen, lang, gen), hash((hash(screen), lang, gen))))
    room = width - 2 * MARGIN
    essential_need(lines, room, gen)
    body = body_face()
    rooms = [(room, big or None)]
    if big:
        rooms.append((_beside_room(big, width, height, bar is not None), None))
    looks: list[Look] = []
    for fitted, in_title in rooms:
        shown, shown_icon = _title(body, title, width, icon, "", in_title, [])
        looks.append((shown, shown_icon, in_title, fitted_lines(lines, fitted, gen)[0]))
    return looks, _title(body, title, width, "warn", "", None, [])[0]


def _plan(screen: Screen, lang: str, menu: Sequence[Label], cursor: int, banner: Label | None,
          size: tuple[int, int], page: int, scroll: int, status: Label | None, k: Key | None = None) -> Plan:
    width, height = check_size(size)
    body = body_face()
    if k is not None:  # the texts of a screen and of a menu seen before, found by the hashes in hand
        gen = fonts.generation()
        title, lines, lines_w, big, icon, bar = texts_cached(Key((screen, lang, gen),
                                                                  hash((k.screen_hash, lang, gen))))
        items, items_w, widest = items_cached(Key((menu, lang, gen), hash((k.menu_hash, lang, gen))))
    else:
        title, lines, lines_w, big, icon, bar = screen_texts(screen, lang)
        items, items_w, widest = menu_texts(menu, lang)
    rows = body_rows(height, bar is not None)
    room = width - 2 * MARGIN
    banner_text = text_of(banner, lang) if banner is not None else ""
    status_text = text_of(status, lang) if status is not None else ""
    if status_text and not banner_text and (not items or rows < 2):
        # nothing to press under it, or no row to spare above the menu: a message covers the body
        banner_text = status_text
    if banner_text:
        return _banner_plan(body, title, banner_text, bar, rows, width, room, len(items))

    elisions: list[Elision] = []
    status_rows: tuple[str, ...] = ()
    menu_min = min(2, rows)  # menu rows on the first page, at least
    if status_text:  # with a menu under it (else it became the banner)
        # the message takes only rows the game's essential lines leave on the first page
        need = essential_need(lines, room, fonts.generation())
        status_rows = rows_above(body, status_text, spare_rows(body, status_text, rows, len(items), need, room),
                                   room, elisions)
        rows -= len(status_rows)
        menu_min = max(1, min(2, rows - need))
    big_beside = False
    if big is not None:
        big_beside, room = _big_place(big, bool(lines), bool(items), lines_w, widest, len(lines) + len(items) <= rows,
                                      width, height, bar is not None, room)

    line_rows, cut = fitted_lines(lines, room, fonts.generation())
    elisions.extend(cut)
    if items:
        shown_rows, pages, page, window, selected, above, below, menu_room, scrolls, scroll_px = _menu_page(
            body, line_rows, items, items_w, widest, rows, page, cursor, room, scroll, elisions, menu_min)
    else:  # the pages flip round: every row is text
        pages = max(1, math.ceil(len(line_rows) / rows))
        page = _clamp(page, pages)
        shown_rows = tuple(line_rows[page * rows:(page + 1) * rows])
        window, selected, above, below, scrolls, scroll_px = (), -1, False, False, False, 0
        menu_room = room - MENU_INSET

    marker = f"{page + 1}/{pages}" if pages > 1 else ""
    title_shown, icon = _title(body, title, width, icon, marker, None if big_beside else big, elisions)
    return _new_plan(title, title_shown, icon, None, (), shown_rows, window, selected, status_rows, above, below, big,
                     big_beside, bar, rows, PITCH, page, pages, len(items), scroll_px, scrolls, room, menu_room,
                     tuple(elisions))


def _banner_plan(body: fonts.Face, title: str, text: str, bar: float | None, rows: int, width: int, room: int,
                 menu_count: int) -> Plan:
    """A message covering the body, framed, with the warning icon (the menu is hidden under it)."""
    elisions: list[Elision] = []
    banner_rows = wrap(body, text, width - 2 * BANNER_INSET, rows)
    if " ".join(banner_rows).split() != text.split():
        elisions.append(Elision("banner", text, " ".join(banner_rows), True))
    title_shown, icon = _title(body, title, width, "warn", "", None, elisions)
    return _new_plan(title, title_shown, icon, text, banner_rows, (), (), -1, (), False, False, None, False,
                     bar, rows, PITCH, 0, 1, menu_count, 0, False, room, room, tuple(elisions))


def _beside_room(big: str, width: int, height: int, has_bar: bool) -> int:
    """The rows' room beside the big number."""
    bottom = height - BAR_H - 1 if has_bar else height - 1
    return width - MARGIN - _width(big_face(big, width // 2 - 2, bottom - BODY_TOP), big) - BIG_GAP - MARGIN


def _big_place(big: str, has_lines: bool, has_items: bool, lines_w: int, widest: int, one_page: bool, width: int,
               height: int, has_bar: bool, room: int) -> tuple[bool, int]:
    """Whether the big number goes right of the rows (else in the title bar), and the rows' room."""
    if not has_lines and not has_items:
        return True, room  # alone: centred in the body
    if not one_page:
        return False, room
    narrow = _beside_room(big, width, height, has_bar)
    if (not has_lines or lines_w <= narrow) and (not has_items or widest <= narrow - MENU_INSET - ARROWS_W):
        return True, narrow
    return False, room


# a plain tuple, not a dataclass: one is made on every layout of a screen with a menu
_MenuPage = tuple[tuple[str, ...], int, int, tuple[str, ...], int, bool, bool, int, bool, int]


def _menu_page(body: fonts.Face, line_rows: tuple[str, ...], items: tuple[str, ...], items_w: tuple[int, ...],
               widest: int, rows: int, page: int, cursor: int, room: int, scroll: int,
               elisions: list[Elision], menu_min: int = 2) -> _MenuPage:
    """A page of a screen with a menu: the first rows and the menu window, or an extra page of rows.

    (rows shown, pages, page, window, selected, more above, more below, menu room, scrolls, scroll px)"""
    count = len(line_rows)
    if count + len(items) <= rows:
        menu_rows, head = len(items), count
    else:
        menu_rows = min(len(items), max(rows - count, min(menu_min, rows)))
        head = min(count, rows - menu_rows)
    extra = line_rows[head:]
    pages = 1 + math.ceil(len(extra) / rows)
    page = _clamp(page, pages)
    if page:
        return tuple(extra[(page - 1) * rows:page * rows]), pages, page, (), -1, False, False, room - MENU_INSET, \
            False, 0
    cur = cursor if isinstance(cursor, int) and not isinstance(cursor, bool) else 0
    cur = min(max(cur, 0), len(items) - 1)
    first = min(max(cur - (menu_rows - 1) // 2, 0), len(items) - menu_rows)
    above, below = first > 0, first + menu_rows < len(items)
    menu_room = room - MENU_INSET - (ARROWS_W if above or below else 0)
    scrolls, scroll_px = False, 0
    for i, label in enumerate(items if widest > menu_room - 1 else ()):
        over = items_w[i] - (menu_room - 1)
        if over <= 0:
            continue
        if i == cur:
            scrolls, scroll_px = True, marquee_offset(over, scroll)
        else:
            elisions.append(Elision("menu", label, fit(body, label, menu_room - 1), False))
    return tuple(line_rows[:head]), pages, page, items[first:first + menu_rows], cur - first, above, below, \
        menu_room, scrolls, scroll_px


def clear_caches() -> None:
    """Forget every layout and fitted text worked out so far (tests that swap a helper)."""
    for cached in (_plan_at_rest, texts_cached, items_cached, fitted_lines, essential_need, wrap, fit, fit_title,
                   _big_face, messages.status_windows_cached):
        cached.cache_clear()


def _clamp(page: Any, pages: int) -> int:
    if not isinstance(page, int) or isinstance(page, bool):
        return 0
    return min(max(page, 0), pages - 1)


def title_extras(marker: str, big: str | None) -> str:
    """What the title bar shows right of the title: the big number and the page marker."""
    return " ".join(x for x in (big or "", marker) if x)


def _title(face: fonts.Face, title: str, width: int, icon: str | None, marker: str, big: str | None,
           elisions: list[Elision]) -> tuple[str, str | None]:
    """The title as shown, and the icon (dropped when the title fits without it: words first)."""
    extras = title_extras(marker, big)
    room = width - 2 * MARGIN - (_width(face, extras) + 4 if extras else 0)
    if icon and icon != "warn" and room - (ICON + 2) < _width(face, title):
        icon = None  # the words first: the icon only says again what the title says
    shown = fit_title(face, title, room - (ICON + 2 if icon else 0))
    if shown != title:
        elisions.append(Elision("title", title, shown, False))
    return shown, icon


# ---------------------------------------------------------------------------------------------
# Buttons: ◀ ▶ through the menu entries, then the extra pages


def navigate(p: Plan, cursor: int, direction: int) -> tuple[int, int]:
    """The (cursor, page) after ◀ (-1) or ▶ (+1) on the screen laid out as `p`.

    Without a menu the pages flip round. With one, the positions are the entries (on page 1)
    followed by the extra pages: ▶ on the last entry shows page 2, ▶ on the last page comes back
    to the first entry, ◀ on the first entry shows the last page.
    """
    if p.menu_count == 0:
        return 0, (p.page + direction) % p.pages
    entries = p.menu_count
    pos = min(max(cursor, 0), entries - 1) if p.page == 0 else entries + p.page - 1
    pos = (pos + direction) % (entries + p.pages - 1)
    if pos < entries:
        return pos, 0
    return (entries - 1 if direction < 0 else 0), pos - entries + 1


def page_rows(screen: Screen, lang: str = "fr", menu: Sequence[Label] = (), size: tuple[int, int] = SIZE
              ) -> list[tuple[str, ...]]:
    """Every page's text rows (the menu page first), for tests and the text twin."""
    first = plan(screen, lang, menu, 0, None, size, 0)
    return [first.lines] + [plan(screen, lang, menu, 0, None, size, k).lines for k in range(1, first.pages)]
