"""Screen renderer: accents, layout widgets, no overflow, menu scrolling, banner priority, text twin."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from firmware_host.screens import fonts
from firmware_host.screens.layout import (
    BAR_H,
    BODY_TOP,
    ICONS,
    PITCH,
    TITLE_H,
    RenderError,
    body_face,
    plan,
)
from firmware_host.screens.render import frame_text, render, render_frame, screen_text
from firmware_host.screens.textfit import fit, wrap
from games.core import Screen, Text, tr

ACCENTED = ["é", "è", "à", "ç", "É"]
MISSING = ["\uffff", "\ue000"]  # a noncharacter and a private-use character: no font has them


@pytest.fixture(params=["system", "fallback"])
def font_mode(request):
    """Every accent test runs on the system font (DejaVu) and on Pillow's fallback font."""
    fonts.configure(fallback_only=request.param == "fallback")
    yield request.param
    fonts.configure()


@pytest.fixture(autouse=True)
def reset_fonts():
    yield
    fonts.configure()


def one_char(ch: str) -> bytes:
    return render(Screen(Text("", ""), (Text(ch, ch),))).tobytes()


def test_accented_letters_render_distinct_from_each_other_and_from_missing_glyphs(font_mode):
    images = {ch: one_char(ch) for ch in ACCENTED + MISSING + ["e", "E", "a", "c"]}
    for a, b in itertools.combinations(ACCENTED, 2):
        assert images[a] != images[b], f"{a} and {b} look the same ({font_mode} font)"
    for ch in ACCENTED:
        for missing in MISSING:
            assert images[ch] != images[missing], f"{ch} renders as a missing glyph ({font_mode} font)"
    for accented, plain in zip(ACCENTED, ["e", "e", "a", "c", "E"]):
        assert images[accented] != images[plain], f"{accented} lost its accent ({font_mode} font)"


def test_fallback_font_has_no_accents_so_they_are_drawn(font_mode):
    face = fonts.face(10)
    if font_mode == "fallback":
        assert face.source == fonts.FALLBACK and face.synthetic
    elif face.source != fonts.FALLBACK:
        assert not face.synthetic and face.ellipsis == "…"


def test_dejavu_is_found_in_standard_places():
    path = fonts.find_font()
    if path is None:
        pytest.skip("fonts-dejavu-core is not installed on this machine")
    assert path.name == "DejaVuSans.ttf"
    assert fonts.face(10).source == str(path) and not fonts.face(10).synthetic


def test_font_folder_can_be_configured(tmp_path):
    fonts.configure(dirs=[tmp_path])
    assert fonts.find_font() is None and fonts.face(10).source == fonts.FALLBACK
    fonts.configure()
    assert fonts.face(10) is fonts.face(10)  # loaded once


def test_language_picks_the_text():
    screen = Screen(tr("Votre tour", "Your turn"), (tr("Posez une pièce", "Place a piece"),))
    assert screen_text(screen, "fr") == ["# Votre tour", "Posez une pièce"]
    assert screen_text(screen, "en") == ["# Your turn", "Place a piece"]
    assert render(screen, "fr").tobytes() != render(screen, "en").tobytes()
    assert screen_text(screen, "de") == screen_text(screen, "fr")  # unknown: French


LONG = "Anticonstitutionnellement, l'éléphant déménage très très loin d'ici"


def lit_pixels(image: Image.Image) -> int:
    return image.convert("L").histogram()[255]


def column_is(image: Image.Image, x: int, rows: range, value: int) -> bool:
    # a lit mode "1" pixel reads 255 from a decoded image (1 where ImageDraw wrote fill=1): both are on
    return all(bool(image.getpixel((x, y))) == bool(value) for y in rows)


def test_text_never_overflows(font_mode):
    # the warning icon stays beside a title too wide (another icon gives way to the words)
    screen = Screen(Text(LONG, LONG), tuple(Text(LONG, LONG) for _ in range(5)), icon="warn")
    im = render(screen)
    for x in (115, 116):  # between the title's room and the icon: bar colour only
        assert column_is(im, x, range(TITLE_H), 1)
    for x in range(126, 128):  # right margin of the body
        assert column_is(im, x, range(TITLE_H + 1, 64), 0)
    assert screen_text(screen)[1] == LONG  # the text twin keeps whole strings
    assert len(screen_text(screen)) == 1 + 5  # five rows fit


