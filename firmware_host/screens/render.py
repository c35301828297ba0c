"""Seat screen renderer: a games.core.Screen (+ button menu, + instruction banner) → 128x64 1-bit image.

Layout (128x64; a quarter-turned 64x128 screen gets the same widgets, narrower and taller):

    ┌──────────────────────────────┐ title bar, inverted, bold, optional icon on the right
    │ line / menu row              │ 4 rows of 12 px (11 px when a countdown bar is shown)
    │ line / menu row        ┌───┐ │ big number on the right when given
    │ ▓▓ cursor row ▓▓▓▓▓▓▓▓ │ 12│ │ menu: the cursor row inverted, ▲▼ when it scrolls
    │ line / menu row        └───┘ │
    └[██████████········]──────────┘ countdown bar (fraction left)

An instruction banner (reconciliation guidance) replaces the body, word-wrapped in a frame, with
the warning icon. Text never overflows: single rows are ellipsised, the banner is wrapped and its
last row ellipsised. `screen_text` gives the same content as plain text lines.

Rendering is cached (fonts, fitted strings, whole images): an unchanged screen costs a copy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from games.core import Screen, Text

from . import fonts

if TYPE_CHECKING:
    from PIL.Image import Image

SIZE = (128, 64)
TITLE_H = 12
BODY_TOP = 13
PITCH, PITCH_WITH_BAR = 12, 11
BAR_H = 6
ICON = 9
TITLE_FONT, BODY_FONT, BIG_SIZES = (9, True), (10, False), (30, 24, 20, 16, 12)
ICONS = ("turn", "wait", "eye", "warn", "ok", "trophy")
BAR_CELLS = 10  # width of the text countdown bar

Label = Text | str


class RenderError(ValueError):
    """A screen size the renderer cannot lay out."""


def _txt(value: Any, lang: str) -> str:
    """Text, str or anything else as one printable row of text (never raises)."""
    if value is None:
        return ""
    s = value.get(lang) if isinstance(value, Text) else str(value)
    if s.isprintable():  # the usual case, checked in C: no per-character pass
        return s
    return "".join(ch if ch.isprintable() else " " for ch in s)


@dataclass(frozen=True)
class Plan:
    """What goes where: shared by the image and the text rendering so both show the same."""

    title: str
    icon: str | None
    banner: str | None
    lines: tuple[str, ...]
    menu: tuple[str, ...]  # the visible window
    selected: int  # index in the window of the cursor row, -1 without menu
    more_above: bool
    more_below: bool
    big: str | None
    bar: float | None
    rows: int
    pitch: int


def plan(screen: Screen, lang: str = "fr", menu: Sequence[Label] = (), cursor: int = 0,
         banner: Label | None = None, size: tuple[int, int] = SIZE) -> Plan:
    """Decide which lines and menu rows are visible on a screen of `size`."""
    width, height = _check_size(size)
    bar = None
    if screen.bar is not None:
        try:
            value = float(screen.bar)
            bar = 0.0 if math.isnan(value) else min(1.0, max(0.0, value))
        except (TypeError, ValueError):
            bar = None
    pitch = PITCH_WITH_BAR if bar is not None else PITCH
    rows = max(0, (height - BODY_TOP - (BAR_H + 1 if bar is not None else 0)) // pitch)
    lines = tuple(_txt(t, lang) for t in (screen.lines or ()))
    items = tuple(_txt(t, lang) for t in menu)
    banner_text = _txt(banner, lang) if banner is not None else None
    icon = "warn" if banner_text else (screen.icon if screen.icon in ICONS else None)
    big = _txt(screen.big, lang) if screen.big not in (None, "") else None
    window: tuple[str, ...] = ()
    selected, above, below = -1, False, False
    if banner_text:
        shown: tuple[str, ...] = ()
        big = None
    elif items:
        menu_rows = min(len(items), max(rows - len(lines), min(2, rows)))
        shown = lines[: max(0, rows - menu_rows)]
        cur = cursor if isinstance(cursor, int) and not isinstance(cursor, bool) else 0
        cur = min(max(cur, 0), len(items) - 1)
        first = min(max(cur - (menu_rows - 1) // 2, 0), len(items) - menu_rows) if menu_rows else 0
        window = items[first:first + menu_rows]
        selected = cur - first if menu_rows else -1
        above, below = first > 0, first + menu_rows < len(items)
    else:
        shown = lines[:rows]
    return Plan(_txt(screen.title, lang), icon, banner_text or None, shown, window, selected, above, below,
                big, bar, rows, pitch)


def _check_size(size: tuple[int, int]) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in size)
    except (TypeError, ValueError):
        raise RenderError(f"size must be (width, height), got {size!r}") from None
    if width < 48 or height < 32 or width > 1024 or height > 1024:
        raise RenderError(f"cannot lay out a {width}x{height} screen (48x32 at least)")
    return width, height


# ---------------------------------------------------------------------------------------------
# Text fitting (cached: the same labels come back screen after screen)


def _prefix_len(face: fonts.Face, text: str, width: int, suffix: str) -> int:
    """Length of the longest prefix of `text` that fits in `width` with `suffix` after it."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fonts.text_width(face, text[:mid].rstrip() + suffix) <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _ellipsised(face: fonts.Face, text: str, width: int) -> str:
    k = _prefix_len(face, text, width, face.ellipsis)
    if k:
        return text[:k].rstrip() + face.ellipsis
    return face.ellipsis if fonts.text_width(face, face.ellipsis) <= width else ""


