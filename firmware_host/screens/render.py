"""Seat screen renderer: a games.core.Screen (+ button menu, + instruction banner) → 128x64 1-bit image.

Layout (128x64; a quarter-turned 64x128 screen gets the same widgets, narrower and taller):

    ┌──────────────────────────────┐ title bar, inverted, bold, optional icon on the right
    │ line / menu row              │ 5 rows of 10 px (4 when a countdown bar is shown), in the
    │ line / menu row        ┌───┐ │ bundled 6x10 bitmap font; big number on the right when
    │ ▓▓ cursor row ▓▓▓▓▓▓▓▓ │ 12│ │ every row fits beside it, else in the title bar
    │ line / menu row        └───┘ │ menu: the cursor row inverted, ▲▼ when it scrolls
    │ line / menu row              │
    └[██████████········]──────────┘ countdown bar (fraction left)

What goes where (pages, wrapping of essential lines, the big number, sideways scrolling of the
highlighted entry, elisions) is decided by `layout.plan`. An instruction banner replaces the body,
word-wrapped in a frame, with the warning icon. `screen_text` gives the same page as plain text.

Pixels are composed as one Python int per row (bitrows): text strips, icons and arrows are
rasterised once with Pillow and cached as bit rows, then OR-ed and masked into place; the picture
becomes an image holding those bytes, unpacked by Pillow only if its pixels are read (.picture).
Whole pictures are cached as bytes: an unchanged screen costs that one image; a banner, which
hides the screen under it, is kept by what it shows, one picture for every seat it covers (a move
announced to all). A new screen is mostly made of parts seen before (a message arrived above the
same menu, the cursor moved): the title bar and each body row are cached as drawn alone (a
`bitrows.Layer`, put back exactly as its calls would draw), so only the rows that changed are drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from games.core import Screen, Text

from . import fonts, messages
from .bitrows import Canvas, Layer, Recorder, Strip, strip_of
from .layout import (
    BANNER_INSET,
    BAR_H,
    BODY_TOP,
    ICON,
    ICONS,
    MARGIN,
    MENU_INSET,
    PITCH,
    SIZE,
    STATUS_INSET,
    TITLE_H,
    Key,
    Plan,
    body_face,
    check_size,
    key,
    plan,
    plan_of,
)
from .layout import text_of as layout_text
from .layout import warm as layout_warm
from .textfit import big_face, fit

if TYPE_CHECKING:
    from PIL.Image import Image

BAR_CELLS = 10  # width of the text countdown bar

Label = Text | str


# ---------------------------------------------------------------------------------------------
# Pixels


def render(screen: Screen, lang: str = "fr", *, menu: Sequence[Label] = (), cursor: int = 0,
           banner: Label | None = None, size: tuple[int, int] = SIZE, page: int = 0, scroll: int = 0,
           status: Label | None = None) -> Image:
    """The seat's picture: a new mode "1" image of `size` (yours to keep or change)."""
    k = key(screen, lang, menu, cursor, banner, size, page, status)
    try:
        if k is None:
            raise TypeError("unhashable")
        data = _render_cached(k, scroll)
    except TypeError:  # an unhashable screen (a list where a tuple belongs): draw without cache
        data = _draw(plan(screen, lang, menu, cursor, banner, size, page, scroll, status), size)
    return _picture(check_size(size), data)


def _picture(size: tuple[int, int], data: bytes) -> Image:
    """A new mode "1" image of the picture's bytes (its pixels unpacked only if they are read)."""
    global _make
    if _make is None:
        from .picture import picture

        _make = picture
    return _make(size, data)


_make: Callable[[tuple[int, int], bytes], Image] | None = None  # .picture's, once imported (it imports Pillow)


def render_frame(frame: Any, lang: str = "fr", size: tuple[int, int] = SIZE) -> Image:
    """Render anything with screen, menu, cursor, banner (and page, scroll) attributes: a Frame."""
    qr = getattr(frame, "qr", None)
    if qr:  # a seat's phone link: the QR code beside the title and lines
        from .qr import qr_picture

        return qr_picture(qr, frame.screen, lang, size)
    return render(frame.screen, lang, menu=getattr(frame, "menu", ()), cursor=getattr(frame, "cursor", 0),
                  banner=getattr(frame, "banner", None), size=size, page=getattr(frame, "page", 0),
                  scroll=getattr(frame, "scroll", 0), status=getattr(frame, "status", None))


