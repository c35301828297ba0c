"""The layouts and pictures kept (keyed by a layout's arguments, the screen's and the menu's texts
kept apart by their own hashes) are those worked out afresh: for screens that differ from one laid
out before in a single argument, whichever it is, and for sizes checked before."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.screens import layout, messages
from firmware_host.screens.frames import Frame
from firmware_host.screens.layout import _plan, plan
from firmware_host.screens.render import _draw, frame_layout, frame_picture
from games.core import Line, Screen, Text, essential

words = st.sampled_from(["", "Tour", "à vous", "Posez une pièce sur C3", "Mata Hari · tour 3", "x" * 30,
                         "Choisissez votre objectif secret", "★", "☠ 2", "oui", "non"])
texts = st.builds(Text, words, words)
lines = st.one_of(texts, texts.map(essential), st.builds(Line, words, words, st.booleans()))
screens = st.builds(Screen, texts, st.lists(lines, max_size=7).map(tuple),
                    st.sampled_from([None, "", "3", "12", "100"]), st.sampled_from([None, 0.0, 0.4, 1.0]),
                    st.sampled_from([None, "turn", "wait", "warn", "trophy", "nope"]))
FIELDS = {
    "screen": screens,
    "lang": st.sampled_from(["fr", "en"]),
    "menu": st.lists(texts, max_size=6).map(tuple),
    "cursor": st.integers(-1, 6),
    "banner": st.one_of(st.none(), texts),
    "size": st.sampled_from([(128, 64), (64, 128), (96, 48)]),
    "page": st.integers(0, 3),
    "status": st.one_of(st.none(), texts),
}
arguments = st.fixed_dictionaries(FIELDS)


def _fresh(args: dict[str, Any], scroll: int = 0) -> layout.Plan:
    return _plan(args["screen"], args["lang"], args["menu"], args["cursor"], args["banner"], args["size"],
                 args["page"], scroll, args["status"])


def _kept(args: dict[str, Any], scroll: int = 0) -> layout.Plan:
    return plan(args["screen"], args["lang"], args["menu"], args["cursor"], args["banner"], args["size"],
                args["page"], scroll, args["status"])


@settings(max_examples=300, deadline=None)
@given(arguments, st.sampled_from(sorted(FIELDS)), st.data(), st.integers(0, 12))
def test_a_kept_layout_is_the_one_worked_out_afresh(first: dict[str, Any], field: str, data: st.DataObject,
                                                    scroll: int) -> None:
    second = {**first, field: data.draw(FIELDS[field])}
    for args in (first, second, first):  # laid out in turn: each finds the other's kept layout, if any
        assert _kept(args) == _fresh(args)
        assert _kept(args, scroll) == _fresh(args, scroll)


@settings(max_examples=150, deadline=None)
@given(arguments, st.sampled_from(sorted(FIELDS)), st.data())
def test_a_kept_picture_is_the_one_drawn_afresh(first: dict[str, Any], field: str, data: st.DataObject) -> None:
    second = {**first, field: data.draw(FIELDS[field])}
    for args in (first, second, first):
        frame = Frame(args["screen"], args["menu"], args["cursor"], args["banner"], page=args["page"],
                      status=args["status"])
        _, k = frame_layout(frame, args["lang"], args["size"])
        image, rows = frame_picture(frame, args["lang"], args["size"], k)
        assert rows == _draw(_fresh(args), args["size"]) == image.tobytes()


def test_the_same_texts_in_new_objects_find_the_kept_layout() -> None:
    layout.clear_caches()
    a = Screen(Text("Tour 3", "Round 3"), (essential(Text("Posez une pièce", "Place a piece")),))
    b = Screen(Text("Tour 3", "Round 3"), (essential(Text("Posez une pièce", "Place a piece")),))
    assert a is not b
    assert plan(a) is plan(b)  # one layout: the second screen is not laid out again
    plain = Screen(Text("Tour 3", "Round 3"), (Text("Posez une pièce", "Place a piece"),))
    assert plan(plain) is not plan(a)  # an essential line is not a plain one


def _checked_afresh(size: Any) -> tuple[int, int] | str:
    try:
        width, height = (int(v) for v in size)
    except (TypeError, ValueError):
        return "not a size"
    return (width, height) if 48 <= width <= 1024 and 32 <= height <= 1024 else "no layout"


def _checked(size: Any) -> tuple[int, int] | str:
    try:
        got = layout.check_size(size)
    except layout.RenderError as exc:
        return "not a size" if "must be" in str(exc) else "no layout"
    assert all(v.__class__ is int for v in got)
    return got


dimension = st.one_of(st.integers(0, 1100), st.floats(0, 1100, allow_nan=False), st.booleans(),
                      st.sampled_from([128, 64, 128.0, 64.0, "128"]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.tuples(dimension, dimension), st.lists(dimension, min_size=2, max_size=2),
                          st.tuples(dimension), st.just((128, [64]))), min_size=1, max_size=6))
def test_a_size_checked_before_is_checked_as_afresh(sizes: list[Any]) -> None:
    for size in sizes + sizes:  # each seen twice: the second time from the sizes kept
        assert _checked(size) == _checked_afresh(size)


@settings(max_examples=120, deadline=None)
@given(arguments, texts, st.sampled_from(sorted(FIELDS)), st.data())
def test_kept_message_parts_are_those_worked_out_afresh(first: dict[str, Any], status: Text, field: str,
                                                        data: st.DataObject) -> None:
    """A message's parts share the layout's kept texts of the screen, and are kept by how many
    entries its menu has (none, one, more): whichever is asked first, in either language, each is
    what a fresh working out over the whole menu gives."""
    second = {**first, field: data.draw(FIELDS[field])}
    for args in (first, second, first):
        for lang in ("fr", "en"):
            fresh = messages._status_windows(args["screen"], lang, args["menu"], args["size"], status)
            assert layout.status_windows(args["screen"], lang, args["menu"], args["size"], status) == fresh
            assert _kept({**args, "lang": lang}) == _fresh({**args, "lang": lang})


def test_one_banner_over_different_screens_is_drawn_once() -> None:
    """A move announced to every seat covers screens that differ underneath: one picture for all,
    the very same bytes; the picture under another title is drawn apart."""
    news = Text("J2 a identifié J3.", "P2 identified P3.")
    hands = [Screen(Text("Tour de J3", "P3's turn"), (Text(f"Main : {i}", f"Hand: {i}"),)) for i in range(5)]
    pictures = []
    for screen in hands:
        frame = Frame(screen, (Text("Annuler", "Undo"),) if len(pictures) % 2 else (), 0, news)
        _, k = frame_layout(frame, "en", (128, 64))
        pictures.append(frame_picture(frame, "en", (128, 64), k)[1])
    assert all(rows is pictures[0] for rows in pictures)
    other = Frame(Screen(Text("Tour de J4", "P4's turn"), hands[0].lines), (), 0, news)
    _, k = frame_layout(other, "en", (128, 64))
    assert frame_picture(other, "en", (128, 64), k)[1] != pictures[0]