@lru_cache(maxsize=2048)
def fit(face: fonts.Face, text: str, width: int) -> str:
    """`text`, ellipsised if it is wider than `width` pixels."""
    if fonts.text_width(face, text) <= width:
        return text
    return _ellipsised(face, text, width)


@lru_cache(maxsize=256)
def wrap(face: fonts.Face, text: str, width: int, max_rows: int) -> tuple[str, ...]:
    """`text` word-wrapped to `width` pixels in at most `max_rows` rows (the last one ellipsised)."""
    rows: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if fonts.text_width(face, candidate) <= width:
            current = candidate
            continue
        if current:
            rows.append(current)
        while fonts.text_width(face, word) > width:  # a word wider than the screen: hyphenate
            cut = max(1, _prefix_len(face, word, width, "-"))
            rows.append(word[:cut] + "-")
            word = word[cut:]
        current = word
    if current:
        rows.append(current)
    if len(rows) > max_rows:
        rows = rows[:max_rows]
        if rows:
            rows[-1] = _ellipsised(face, rows[-1] + " ", width) if max_rows else ""
    return tuple(rows)


# ---------------------------------------------------------------------------------------------
# Pixels


def render(screen: Screen, lang: str = "fr", *, menu: Sequence[Label] = (), cursor: int = 0,
           banner: Label | None = None, size: tuple[int, int] = SIZE) -> Image:
    """The seat's picture: a new mode "1" image of `size` (yours to keep or change)."""
    key_menu = tuple(menu)
    try:
        image = _render_cached(screen, lang, key_menu, cursor, banner, tuple(size), fonts.generation())
    except TypeError:  # an unhashable screen (a list where a tuple belongs): draw without cache
        return _draw(plan(screen, lang, key_menu, cursor, banner, size), size)
    return image.copy()


def render_frame(frame: Any, lang: str = "fr", size: tuple[int, int] = SIZE) -> Image:
    """Render anything with screen, menu, cursor and banner attributes (the service's Frame)."""
    qr = getattr(frame, "qr", None)
    if qr:  # a seat's phone link: the QR code beside the title and lines
        from firmware_host.web.qr import qr_picture

        return qr_picture(qr, frame.screen, lang, size)
    return render(frame.screen, lang, menu=getattr(frame, "menu", ()), cursor=getattr(frame, "cursor", 0),
                  banner=getattr(frame, "banner", None), size=size)


@lru_cache(maxsize=64)
def _render_cached(screen: Screen, lang: str, menu: tuple[Label, ...], cursor: int, banner: Label | None,
                   size: tuple[int, int], generation: int) -> Image:
    return _draw(plan(screen, lang, menu, cursor, banner, size), size)