def frame_layout(frame: Any, lang: str = "fr", size: tuple[int, int] = SIZE) -> tuple[Plan, Key | None]:
    """A Frame's layout (`frame_plan`) and its cache key, for `frame_picture` to draw it from."""
    k = key(frame.screen, lang, getattr(frame, "menu", ()), getattr(frame, "cursor", 0),
            getattr(frame, "banner", None), size, getattr(frame, "page", 0), getattr(frame, "status", None))
    if k is None:
        return frame_plan(frame, lang, size), None
    return plan_of(k, getattr(frame, "scroll", 0)), k


def frame_picture(frame: Any, lang: str, size: tuple[int, int], k: Key | None) -> tuple[Image, bytes | None]:
    """`render_frame`, the layout's key already in hand (`frame_layout`), with the picture's mode
    "1" bytes when it was made from them (None: drawn otherwise, a QR code's)."""
    if k is None or getattr(frame, "qr", None):
        return render_frame(frame, lang, size), None
    rows = _render_cached(k, getattr(frame, "scroll", 0))
    return _picture(check_size(size), rows), rows


def frame_plan(frame: Any, lang: str = "fr", size: tuple[int, int] = SIZE) -> Plan:
    """The layout of a Frame's current page (what the seat sees, elisions included)."""
    return plan(frame.screen, lang, getattr(frame, "menu", ()), getattr(frame, "cursor", 0),
                getattr(frame, "banner", None), size, getattr(frame, "page", 0), getattr(frame, "scroll", 0),
                getattr(frame, "status", None))


def warm(screen: Screen, lang: str, size: tuple[int, int]) -> None:
    """Work out now what drawing `screen` will need whatever its menu and message (`layout.warm`):
    its title bar and its lines' rows, drawn once into the caches a picture of it is made from."""
    width, height = check_size(size)
    looks, covered = layout_warm(screen, lang, size)
    gen = fonts.generation()
    _title_bar(width, height, covered, "warn", "", None, gen)  # over a message covering the body
    for title, icon, big, rows in looks:  # a big number goes beside the lines or into the title
        _title_bar(width, height, title, icon, "", big, gen)
        for line in rows:
            _row_layer(("text", width, PITCH, gen, line, MARGIN))
    if screen.big not in (None, ""):  # its font fitted and its ink made, beside the rows and alone
        for beside in (True, False):
            _big_ink(layout_text(screen.big, lang), width, height, screen.bar is not None, beside)


def warm_message(text: Text, lang: str, size: tuple[int, int]) -> None:
    """Work out now what drawing `text` as a seat's message will need whatever it comes with
    (`messages.warm_message`): its rows above a menu and as a banner, drawn once into the rows'
    cache a picture showing it is made from."""
    width = check_size(size)[0]
    gen = fonts.generation()
    above, banner = messages.warm_message(text, lang, size)
    for row in above:
        _row_layer(("status", width, PITCH, gen, row))
    for row in banner:
        _row_layer(("text", width, PITCH, gen, row, BANNER_INSET))


@lru_cache(maxsize=256)
def _render_cached(k: Key, scroll: int) -> bytes:
    # bytes, not an Image: immutable, so every caller gets a fresh image made in one C call
    p = plan_of(k, scroll)
    if p.banner:  # a message covering the body: the same picture whatever lies under it
        return _banner_picture(p, k.args[5])
    return _draw(p, k.args[5])


BANNERS = 16  # banner pictures kept: one news is shown on every seat at once, then goes
_banners: dict[tuple[Any, ...], bytes] = {}


def _banner_picture(p: Plan, size: tuple[int, int]) -> bytes:
    """`_draw` of a banner's layout, drawn once for every seat it covers (their screens, hidden
    under it, differ; the move announced to all does not): keyed by all `_draw` reads of it."""
    k = (p.title_shown, p.icon, p.marker, p.big, p.big_beside, p.banner_rows, p.bar, p.pitch, size,
         fonts.generation())
    data = _banners.get(k)
    if data is None:
        if len(_banners) >= BANNERS:
            # the oldest goes (the web pages' threads draw too: another may have taken it)
            _banners.pop(next(iter(_banners), ()), None)
        data = _banners[k] = _draw(p, size)
    return data


