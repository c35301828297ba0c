"""Screen layout: essential lines never cut, pages with a marker, the big number where it has
room, sideways scrolling of a long highlighted entry, the bitmap font and the elision report."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.screens import fonts, layout
from firmware_host.screens.layout import navigate, plan
from firmware_host.screens.render import render, screen_text
from games.core import Line, Screen, Text, essential, is_essential, to_json, tr

LONG = "Lisez : 1 3 4 5 6 7 8 9 10 11 12 13 14"


def test_the_screen_font_is_the_bundled_bitmap_font_with_accents():
    face = fonts.pixel_face()
    assert face.source.endswith("6x10.pcf.gz") and face.height == 10
    assert layout.width_of("x" * 21) <= 128 - 2 * layout.MARGIN  # 21 characters per row
    glyphs = {ch: render(Screen(Text("", ""), (Text(ch, ch),))).tobytes() for ch in "éèàçôÉeacoE\uffff"}
    for accented, plain in zip("éèàçôÉ", "eeacoE"):
        assert glyphs[accented] != glyphs[plain] and glyphs[accented] != glyphs["\uffff"]
    assert len({glyphs[c] for c in "éèàçôÉ"}) == 6


def test_essential_lines_wrap_and_others_are_cut_and_reported():
    screen = Screen(tr("T", "T"), (essential(Text(LONG, LONG)), Text(LONG, LONG)))
    p = plan(screen)
    assert p.lines[:2] == ("Lisez : 1 3 4 5 6 7 8", "9 10 11 12 13 14")  # wrapped, whole
    assert p.lines[2].endswith("…") and len(p.lines) == 3
    assert [(e.kind, e.essential) for e in p.elisions] == [("line", False)]
    assert screen_text(screen)[3] == LONG  # the text twin gives the cut line back whole


def test_essential_mark_is_data_and_compares_like_text():
    line = essential(tr("a", "b"))
    assert isinstance(line, Line) and isinstance(line, Text) and is_essential(line)
    assert not is_essential(tr("a", "b")) and line.get("en") == "b"
    assert to_json(Screen(tr("T", "T"), (line,)))["lines"] == [{"fr": "a", "en": "b", "essential": True}]


def test_lines_that_do_not_fit_go_on_pages_with_a_marker():
    lines = tuple(Text(f"ligne {i}", f"line {i}") for i in range(12))
    screen = Screen(tr("Titre", "Title"), lines)
    first = plan(screen)
    assert first.pages == 3 and first.marker == "1/3" and first.lines == tuple(f"ligne {i}" for i in range(5))
    seen = [row for k in range(3) for row in plan(screen, page=k).lines]
    assert seen == [f"ligne {i}" for i in range(12)]
    assert plan(screen, page=99).page == 2  # clamped
    assert "(2/3)" in screen_text(screen, page=1)[0]
    assert render(screen, page=0).tobytes() != render(screen, page=1).tobytes()
    # without a menu ◀ ▶ flip the pages round
    assert navigate(first, 0, 1) == (0, 1) and navigate(first, 0, -1) == (0, 2)


def test_with_a_menu_the_arrows_walk_the_entries_then_the_extra_pages():
    lines = tuple(Text(f"l{i}", f"l{i}") for i in range(6))
    menu = ["a", "b", "c"]
    p = plan(Screen(tr("T", "T"), lines), "fr", menu, 0)
    assert p.pages == 2 and p.lines == ("l0", "l1", "l2") and p.menu == ("a", "b")
    positions = [(0, 0)]
    cursor, page = 0, 0
    for _ in range(4):
        cursor, page = navigate(plan(Screen(tr("T", "T"), lines), "fr", menu, cursor, page=page), cursor, 1)
        positions.append((cursor, page))
    assert positions == [(0, 0), (1, 0), (2, 0), (0, 1), (0, 0)]
    extra = plan(Screen(tr("T", "T"), lines), "fr", menu, 0, page=1)
    assert extra.menu == () and extra.selected == -1 and extra.lines == ("l3", "l4", "l5")
    assert navigate(p, 0, -1) == (2, 1)  # ◀ on the first entry: the last page


def test_the_big_number_goes_to_the_title_bar_when_rows_need_the_room():
    roomy = Screen(tr("Manche 1/3", "Round 1/3"), (tr("Lisez : 1 3", "Read: 1 3"),), big="12")
    assert plan(roomy).big_beside
    tight = Screen(tr("Manche 1/3", "Round 1/3"), (essential(tr("Lisez : 1 3 4 5 6 7 8", "Read")),), big="12")
    p = plan(tight)
    assert not p.big_beside and p.lines == ("Lisez : 1 3 4 5 6 7 8",) and not p.elisions
    assert "[12]" in screen_text(tight)
    title = render(tight).crop((60, 0, 128, layout.TITLE_H))
    assert title.convert("L").histogram()[0] > 20  # dark digits on the light title bar


def test_a_long_highlighted_entry_scrolls_sideways_and_others_are_reported():
    entries = ["Premier joueur : Au hasard", "Premier joueur : Clair", "Retour"]
    screen = Screen(tr("ZOP", "ZOP"))
    p = plan(screen, "fr", entries, 0)
    assert p.scrolls and p.scroll_px == 0
    assert [e.text for e in p.elisions] == ["Premier joueur : Clair"]  # not highlighted: cut, reported
    offsets = [plan(screen, "fr", entries, 0, scroll=k).scroll_px for k in range(30)]
    over = layout.width_of(entries[0]) - (p.menu_room - 1)
    assert max(offsets) == over and offsets[0] == 0 and sorted(set(offsets))[1] == layout.MARQUEE_PX
    images = {render(screen, menu=entries, cursor=0, scroll=k).tobytes() for k in range(30)}
    assert len(images) > 3  # it moves
    assert not plan(screen, "fr", entries, 2).scrolls


words = st.text(alphabet=st.sampled_from(list("abc éÉçàW…9: -")), max_size=60)


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(st.tuples(words, st.booleans()), max_size=9), menu=st.lists(words, max_size=6),
       big=st.none() | st.sampled_from(["7", "12", "142"]), bar=st.none() | st.just(0.5),
       size=st.sampled_from([(128, 64), (64, 128)]))
def test_every_essential_word_is_on_some_page_and_elisions_are_reported(lines, menu, big, bar, size):
    screen = Screen(tr("Titre", "Title"), tuple(essential(Text(t, t)) if e else Text(t, t) for t, e in lines),
                    big=big, bar=bar)
    first = plan(screen, "fr", menu, 0, size=size)
    rows = [row for k in range(first.pages) for row in plan(screen, "fr", menu, 0, size=size, page=k).lines]
    assert not [e for e in first.elisions if e.essential]
    def bare(text: str) -> str:  # wrapping moves spaces and hyphenates long words
        return "".join(text.split()).replace("-", "")

    joined = bare("".join(rows))
    for text, ess in lines:
        if ess:
            assert bare(text) in joined, (text, rows)
    cut = {e.text for e in first.elisions if e.kind == "line"}
    for text, ess in lines:
        if not ess and text.strip() and layout.width_of(text) > first.text_room:
            assert text in cut  # every cut line is in the report


@pytest.mark.parametrize("size", [(48, 32), (128, 64), (64, 128)])
def test_a_message_beside_a_menu_on_any_screen_size_is_laid_out(size):
    # the smallest screen with a countdown bar has one body row: the message covers the menu
    screen = Screen(tr("Titre", "Title"), (tr("ligne", "line"),) * 3, bar=0.5)
    p = plan(screen, "fr", (tr("Oui", "Yes"), tr("Non", "No")), 0, None, size, 0, 0, tr("Bien joué", "Well played"))
    assert "Bien joué" in " ".join(p.status_rows) + " " + (p.banner or "")


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("abcXYZ019 .,:'-éèàçÉÀœŒ«»…◀▶’—×•·ß\u00a0") + ["\uffff", "☠", "€"]),
                    max_size=30))
def test_the_bitmap_font_counts_widths_as_it_measures_them(text: str) -> None:
    """Widths in the bitmap font are counted (a cell a character, two for a look-alike such as
    "oe"), not measured: the same as measuring the characters drawn."""
    face = fonts.pixel_face()
    drawn = fonts._plan(face, text)[0] if face.synthetic else text
    measured = max(math.ceil(face.font.getlength(drawn, mode="1")), int(face.font.getbbox(drawn, mode="1")[2])) \
        if text else 0
    assert fonts.text_width(face, text) == measured


def test_a_layout_is_the_plan_its_fields_make():
    """Layouts are built without the frozen __init__ (for speed): the same value, hash and repr."""
    import dataclasses

    screen = Screen(tr("Titre", "Title"), (essential(tr(LONG, LONG)), tr("ligne", "line")), big="7", icon="eye")
    for p in (plan(screen, "fr", [tr("Oui", "Yes"), tr("Non", "No")], 1, status=tr("Message", "Message")),
              plan(screen, "en", banner=tr("Posez la carte", "Lay the card"))):
        made = layout.Plan(*(getattr(p, f.name) for f in dataclasses.fields(p)))
        assert p == made and hash(p) == hash(made) and repr(p) == repr(made) and p.marker == made.marker