def _draw(p: Plan, size: tuple[int, int]) -> Image:
    from PIL import Image, ImageDraw

    width, height = _check_size(size)
    image = Image.new("1", (width, height))
    draw = ImageDraw.Draw(image)
    title_face, body = fonts.face(*TITLE_FONT), fonts.face(*BODY_FONT)

    draw.rectangle((0, 0, width - 1, TITLE_H - 1), fill=1)
    title_room = width - 4 - (ICON + 2 if p.icon else 0)
    title_y = max(0, (TITLE_H - title_face.height) // 2)
    fonts.draw_text(draw, (2, title_y), fit(title_face, p.title, title_room), title_face, fill=0)
    if p.icon:
        _icon(draw, p.icon, width - ICON - 2, (TITLE_H - ICON) // 2)

    body_y = BODY_TOP + max(0, (p.pitch - body.height) // 2)
    if p.banner:
        frame_bottom = height - 1 if p.bar is None else height - BAR_H  # the bar closes the frame
        draw.line([(0, TITLE_H), (0, frame_bottom), (width - 1, frame_bottom), (width - 1, TITLE_H)], fill=1)
        for i, text in enumerate(wrap(body, p.banner, width - 8, p.rows)):
            fonts.draw_text(draw, (4, body_y + i * p.pitch), text, body, fill=1)
    else:
        text_room = width - 4
        if p.big:
            text_room = _big(draw, p.big, width, height, p, bool(p.lines or p.menu)) - 4
        row = 0
        for line in p.lines:
            fonts.draw_text(draw, (2, body_y + row * p.pitch), fit(body, line, text_room - 2), body)
            row += 1
        scroll = p.more_above or p.more_below
        menu_room = text_room - (6 if scroll else 0)
        for i, label in enumerate(p.menu):
            y = BODY_TOP + row * p.pitch
            on = i == p.selected
            if on:
                draw.rectangle((0, y, menu_room + 1, y + p.pitch - 1), fill=1)
            fonts.draw_text(draw, (3, body_y + row * p.pitch), fit(body, label, menu_room - 4), body,
                            fill=0 if on else 1)
            if scroll and i == 0 and p.more_above:
                _arrow(draw, menu_room + 4, y + 1, up=True)
            if scroll and i == len(p.menu) - 1 and p.more_below:
                _arrow(draw, menu_room + 4, y + p.pitch - 6, up=False)
            row += 1
    if p.bar is not None:
        top = height - BAR_H
        draw.rectangle((0, top, width - 1, height - 1), outline=1, fill=0)
        filled = round((width - 4) * p.bar)
        if filled > 0:
            draw.rectangle((2, top + 2, 1 + filled, height - 3), fill=1)
    return image


def _big(draw: Any, text: str, width: int, height: int, p: Plan, beside: bool) -> int:
    """Draw the big number (right of the text if `beside`, centred otherwise); its left edge."""
    bottom = height - 1 if p.bar is None else height - BAR_H - 1
    room_w = (width // 2 - 2) if beside else width - 4
    room_h = bottom - BODY_TOP
    for size in BIG_SIZES:
        face = fonts.face(size, True)
        if fonts.text_width(face, text) <= room_w and face.height - 2 <= room_h:
            break
    shown = fit(face, text, room_w)
    w = fonts.text_width(face, shown)
    x = width - 2 - w if beside else (width - w) // 2
    glyph_top, glyph_bottom = face.font.getbbox(shown, mode="1")[1::2] if shown else (0, 0)
    y = BODY_TOP + (room_h - (glyph_bottom - glyph_top)) // 2 - glyph_top + face.top
    fonts.draw_text(draw, (x, y), shown, face)
    return x


def _arrow(draw: Any, x: int, y: int, up: bool) -> None:
    points = [(x, y + 4), (x + 4, y + 4), (x + 2, y + 2)] if up else [(x, y), (x + 4, y), (x + 2, y + 2)]
    draw.polygon(points, fill=1)


def _icon(draw: Any, name: str, x: int, y: int) -> None:
    """A 9x9 icon drawn black on the white title bar."""
    e = ICON - 1
    if name == "turn":
        draw.polygon([(x + 1, y), (x + 1, y + e), (x + e, y + e // 2)], fill=0)
    elif name == "wait":
        draw.polygon([(x, y), (x + e, y), (x + e // 2, y + e // 2)], fill=0)
        draw.polygon([(x + e // 2, y + e // 2), (x, y + e), (x + e, y + e)], fill=0)
    elif name == "eye":
        draw.ellipse((x, y + 2, x + e, y + e - 2), outline=0)
        draw.rectangle((x + 3, y + 3, x + 5, y + 5), fill=0)
    elif name == "warn":
        draw.polygon([(x + e // 2, y), (x, y + e), (x + e, y + e)], outline=0)
        draw.line([(x + e // 2, y + 3), (x + e // 2, y + 5)], fill=0)
        draw.point((x + e // 2, y + 7), fill=0)
    elif name == "ok":
        draw.line([(x, y + 4), (x + 3, y + 7), (x + e, y + 1)], fill=0, width=2)
    elif name == "trophy":
        draw.rectangle((x + 2, y, x + 6, y + 4), fill=0)
        draw.point([(x, y + 1), (x + e, y + 1), (x + 1, y + 2), (x + e - 1, y + 2)], fill=0)
        draw.line([(x + 4, y + 5), (x + 4, y + 6)], fill=0)
        draw.line([(x + 2, y + e), (x + 6, y + e)], fill=0)


# ---------------------------------------------------------------------------------------------
# Plain text: the terminal simulator and the JSON transcripts


def screen_text(screen: Screen, lang: str = "fr", *, menu: Sequence[Label] = (), cursor: int = 0,
                banner: Label | None = None, size: tuple[int, int] = SIZE) -> list[str]:
    """The screen as text rows: "# title [icon]", lines, "[big]", "> menu", "! banner", "[###---]".

    Same choices as the picture (banner priority, lines the menu leaves room for, menu window),
    but strings are never shortened: a terminal is wider than the OLED.
    """
    p = plan(screen, lang, menu, cursor, banner, size)
    out = [f"# {p.title}" + (f" [{p.icon}]" if p.icon else "")]
    if p.banner:
        out.append(f"! {p.banner}")
    else:
        out.extend(p.lines)
        if p.big:
            out.append(f"[{p.big}]")
        for i, label in enumerate(p.menu):
            row = ("> " if i == p.selected else "  ") + label
            if i == 0 and p.more_above:
                row += " ↑"
            if i == len(p.menu) - 1 and p.more_below:
                row += " ↓"
            out.append(row)
    if p.bar is not None:
        cells = round(BAR_CELLS * p.bar)
        out.append("[" + "#" * cells + "-" * (BAR_CELLS - cells) + "]")
    return out


def frame_text(frame: Any, lang: str = "fr", size: tuple[int, int] = SIZE) -> list[str]:
    """`screen_text` of anything with screen, menu, cursor and banner attributes."""
    return screen_text(frame.screen, lang, menu=getattr(frame, "menu", ()), cursor=getattr(frame, "cursor", 0),
                       banner=getattr(frame, "banner", None), size=size)