def test_lines_stay_left_of_the_big_number(font_mode):
    screen = Screen(Text("T", "T"), (Text("Lisez : 1 2", "Read: 1 2"),) * 2, big="42")
    assert plan(screen).big_beside
    im = render(screen)
    body = im.crop((0, TITLE_H + 1, 128, 64))
    columns = [any(body.getpixel((x, y)) for y in range(body.height)) for x in range(128)]
    big_left = next(x for x in range(64, 128) if columns[x] and not any(columns[x - 3:x]))
    assert big_left >= 64 and any(columns[:60])  # a gap separates text from the big number
    alone = render(Screen(Text("T", "T"), big="42")).crop((0, TITLE_H + 1, 128, 64)).getbbox()
    assert abs((alone[0] + alone[2]) / 2 - 64) <= 2  # centred when alone
    assert "[42]" in screen_text(screen)


@settings(max_examples=40, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("abcdefghij ÉéèàçœW…-'")), max_size=80),
       width=st.integers(20, 128), rows=st.integers(0, 5))
def test_fit_and_wrap_respect_the_width(text, width, rows):
    face = fonts.face(10)
    fitted = fit(face, text, width)
    assert fonts.text_width(face, fitted) <= width
    assert fitted == text or fitted.endswith(face.ellipsis) or fitted == ""
    wrapped = wrap(face, text, width, rows)
    assert len(wrapped) <= rows
    assert all(fonts.text_width(face, row) <= width for row in wrapped)
    if "-" not in text and len(wrap(face, text, width, 99)) <= rows:
        assert unwrap(wrapped) == text.split()  # nothing lost when there is room


def unwrap(rows: tuple[str, ...]) -> list[str]:
    """The words of wrapped rows, hyphenated cuts joined back."""
    joined = "".join(row[:-1] if row.endswith("-") else row + " " for row in rows)
    return joined.split()


def test_menu_scrolls_to_keep_the_cursor_visible():
    items = [f"Jeu {i}" for i in range(10)]
    screen = Screen(Text("Menu", "Menu"), (Text("Choisissez", "Choose"),))
    for cursor in range(10):
        p = plan(screen, "fr", items, cursor)
        assert len(p.menu) == 4 and p.lines == ("Choisissez",)
        assert p.menu[p.selected] == items[cursor]
        assert p.more_above == (items[0] not in p.menu) and p.more_below == (items[-1] not in p.menu)
    assert plan(screen, "fr", items, 99).menu[-1] == "Jeu 9"  # out of range: clamped
    assert plan(screen, "fr", items, -3).menu[0] == "Jeu 0"
    assert screen_text(screen, menu=items, cursor=5) == ["# Menu", "Choisissez", "  Jeu 4 ↑", "> Jeu 5", "  Jeu 6",
                                                         "  Jeu 7 ↓"]


def test_menu_leaves_room_for_lines_but_keeps_two_rows():
    lines = tuple(Text(f"l{i}", f"l{i}") for i in range(4))
    p = plan(Screen(Text("T", "T"), lines), "fr", ["a", "b", "c"], 0)
    assert p.lines == ("l0", "l1", "l2") and p.menu == ("a", "b") and p.pages == 2
    assert plan(Screen(Text("T", "T"), lines), "fr", ["a", "b", "c"], 0, page=1).lines == ("l3",)  # nothing lost
    p = plan(Screen(Text("T", "T"), lines[:1]), "fr", ["a", "b"], 1)
    assert p.lines == ("l0",) and p.menu == ("a", "b") and not (p.more_above or p.more_below)


def test_cursor_row_is_inverted():
    screen = Screen(Text("T", "T"))
    im = render(screen, menu=["un", "deux", "trois"], cursor=1)
    row = im.crop((0, BODY_TOP + PITCH, 100, BODY_TOP + 2 * PITCH))
    lit = lit_pixels(row)
    assert lit > row.width * row.height * 0.7  # mostly white: the highlight
    other = im.crop((0, BODY_TOP, 100, BODY_TOP + PITCH))
    assert lit_pixels(other) < other.width * other.height * 0.3


def test_banner_takes_priority_and_wraps(font_mode):
    screen = Screen(Text("Zèbres", "Zebras"), (Text("ligne", "line"),), big="5", icon="turn")
    banner = tr("Posez le lion vert sur D4", "Put the green lion on D4")
    assert screen_text(screen, "fr", menu=["a"], banner=banner) == ["# Zèbres [warn]", "! Posez le lion vert sur D4"]
    im = render(screen, menu=["a"], banner=banner)
    assert column_is(im, 0, range(TITLE_H, 64), 1) and column_is(im, 127, range(TITLE_H, 64), 1)  # its frame
    assert im.tobytes() != render(screen, menu=["a"]).tobytes()
    long = Text(LONG * 3, LONG * 3)
    p = plan(screen, "fr", (), 0, long)
    rows = p.banner_rows
    assert len(rows) == 5 and rows[-1].endswith(body_face().ellipsis)
    assert [e.kind for e in p.elisions] == ["banner"]
    assert render(screen, banner=long).size == (128, 64)


