"""The seat-screen picture drawn with Pillow's drawing calls, as the table drew it before the
bit-row renderer: a reference the fast renderer must match pixel for pixel (tests), and the
figure it is compared with (bench/bench_render.py)."""

from __future__ import annotations

from typing import Any

from firmware_host.screens import fonts
from firmware_host.screens.layout import (
    BAR_H,
    BODY_TOP,
    ICON,
    MARGIN,
    MENU_INSET,
    STATUS_INSET,
    TITLE_H,
    Plan,
    big_face,
    body_face,
    check_size,
    fit,
)
from firmware_host.screens.render import draw_arrow, draw_icon


def draw(p: Plan, size: tuple[int, int]) -> Any:
    """The picture of a laid-out page, drawn with ImageDraw (the reference)."""
    from PIL import Image, ImageDraw

    width, height = check_size(size)
    image = Image.new("1", (width, height))
    draw = ImageDraw.Draw(image)
    face = body_face()

    draw.rectangle((0, 0, width - 1, TITLE_H - 1), fill=1)
    title_y = max(0, (TITLE_H - face.height) // 2)
    fonts.draw_text(draw, (MARGIN, title_y), p.title_shown, face, fill=0)
    right = width - MARGIN
    if p.icon:
        _icon(draw, p.icon, width - ICON - 2, (TITLE_H - ICON) // 2)
        right = width - ICON - 4
    if p.marker:
        right -= fonts.text_width(face, p.marker)
        fonts.draw_text(draw, (right, title_y), p.marker, face, fill=0)
        right -= fonts.text_width(face, " ")
    if p.big and not p.big_beside:  # the big number, small, in a dark chip: not read as the page marker
        w = fonts.text_width(face, p.big)
        draw.rectangle((right - w - 1, 0, right, TITLE_H - 1), fill=0)
        fonts.draw_text(draw, (right - w, title_y), p.big, face, fill=1)

    body_y = BODY_TOP
    if p.banner:
        frame_bottom = height - 1 if p.bar is None else height - BAR_H  # the bar closes the frame
        draw.line([(0, TITLE_H), (0, frame_bottom), (width - 1, frame_bottom), (width - 1, TITLE_H)], fill=1)
        for i, text in enumerate(p.banner_rows):
            fonts.draw_text(draw, (4, body_y + i * p.pitch), text, face, fill=1)
    else:
        if p.big and p.big_beside:
            _big(draw, p.big, width, height, p, bool(p.lines or p.menu))
        row = 0
        for text in p.status_rows:  # a message above a menu: a line on its left marks it
            draw.line([(0, body_y + row * p.pitch), (0, body_y + row * p.pitch + p.pitch - 2)], fill=1)
            fonts.draw_text(draw, (MARGIN + STATUS_INSET, body_y + row * p.pitch), text, face)
            row += 1
        for line in p.lines:
            fonts.draw_text(draw, (MARGIN, body_y + row * p.pitch), line, face)
            row += 1
        scroll = p.more_above or p.more_below
        for i, label in enumerate(p.menu):
            y = BODY_TOP + row * p.pitch
            on = i == p.selected
            if on:
                draw.rectangle((0, y, MENU_INSET + p.menu_room, y + p.pitch - 1), fill=1)
            if on and p.scrolls:
                _scrolled(image, face, label, p, y)
            else:
                fonts.draw_text(draw, (MENU_INSET, y), fit(face, label, p.menu_room - 1), face, fill=0 if on else 1)
            if scroll and i == 0 and p.more_above:
                _arrow(draw, MENU_INSET + p.menu_room + 2, y + 1, up=True)
            if scroll and i == len(p.menu) - 1 and p.more_below:
                _arrow(draw, MENU_INSET + p.menu_room + 2, y + p.pitch - 6, up=False)
            row += 1
    if p.bar is not None:
        top = height - BAR_H
        draw.rectangle((0, top, width - 1, height - 1), outline=1, fill=0)
        filled = round((width - 4) * p.bar)
        if filled > 0:
            draw.rectangle((2, top + 2, 1 + filled, height - 3), fill=1)
    return image


def _scrolled(image: Any, face: fonts.Face, label: str, p: Plan, y: int) -> None:
    """The highlighted entry, wider than its row, drawn shifted left by the marquee offset."""
    from PIL import Image, ImageDraw

    strip = Image.new("1", (p.menu_room - 1, p.pitch), 1)
    fonts.draw_text(ImageDraw.Draw(strip), (-p.scroll_px, 0), label, face, fill=0)
    image.paste(strip, (MENU_INSET, y))


def _big(draw: Any, text: str, width: int, height: int, p: Plan, beside: bool) -> int:
    """Draw the big number (right of the text if `beside`, centred otherwise); its left edge."""
    bottom = height - 1 if p.bar is None else height - BAR_H - 1
    room_w = (width // 2 - 2) if beside else width - 4
    room_h = bottom - BODY_TOP
    face = big_face(text, room_w, room_h)
    shown = fit(face, text, room_w)
    w = fonts.text_width(face, shown)
    x = width - 2 - w if beside else (width - w) // 2
    glyph_top, glyph_bottom = face.font.getbbox(shown, mode="1")[1::2] if shown else (0, 0)
    y = BODY_TOP + (room_h - (glyph_bottom - glyph_top)) // 2 - glyph_top + face.top
    fonts.draw_text(draw, (x, y), shown, face)
    return x


def _arrow(draw: Any, x: int, y: int, up: bool) -> None:
    draw_arrow(draw, x, y, up, 1)  # the shapes are the renderer's; what is checked is how they are laid


def _icon(draw: Any, name: str, x: int, y: int) -> None:
    """A 9x9 icon drawn black on the white title bar."""
    draw_icon(draw, name, x, y, 0)

