"""A screen's picture parts drawn ahead (`render.warm`, what the table does in idle time for the
screens a move would lead to) change no picture, and drawing the screen later finds its texts,
its title bar and its lines' rows already made; so does a message drawn ahead
(`render.warm_message`, `messages.warm_status`), above a menu or covering the screen (properties
over generated screens and messages)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.screens import fonts, layout, messages, metrics, render, textfit
from games.core import Screen, Text, essential

CHARS = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:!?'-éèàçÉœ«»…★☠"
WORDS = st.text(alphabet=CHARS, max_size=40)
CACHES = (render._title_bar, render._row_layer, render._render_cached, metrics.texts_cached, metrics.fitted_lines,
          metrics.essential_need, metrics.items_cached, layout._plan_at_rest, textfit._big_face, render._ink_rows)


def texts() -> Any:
    return st.builds(Text, WORDS, WORDS)


@st.composite
def screens(draw: Any) -> Screen:
    lines = tuple(essential(t) if draw(st.booleans()) else t for t in draw(st.lists(texts(), max_size=6)))
    big = draw(st.none() | st.integers(0, 9999).map(str) | st.sampled_from(["12 €", "3/4", "x2"]))
    return Screen(draw(texts()), lines, big, draw(st.none() | st.floats(0, 1)),
                  draw(st.none() | st.sampled_from(metrics.ICONS)))


def cleared() -> None:
    for cache in CACHES:
        cache.cache_clear()


@settings(max_examples=120, deadline=None)
@given(screen=screens(), lang=st.sampled_from(["fr", "en"]), size=st.sampled_from([(128, 64), (64, 128)]),
       menu=st.lists(texts(), max_size=3))
def test_drawn_ahead_the_picture_is_the_same_and_its_screen_parts_are_found(
        screen: Screen, lang: str, size: tuple[int, int], menu: list[Text]) -> None:
    cleared()
    fresh = render.render(screen, lang, menu=menu, size=size).tobytes()
    cleared()
    render.warm(screen, lang, size)
    title, rows, texts_made = (render._title_bar.cache_info().misses, render._row_layer.cache_info().misses,
                               metrics.texts_cached.cache_info().misses)
    big = textfit._big_face.cache_info().misses, render._ink_rows.cache_info().misses
    plan = layout.plan(screen, lang, (), 0, None, size)
    picture = render.render(screen, lang, size=size).tobytes()  # no menu: every row is a line
    assert metrics.texts_cached.cache_info().misses == texts_made  # measured ahead
    assert (textfit._big_face.cache_info().misses, render._ink_rows.cache_info().misses) == big  # its font fitted
    if plan.pages == 1:  # a page marker in it: the layout's (a big number goes in it or beside the lines)
        assert render._title_bar.cache_info().misses == title
    assert render._row_layer.cache_info().misses == rows, plan.lines  # every line's row drawn ahead
    assert render.render(screen, lang, menu=menu, size=size).tobytes() == fresh  # nothing drawn differently
    cleared()
    assert render.render(screen, lang, size=size).tobytes() == picture


@settings(max_examples=120, deadline=None)
@given(screen=screens(), message=texts(), lang=st.sampled_from(["fr", "en"]),
       size=st.sampled_from([(128, 64), (64, 128)]), menu=st.lists(texts(), max_size=3).map(tuple))
def test_a_message_drawn_ahead_is_the_same_picture_and_its_parts_and_rows_are_found(
        screen: Screen, message: Text, lang: str, size: tuple[int, int], menu: tuple[Text, ...]) -> None:
    cleared()
    messages.status_windows_cached.cache_clear()
    parts = layout.status_windows(screen, lang, menu, size, message)
    shown = [message if part == message.get(lang) else Text(part, part) for part in parts]
    fresh = [render.render(screen, lang, menu=menu, size=size, status=t).tobytes() for t in shown]
    covered = render.render(screen, lang, size=size, banner=message).tobytes()
    cleared()
    messages.status_windows_cached.cache_clear()
    render.warm(screen, lang, size)
    render.warm_message(message, lang, size)
    messages.warm_status(screen, lang, size, message)
    made = messages.status_windows_cached.cache_info().misses
    assert layout.status_windows(screen, lang, menu, size, message) == parts  # its parts worked out ahead
    layout.status_windows(screen, lang, (), size, message)  # and with no menu under it
    assert messages.status_windows_cached.cache_info().misses == made
    width, gen = size[0], fonts.generation()
    rows = render._row_layer.cache_info().misses
    for t in shown:  # each part's rows above the menu
        for row in layout.plan(screen, lang, menu, 0, None, size, status=t).status_rows:
            render._row_layer(("status", width, layout.PITCH, gen, row))
    for row in layout.plan(screen, lang, (), 0, message, size).banner_rows:  # covering the screen
        render._row_layer(("text", width, layout.PITCH, gen, row, layout.BANNER_INSET))
    assert render._row_layer.cache_info().misses == rows
    assert [render.render(screen, lang, menu=menu, size=size, status=t).tobytes() for t in shown] == fresh
    assert render.render(screen, lang, size=size, banner=message).tobytes() == covered