def _draw(p: Plan, size: tuple[int, int]) -> bytes:
    """The picture of a laid-out page, as mode "1" image bytes."""
    width, height = check_size(size)
    c = Canvas(width, height)
    face = body_face()
    gen = fonts.generation()
    # the title bar is drawn first, on black: its picture is the canvas so far
    c.ink = _title_bar(width, height, p.title_shown, p.icon, p.marker, p.big if not p.big_beside else None, gen)

    body_y = BODY_TOP
    pitch = p.pitch
    if p.banner:
        frame_bottom = height - 1 if p.bar is None else height - BAR_H  # the bar closes the frame
        c.fill(0, TITLE_H, 0, frame_bottom)
        c.fill(0, frame_bottom, width - 1, frame_bottom)
        c.fill(width - 1, TITLE_H, width - 1, frame_bottom)
        for i, row_text in enumerate(p.banner_rows):
            _row(c, face, body_y + i * pitch, ("text", width, pitch, gen, row_text, BANNER_INSET))
    else:
        if p.big and p.big_beside:
            _big(c, p.big, width, height, p, bool(p.lines or p.menu))
        row = 0
        for row_text in p.status_rows:  # a message above a menu: a line on its left marks it
            _row(c, face, body_y + row * pitch, ("status", width, pitch, gen, row_text))
            row += 1
        for line in p.lines:
            _row(c, face, body_y + row * pitch, ("text", width, pitch, gen, line, MARGIN))
            row += 1
        last = len(p.menu) - 1
        above = p.more_above
        below = p.more_below
        for i, label in enumerate(p.menu):
            on = i == p.selected
            _row(c, face, BODY_TOP + row * pitch, ("menu", width, pitch, gen, label, on, p.menu_room,
                                                   p.scroll_px if on and p.scrolls else -1,
                                                   above and i == 0, below and i == last))
            row += 1
    if p.bar is not None:
        top = height - BAR_H
        c.fill(0, top, width - 1, height - 1, 0)
        c.fill(0, top, width - 1, top)
        c.fill(0, height - 1, width - 1, height - 1)
        c.fill(0, top, 0, height - 1)
        c.fill(width - 1, top, width - 1, height - 1)
        filled = round((width - 4) * p.bar)
        if filled > 0:
            c.fill(2, top + 2, 1 + filled, height - 3)
    return c.tobytes()


