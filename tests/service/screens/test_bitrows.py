"""Bit-row pictures: rectangles and strips land on the same pixels as Pillow draws them, clipped to
the picture and to a box, on any width (whole bytes or not), from any position (property)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from firmware_host.screens.bitrows import Canvas, Recorder, strip_of

pytestmark = pytest.mark.slow  # drawing compared with Pillow's over many cases: tens of seconds

sizes = st.tuples(st.integers(1, 150), st.integers(1, 40))


def picture(c: Canvas) -> bytes:
    return Image.frombytes("1", (c.width, c.height), c.tobytes()).tobytes()


@st.composite
def masks(draw: Any) -> Any:
    """A small random 1-bit image (a strip's source), sometimes wider than the picture."""
    w, h = draw(st.integers(1, 200)), draw(st.integers(1, 14))
    bits = draw(st.lists(st.booleans(), min_size=w * h, max_size=w * h))
    image = Image.new("1", (w, h))
    image.putdata([255 if b else 0 for b in bits])
    return image


@settings(max_examples=200, deadline=None)
@given(size=sizes, ops=st.lists(st.tuples(st.integers(-20, 170), st.integers(-10, 50), st.integers(-20, 170),
                                          st.integers(-10, 50), st.integers(0, 1)), max_size=8))
def test_rectangles_match_pillow(size: tuple[int, int], ops: list[tuple[int, int, int, int, int]]) -> None:
    c = Canvas(*size)
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)
    for x0, y0, x1, y1, ink in ops:
        x0, x1 = sorted((x0, x1))
        y0, y1 = sorted((y0, y1))
        c.fill(x0, y0, x1, y1, ink)
        draw.rectangle((x0, y0, x1, y1), fill=ink)
    assert picture(c) == image.tobytes()


@settings(max_examples=200, deadline=None)
@given(size=sizes, mask=masks(), x=st.integers(-210, 160), y=st.integers(-16, 45), ink=st.integers(0, 1),
       background=st.integers(0, 1), box=st.one_of(st.none(), st.tuples(st.integers(-5, 150), st.integers(-5, 40),
                                                                         st.integers(1, 40), st.integers(1, 20))))
def test_strips_match_pillow(size: tuple[int, int], mask: Any, x: int, y: int, ink: int, background: int,
                             box: tuple[int, int, int, int] | None) -> None:
    c = Canvas(*size)
    c.fill(0, 0, size[0] - 1, size[1] - 1, background)
    image = Image.new("1", size, background)
    if box is None:
        c.blit(strip_of(mask, 2), x, y - 2, ink)
        ImageDraw.Draw(image).bitmap((x, y), mask, fill=ink)
    else:  # drawn on a picture of the box's size, then pasted: what Pillow clipping to a box means
        bx, by, bw, bh = box
        c.blit(strip_of(mask), x, y, ink, (bx, by, bx + bw - 1, by + bh - 1))
        inner = image.crop((bx, by, bx + bw, by + bh))
        ImageDraw.Draw(inner).bitmap((x - bx, y - by), mask, fill=ink)
        image.paste(inner, (bx, by))
    assert picture(c) == image.tobytes()


@settings(max_examples=200, deadline=None)
@given(size=sizes, background=st.lists(st.tuples(st.integers(-5, 150), st.integers(-5, 40), st.integers(0, 30),
                                                 st.integers(0, 12), st.integers(0, 1)), max_size=4),
       mask=masks(), fills=st.lists(st.tuples(st.integers(-5, 150), st.integers(0, 20), st.integers(0, 40),
                                               st.integers(0, 8), st.integers(0, 1)), max_size=3),
       x=st.integers(-30, 150), dy=st.integers(-4, 20), ink=st.integers(0, 1), top=st.integers(-25, 45),
       rows=st.integers(1, 30))
def test_a_recorded_layer_puts_what_the_calls_draw(size: tuple[int, int], background: list[tuple[int, ...]],
                                                   mask: Any, fills: list[tuple[int, ...]], x: int, dy: int,
                                                   ink: int, top: int, rows: int) -> None:
    """Drawing calls recorded on a small Recorder and put at `top` of a picture leave it as the same
    calls drawn on the picture itself do (what they cover set or cleared, the rest untouched), or
    the Recorder says a call reached past its top or bottom."""
    width = size[0]

    def calls(c: Canvas, y: int) -> None:
        for fx, fy, fw, fh, fink in fills:
            c.fill(fx, y + fy, fx + fw, y + fy + fh, fink)
        c.blit(strip_of(mask), x, y + dy, ink)

    direct, layered = Canvas(*size), Canvas(*size)
    for c in (direct, layered):
        for bx, by, bw, bh, bink in background:
            c.fill(bx, by, bx + bw, by + bh, bink)
    rec = Recorder(width, rows)
    calls(rec, 0)
    layer = rec.layer()
    calls(direct, top)
    if layer is None:
        assert rec.cut
        return
    layered.put(layer, top)
    assert picture(layered) == picture(direct)
