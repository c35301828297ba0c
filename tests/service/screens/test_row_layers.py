"""A body row's kept layer (`render._row_layer`, recorded once by a `bitrows.Recorder`) put on any
picture leaves it as drawing the row's calls there afresh does: text, message and menu rows, the
highlighted, scrolled and arrowed ones, on white and on black (property)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.screens import fonts, render
from firmware_host.screens.bitrows import Canvas, Recorder
from firmware_host.screens.layout import MARGIN, PITCH, body_face

CHARS = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:!?'-éèàçÉœ«»…★☠"


@st.composite
def rows(draw: Any) -> tuple[Any, ...]:
    width = draw(st.sampled_from([128, 64]))
    text = draw(st.text(alphabet=CHARS, max_size=30))
    kind = draw(st.sampled_from(["text", "status", "menu"]))
    gen = fonts.generation()
    if kind == "text":
        return ("text", width, PITCH, gen, text, draw(st.sampled_from([MARGIN, 4])))
    if kind == "status":
        return ("status", width, PITCH, gen, text)
    on = draw(st.booleans())
    room = width - 2 * MARGIN - draw(st.integers(8, 16))
    scroll = draw(st.integers(0, 40)) if on and draw(st.booleans()) else -1
    return ("menu", width, PITCH, gen, text, on, room, scroll, draw(st.booleans()), draw(st.booleans()))


@settings(max_examples=150, deadline=None)
@given(key=rows(), top=st.integers(-6, 60), background=st.integers(0, 1))
def test_a_kept_row_puts_what_drawing_it_afresh_draws(key: tuple[Any, ...], top: int, background: int) -> None:
    width = key[1]
    fresh, kept = Canvas(width, 64), Canvas(width, 64)
    for c in (fresh, kept):
        c.fill(0, 0, width - 1, 63, background)
        c.fill(0, 20, width - 1, 30, 1 - background)  # a band of the other colour across some rows
    render._row_layer.cache_clear()
    render._row(kept, body_face(), top, key)  # recorded now, then put
    render._row(kept, body_face(), top, key)  # the kept layer, put again: the same pixels
    render._draw_row(fresh, body_face(), top, key)
    assert kept.ink == fresh.ink, key


def test_a_recorded_clearing_call_clears_where_it_is_put() -> None:
    """A call drawing black on the Recorder's black still clears a white picture under it."""
    rec = Recorder(16, 4)
    rec.fill(2, 1, 5, 2, 0)
    layer = rec.layer()
    assert layer is not None
    direct, layered = Canvas(16, 4), Canvas(16, 4)
    for c in (direct, layered):
        c.fill(0, 0, 15, 3, 1)
    direct.fill(2, 1, 5, 2, 0)
    layered.put(layer, 0)
    assert layered.ink == direct.ink