def test_countdown_bar():
    def bar_pixels(value):
        im = render(Screen(Text("T", "T"), bar=value))
        strip = im.crop((2, 64 - BAR_H + 2, 126, 62))
        return lit_pixels(strip) // strip.height

    assert bar_pixels(0.0) == 0 and bar_pixels(1.0) == 124 and bar_pixels(0.5) == 62
    assert bar_pixels(7) == 124 and bar_pixels(float("nan")) == 0
    assert screen_text(Screen(Text("T", "T"), bar=0.3))[-1] == "[###-------]"
    assert plan(Screen(Text("T", "T"), bar="x"), "fr").bar is None  # type: ignore[arg-type]
    with_bar = plan(Screen(Text("T", "T"), tuple(Text("l", "l") for _ in range(5)), bar=0.5), "fr")
    assert with_bar.rows == 4 and with_bar.pitch == PITCH and with_bar.pages == 2


def test_icons_are_drawn_and_unknown_ones_ignored():
    def title(icon):
        return render(Screen(Text("T", "T"), icon=icon)).crop((100, 0, 128, TITLE_H)).tobytes()

    drawn = {icon: title(icon) for icon in ICONS}
    assert len(set(drawn.values())) == len(ICONS)
    assert title(None) not in drawn.values()
    assert title("kangaroo") == title(None)


def test_bad_input_never_crashes():
    odd = Screen(Text("a\nb\x00c", "x"), ["not", "a tuple", None], big=7, bar=None, icon=3)  # type: ignore[arg-type]
    assert render(odd).size == (128, 64)
    assert screen_text(odd)[:2] == ["# a b c", "not"]
    assert render(Screen(Text("", "")), menu=[], cursor="x").size == (128, 64)  # type: ignore[arg-type]
    with pytest.raises(RenderError, match="10x10"):
        render(Screen(Text("", "")), size=(10, 10))


def test_portrait_screens():
    screen = Screen(Text("Titre", "Title"), tuple(Text(LONG, LONG) for _ in range(12)), big="9", bar=0.5)
    im = render(screen, size=(64, 128))
    assert im.size == (64, 128) and im.mode == "1"
    assert plan(screen, "fr", size=(64, 128)).rows == 11


def test_render_returns_a_private_copy():
    screen = Screen(Text("T", "T"), (Text("x", "x"),))
    first = render(screen)
    first.paste(1, (0, 0, 128, 64))
    assert render(screen).tobytes() != first.tobytes()


@dataclass(frozen=True)
class FrameLike:
    screen: Screen
    menu: tuple[Text, ...] = ()
    cursor: int = 0
    banner: Text | None = None


def test_frames_render_like_their_parts():
    screen = Screen(Text("T", "T"), (Text("l", "l"),))
    frame = FrameLike(screen, (tr("oui", "yes"), tr("non", "no")), 1)
    assert render_frame(frame, "en").tobytes() == render(screen, "en", menu=frame.menu, cursor=1).tobytes()
    assert frame_text(frame, "en") == ["# T", "l", "  yes", "> no"]


words = st.text(alphabet=st.sampled_from(list("aZé É\u00e7œ…9-\n\x00\uffff")), max_size=40)


@settings(max_examples=30, deadline=None)
@given(title=words, lines=st.lists(words, max_size=6), menu=st.lists(words, max_size=8),
       cursor=st.integers(-3, 12), banner=st.none() | words, big=st.none() | words,
       bar=st.none() | st.floats(allow_nan=True), icon=st.sampled_from([None, *ICONS, "x"]),
       size=st.sampled_from([(128, 64), (64, 128)]))
def test_any_screen_renders(title, lines, menu, cursor, banner, big, bar, icon, size):
    screen = Screen(Text(title, title), tuple(Text(t, t) for t in lines), big=big, bar=bar, icon=icon)
    im = render(screen, menu=menu, cursor=cursor, banner=banner, size=size)
    assert im.size == size and im.mode == "1"
    text = screen_text(screen, menu=menu, cursor=cursor, banner=banner, size=size)
    assert text[0].startswith("# ") and all(isinstance(row, str) and "\n" not in row for row in text)
