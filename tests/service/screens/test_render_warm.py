"""A screen's picture parts drawn ahead (`render.warm`, what the table does in idle time for the
screens a move would lead to) change no picture, and drawing the screen later finds its texts,
its title bar and its lines' rows already made (property over generated screens)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.screens import layout, metrics, render, textfit
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
    if plan.pages == 1 and screen.big is None:  # a page marker or a big number in it: the layout's
        assert render._title_bar.cache_info().misses == title
    if screen.big is None:  # beside a big number the lines are fitted narrower
        assert render._row_layer.cache_info().misses == rows, plan.lines  # every line's row drawn ahead
    assert render.render(screen, lang, menu=menu, size=size).tobytes() == fresh  # nothing drawn differently
    cleared()
    assert render.render(screen, lang, size=size).tobytes() == picture
