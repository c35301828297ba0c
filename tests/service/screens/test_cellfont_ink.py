"""A text's strip joined from the bundled font's kept glyph rows (`CellFont.ink`, `bitrows.stacked`)
is the strip of the text drawn by Pillow from the same glyphs, whatever its length and characters,
and whatever the glyph rows kept before it (property)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.screens import cellfont, fonts, textfit
from firmware_host.screens.bitrows import Strip, strip_of

# ASCII, accented letters the font has, signs it lacks (look-alikes), the two drawn by the table
CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;!?'()-éèàçÉœ«»…◀▶★☠|_"


def drawn(text: str) -> Strip:
    """The strip as Pillow draws the text from the glyph images (no kept rows involved)."""
    face = fonts.pixel_face()
    base = fonts._plan(face, text)[0] if not text.isascii() else text
    return strip_of(face.font.strip(base), -face.top)


def stacked_again(strip: Strip, bits: int) -> int:
    whole = 0
    for row in strip.rows:
        whole = (whole << bits) | row
    return whole


WORDS = ["J2", "pose", "Espagne,", "prend", "Italie.", "é", "œ…", "★☠", "", "«x»"]  # joined again in texts of every length
texts = st.one_of(st.text(alphabet=CHARS, max_size=60), st.lists(st.sampled_from(WORDS), max_size=14).map(" ".join))


@settings(max_examples=150, deadline=None)
@given(texts=st.lists(texts, min_size=1, max_size=6))
def test_a_joined_strip_is_the_drawn_one(texts: list[str]) -> None:
    face = fonts.pixel_face()
    assert isinstance(face.font, cellfont.CellFont)
    for text in texts:
        fonts.strip_rows.cache_clear()  # joined now, from whatever glyph rows the font kept
        strip = fonts.strip_rows(face, text)
        if not text.strip():
            assert strip.rows == ()
            continue
        want = drawn(text)
        assert (strip.width, strip.top, strip.rows) == (want.width, want.top, want.rows), text
        for bits in {64, 128, 256, -(-strip.width // 64) * 64}:  # the kept stacking and fresh ones
            if bits >= strip.width:
                assert strip.tall(bits) == stacked_again(want, bits), (text, bits)


def test_the_kept_glyph_rows_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """More words and lanes than are kept: the texts are still drawn right, the kept rows cut."""
    monkeypatch.setattr(cellfont, "WORDS_KEPT", 16)
    monkeypatch.setattr(cellfont, "LANES_KEPT", 3)
    font = fonts.pixel_face().font
    assert isinstance(font, cellfont.CellFont)
    font._words.clear()  # kept by earlier texts under the real bounds
    for n in range(1, 120, 7):  # texts of many lanes, with more words than a lane keeps
        for i in range(0, len(CHARS), n):
            fonts.strip_rows.cache_clear()
            text = " ".join(CHARS[i:i + n])  # every character a word
            if text.strip():
                assert fonts.strip_rows(fonts.pixel_face(), text).rows == drawn(text).rows, text
            assert len(font._words) <= 3
            assert all(len(kept) <= max(16, n) for kept in font._words.values())  # or one text's


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet=CHARS, max_size=60))
def test_a_text_is_as_wide_as_the_cells_it_is_drawn_in(text: str) -> None:
    face = fonts.pixel_face()
    fonts._measure.cache_clear()
    drawn_as = fonts._plan(face, text)[0] if not text.isascii() else text  # look-alikes may take two cells
    assert fonts.text_width(face, text) == len(drawn_as) * face.font.cell_w


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(alphabet="abcdefghij klmnop", max_size=120), st.text(alphabet=CHARS + "  ", max_size=120),
                     st.lists(st.sampled_from(WORDS), max_size=20).map(" ".join)),
       width=st.integers(6, 130), rows=st.integers(0, 6))
@pytest.mark.parametrize("wide", ["", "œ…"])  # look-alikes drawn two cells wide, as another font's may be
def test_counted_rows_wrap_as_measured_ones(wide: str, text: str, width: int, rows: int) -> None:
    face = fonts.pixel_face()
    cells = fonts._cells
    with pytest.MonkeyPatch.context() as m:
        m.setattr(fonts, "_cells", lambda f, ch: 2 if ch in wide else cells(f, ch))
        fonts._measure.cache_clear()
        textfit.wrap.cache_clear()
        counted = textfit.wrap(face, text, width, rows)
        m.setattr(textfit, "CellFont", type("NotACellFont", (), {}))  # every width measured
        textfit.wrap.cache_clear()
        measured = textfit.wrap(face, text, width, rows)
    fonts._measure.cache_clear()
    textfit.wrap.cache_clear()
    assert counted == measured