@lru_cache(maxsize=32)
def _title_bar(width: int, height: int, title: str, icon: str | None, marker: str, big: str | None,
               generation: int) -> int:
    """The picture of the title bar alone (`big`: the big number shown small in it), as Canvas ink."""
    c = Canvas(width, height)
    face = body_face()
    text = fonts.strip_rows
    c.fill(0, 0, width - 1, TITLE_H - 1)
    title_y = max(0, (TITLE_H - face.height) // 2)
    c.blit(text(face, title), MARGIN, title_y, 0)
    right = width - MARGIN
    if icon:
        c.blit(_icon(icon), width - ICON - 2 - _M, (TITLE_H - ICON) // 2 - _M, 0)
        right = width - ICON - 4
    if marker:
        right -= fonts.text_width(face, marker)
        c.blit(text(face, marker), right, title_y, 0)
        right -= fonts.text_width(face, " ")
    if big:  # the big number, small, in a dark chip: not read as the page marker
        w = fonts.text_width(face, big)
        c.fill(right - w - 1, 0, right, TITLE_H - 1, 0)
        c.blit(text(face, big), right - w, title_y, 1)
    return c.ink


def _row(c: Canvas, face: fonts.Face, y: int, key: tuple[Any, ...]) -> None:
    """Draw one body row (a text line, a message row, a menu entry) whose top is at `y`."""
    layer = _row_layer(key)
    if layer is not None:
        c.put(layer, y - _M)
    else:  # its ink reaches past the rows kept round it (a tall fallback font): drawn in place
        _draw_row(c, face, y, key)


@lru_cache(maxsize=512)
def _row_layer(key: tuple[Any, ...]) -> Layer | None:
    """A body row drawn alone, `_M` rows below the top of a strip `_M` rows taller than its pitch
    above and below: the same row anywhere on any screen is drawn once (key: see `_draw`)."""
    width, pitch = key[1], key[2]
    rec = Recorder(width, pitch + 2 * _M)
    _draw_row(rec, body_face(), _M, key)
    return rec.layer()


def _draw_row(c: Canvas, face: fonts.Face, y: int, key: tuple[Any, ...]) -> None:
    text = fonts.strip_rows
    kind, pitch = key[0], key[2]
    if kind == "text":
        c.blit(text(face, key[4]), key[5], y)
    elif kind == "status":
        c.fill(0, y, 0, y + pitch - 2)
        c.blit(text(face, key[4]), MARGIN + STATUS_INSET, y)
    else:
        label, on, menu_room, scroll_px, up, down = key[4:]
        if on:
            c.fill(0, y, MENU_INSET + menu_room, y + pitch - 1)
        if scroll_px >= 0:
            _scrolled(c, face, label, menu_room, scroll_px, pitch, y)
        else:
            c.blit(text(face, fit(face, label, menu_room - 1)), MENU_INSET, y, 0 if on else 1)
        if up:
            c.blit(_arrow(True), MENU_INSET + menu_room + 2 - _M, y + 1 - _M)
        if down:
            c.blit(_arrow(False), MENU_INSET + menu_room + 2 - _M, y + pitch - 6 - _M)


def _scrolled(c: Canvas, face: fonts.Face, label: str, menu_room: int, scroll_px: int, pitch: int, y: int) -> None:
    """The highlighted entry, wider than its row, drawn shifted left by the marquee offset."""
    box = (MENU_INSET, y, MENU_INSET + menu_room - 2, y + pitch - 1)  # its row, white
    c.fill(*box)
    c.blit(fonts.strip_rows(face, label), MENU_INSET - scroll_px, y, 0, box)


def _big(c: Canvas, text: str, width: int, height: int, p: Plan, beside: bool) -> int:
    """Draw the big number (right of the text if `beside`, centred otherwise); its left edge."""
    face, shown, room_h, (glyph_top, glyph_bottom), ink = _big_ink(text, width, height, p.bar is not None, beside)
    w = fonts.text_width(face, shown)
    x = width - 2 - w if beside else (width - w) // 2
    y = BODY_TOP + (room_h - (glyph_bottom - glyph_top)) // 2 - glyph_top + face.top
    c.blit(ink, x, y)
    return x


def _big_ink(text: str, width: int, height: int, bar: bool, beside: bool
             ) -> tuple[fonts.Face, str, int, tuple[int, int], Strip]:
    """The big number's font, text as shown, room height, glyph box and ink (each part cached)."""
    room_h = (height - 1 if not bar else height - BAR_H - 1) - BODY_TOP
    room_w = (width // 2 - 2) if beside else width - 4
    face = big_face(text, room_w, room_h)
    shown = fit(face, text, room_w)
    return face, shown, room_h, _ink_rows(face, shown), fonts.strip_rows(face, shown)


@lru_cache(maxsize=256)
def _ink_rows(face: fonts.Face, shown: str) -> tuple[int, int]:
    """The top and bottom of `shown`'s glyph box (FreeType measures: ~0.1 ms, cached)."""
    if not shown:
        return 0, 0
    box = face.font.getbbox(shown, mode="1")
    return int(box[1]), int(box[3])


_M = 3  # margin round the small pictures below: a 2 px wide line may ink past its end points


@lru_cache(maxsize=2)
def _arrow(up: bool) -> Strip:
    """The ▲ (or ▼) mark of a scrolling menu, its corner at (_M, _M) of the strip."""
    from PIL import Image, ImageDraw

    image = Image.new("1", (5 + 2 * _M, 5 + 2 * _M))
    draw_arrow(ImageDraw.Draw(image), _M, _M, up, 1)
    return strip_of(image)


@lru_cache(maxsize=len(ICONS))
def _icon(name: str) -> Strip:
    """A 9x9 icon's ink (drawn black on the white title bar), its corner at (_M, _M) of the strip."""
    from PIL import Image, ImageDraw

    image = Image.new("1", (ICON + 2 * _M, ICON + 2 * _M))
    draw_icon(ImageDraw.Draw(image), name, _M, _M, 1)
    return strip_of(image)


def draw_arrow(draw: Any, x: int, y: int, up: bool, ink: int) -> None:
    """Draw the ▲ (or ▼) mark with its corner at (x, y) on a Pillow draw."""
    points = [(x, y + 4), (x + 4, y + 4), (x + 2, y + 2)] if up else [(x, y), (x + 4, y), (x + 2, y + 2)]
    draw.polygon(points, fill=ink)


def draw_icon(draw: Any, name: str, x: int, y: int, ink: int) -> None:
    """Draw a 9x9 icon with its corner at (x, y) on a Pillow draw (ink coverage is the same in any colour)."""
    e = ICON - 1
    if name == "turn":
        draw.polygon([(x + 1, y), (x + 1, y + e), (x + e, y + e // 2)], fill=ink)
    elif name == "wait":
        draw.polygon([(x, y), (x + e, y), (x + e // 2, y + e // 2)], fill=ink)
        draw.polygon([(x + e // 2, y + e // 2), (x, y + e), (x + e, y + e)], fill=ink)
    elif name == "eye":
        draw.ellipse((x, y + 2, x + e, y + e - 2), outline=ink)
        draw.rectangle((x + 3, y + 3, x + 5, y + 5), fill=ink)
    elif name == "warn":
        draw.polygon([(x + e // 2, y), (x, y + e), (x + e, y + e)], outline=ink)
        draw.line([(x + e // 2, y + 3), (x + e // 2, y + 5)], fill=ink)
        draw.point((x + e // 2, y + 7), fill=ink)
    elif name == "ok":
        draw.line([(x, y + 4), (x + 3, y + 7), (x + e, y + 1)], fill=ink, width=2)
    elif name == "trophy":
        draw.rectangle((x + 2, y, x + 6, y + 4), fill=ink)
        draw.point([(x, y + 1), (x + e, y + 1), (x + 1, y + 2), (x + e - 1, y + 2)], fill=ink)
        draw.line([(x + 4, y + 5), (x + 4, y + 6)], fill=ink)
        draw.line([(x + 2, y + e), (x + 6, y + e)], fill=ink)


# ---------------------------------------------------------------------------------------------
# Plain text: the terminal simulator and the JSON transcripts


def screen_text(screen: Screen, lang: str = "fr", *, menu: Sequence[Label] = (), cursor: int = 0,
                banner: Label | None = None, size: tuple[int, int] = SIZE, page: int = 0,
                status: Label | None = None) -> list[str]:
    """The screen as text rows: "# title [icon]", lines, "[big]", "> menu", "! banner", "[###---]".

    Same page as the picture (banner priority, rows, menu window), but lines and labels are not
    ellipsised: a terminal is wider than the OLED. Essential lines keep the picture's wrapping
    only as far as the page split goes: each line appears on the page the picture shows it on.
    """
    p = plan(screen, lang, menu, cursor, banner, size, page, 0, status)
    marker = f" ({p.marker})" if p.marker else ""
    out = [f"# {p.title}" + (f" [{p.icon}]" if p.icon else "") + marker]
    if p.banner:
        out.append(f"! {p.banner}")
    else:
        if p.status_rows:
            out.append(f"» {layout_text(status, lang)}")
        out.extend(_whole_lines(screen, lang, p))
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


def _whole_lines(screen: Screen, lang: str, p: Plan) -> list[str]:
    """The page's rows with ellipsised lines given back whole (the terminal has room)."""
    cut = {e.shown: e.text for e in p.elisions if e.kind == "line"}
    return [cut.get(row, row) for row in p.lines]


def frame_text(frame: Any, lang: str = "fr", size: tuple[int, int] = SIZE) -> list[str]:
    """`screen_text` of anything with screen, menu, cursor, banner and page attributes."""
    return screen_text(frame.screen, lang, menu=getattr(frame, "menu", ()), cursor=getattr(frame, "cursor", 0),
                       banner=getattr(frame, "banner", None), size=size, page=getattr(frame, "page", 0),
                       status=getattr(frame, "status", None))
