"""Equality of the texts, screens, frames and layouts compared at every refresh (games/frozen.py:
`cached_hash`'s, `dict_eq`'s): the dataclass's own (the same class, equal fields in order), whether
either side's hash is already known or not, and the hash equal wherever the objects are."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from firmware_host.screens.frames import Frame
from firmware_host.screens.layout import plan
from games.shown import Line, Screen, Text

words = st.sampled_from(["", "a", "b", "Zèbre"])
texts = st.builds(Text, words, words) | st.builds(Line, words, words, st.booleans())
screens = st.builds(Screen, texts, st.lists(texts, max_size=2).map(tuple), st.none() | words,
                    st.none() | st.sampled_from([0.0, 0.5]), st.none() | st.sampled_from(["turn", "warn"]))
frames = st.builds(Frame, screens, st.lists(texts, max_size=2).map(tuple), st.integers(0, 1),
                   st.none() | texts, page=st.integers(0, 1), status=st.none() | texts)


def reference(a: Any, b: Any) -> bool:
    """The dataclass's equality: the same class, then the fields' tuples."""
    if a.__class__ is not b.__class__:
        return False
    return all(reference(x, y) if dataclasses.is_dataclass(x) else _same(x, y)
               for x, y in zip(_fields(a), _fields(b), strict=True))


def _fields(value: Any) -> tuple[Any, ...]:
    return tuple(getattr(value, f.name) for f in dataclasses.fields(value) if f.compare)


def _same(x: Any, y: Any) -> bool:
    if isinstance(x, tuple) and isinstance(y, tuple):
        return len(x) == len(y) and all(reference(a, b) if dataclasses.is_dataclass(a) else _same(a, b)
                                        for a, b in zip(x, y))
    return bool(x == y)


@given(st.one_of(texts, screens, frames), st.one_of(texts, screens, frames), st.booleans(), st.booleans())
def test_equality_is_the_dataclasss_whatever_hash_is_known(a, b, hash_a, hash_b):
    if hash_a:
        hash(a)
    if hash_b:
        hash(b)
    expected = reference(a, b)
    assert (a == b) is expected and (b == a) is expected and (a != b) is not expected
    if expected:
        assert hash(a) == hash(b)


@given(frames, frames)
def test_layouts_are_equal_when_their_fields_are(a, b):
    pa, pb = (plan(f.screen, "fr", f.menu, f.cursor, f.banner, (128, 64), f.page, 0, f.status) for f in (a, b))
    assert (pa == pb) is (_fields(pa) == _fields(pb)) and (pa != pb) is (_fields(pa) != _fields(pb))
