"""Frozen dataclasses made with quick_init: the same objects as the dataclass's own `__init__` makes."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import core, shown
from games.core import CHANCE, GameConfig
from games.frozen import quick_init
from games.playout import sample_chance
from games.registry import game_ids, get_game

VIEW_MODULES = ("droles_de_zebres", "mata_hari", "operation_zebre", "spywhere", "zop")


def quick_classes() -> list[type]:
    """Every class decorated with quick_init in the engine and the games' views."""
    modules = [shown, *(importlib.import_module(f"games.{m}.views") for m in VIEW_MODULES)]
    found = [c for m in modules for c in vars(m).values() if isinstance(c, type) and dataclasses.is_dataclass(c)
             and c.__module__ == m.__name__ and c.__init__.__code__.co_varnames[:1] == ("_self_",)]
    return found


def reference(cls: type, *args: object, **kw: object) -> object:
    """What the dataclass's own `__init__` makes (the class made again without quick_init)."""
    twin = dataclasses.dataclass(frozen=True)(type(cls.__name__, cls.__bases__, {
        "__annotations__": cls.__dict__.get("__annotations__", {}),
        **{f.name: f.default for f in dataclasses.fields(cls)
           if f.default is not dataclasses.MISSING and f.name in cls.__dict__.get("__annotations__", {})}}))
    return twin(*args, **kw)


def fields_of(value: object) -> dict[str, object]:
    """The instance's dict without the hash it keeps once asked (cached_hash)."""
    return {k: v for k, v in vars(value).items() if k != "_hash_"}


def test_the_hot_classes_are_made_quickly():
    names = {c.__qualname__ for c in quick_classes()}
    assert {"Text", "Line", "Screen", "Choice", "PrivateView", "SeatView", "DdzView", "OZView", "SpyView",
            "ZopView"} <= names


@pytest.mark.parametrize("cls", quick_classes(), ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_the_signature_and_the_fields_are_the_dataclass_ones(cls):
    fields = dataclasses.fields(cls)
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields):
        assert p.default is (inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
    values = [object() for _ in fields]  # one distinct value per field: none may land in another
    made = cls(*values)
    assert vars(made) == {f.name: v for f, v in zip(fields, values)}
    assert vars(cls(**{f.name: v for f, v in zip(fields, values)})) == vars(made)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, fields[0].name, 1)
    with pytest.raises(TypeError):
        cls(*values, 1)  # one too many


@given(st.text(max_size=8), st.text(max_size=8), st.booleans(), st.none() | st.text(max_size=3),
       st.none() | st.floats(0, 1))
def test_texts_and_screens_equal_hash_and_copy_as_the_dataclass_ones(fr, en, mark, big, bar):
    t, ref = core.Text(fr, en), reference(core.Text, fr, en)
    assert vars(t) == vars(ref) and hash(t) == hash(ref) and hash(t) == hash(t)
    line = core.Line(fr, en, mark)
    assert fields_of(line) == {"fr": fr, "en": en, "essential": mark} and core.essential(t).essential
    screen = core.Screen(t, (line,), big, bar)
    assert fields_of(screen) == vars(reference(core.Screen, t, (line,), big, bar))
    assert screen == core.Screen(core.Text(fr, en), (core.Line(fr, en, mark),), big, bar)
    assert hash(screen) == hash(core.Screen(core.Text(fr, en), (core.Line(fr, en, mark),), big, bar))
    assert dataclasses.replace(screen, icon="turn") == core.Screen(t, (line,), big, bar, "turn")
    assert pickle.loads(pickle.dumps(screen)) == screen


def test_classes_it_cannot_make_faithfully_are_refused():
    @dataclasses.dataclass(frozen=True)
    class Listed:
        items: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True)
    class Checked:
        n: int

        def __post_init__(self) -> None:
            assert self.n >= 0

    @dataclasses.dataclass(frozen=True)
    class Keyword:
        n: int = dataclasses.field(kw_only=True)

    for cls in (Listed, Checked, Keyword):
        with pytest.raises(TypeError):
            quick_init(cls)


@pytest.mark.parametrize("gid", game_ids())
def test_views_and_screens_along_a_random_game_are_the_ones_the_dataclasses_make(gid):
    """Each seat's view and screen hold, in every quick dataclass inside them, what the dataclass's
    own `__init__` stores from the same arguments."""
    game = get_game(gid)
    players = min(game.max_players, 4)
    state = game.initial_state(game.validate_config(GameConfig(players, {}, 5)))
    rng = random.Random(5)
    quick = set(quick_classes())
    checked = 0
    for _ in range(40):
        for seat in (None, *range(players)):
            view = game.view(state, seat)
            checked += _same_as_reference(view, quick) + _same_as_reference(game.screen(view, seat), quick)
        acting = sorted(game.to_act(state), key=str)
        if not acting or game.outcome(state) is not None:
            break
        seat = rng.choice(acting)
        act = sample_chance(game, state, rng) if seat == CHANCE else rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, act).state
    assert checked > 100


def _same_as_reference(value: object, quick: set[type]) -> int:
    """Check `value` and what it holds against the reference dataclasses; how many were checked."""
    if isinstance(value, tuple):
        return sum(_same_as_reference(v, quick) for v in value)
    if type(value) not in quick:
        return 0
    fields = dataclasses.fields(value)
    args = [getattr(value, f.name) for f in fields]
    assert vars(reference(type(value), *args)) == fields_of(value)
    return 1 + sum(_same_as_reference(a, quick) for a in args)


@given(st.text(max_size=8), st.text(max_size=8), st.booleans(), st.none() | st.text(max_size=3))
def test_a_kept_hash_is_the_dataclass_one_and_goes_nowhere_else(fr, en, mark, big):
    """Text, Line and Screen keep their hash once asked: the hash of their fields' tuple, as the
    dataclass's own; a copy, a pickle (another process hashes strings with another seed), a
    replaced or evolved object starts without it."""
    line = core.Line(fr, en, mark)
    screen = core.Screen(core.Text(fr, en), (line, core.Text(en, fr)), big)
    for value in (core.Text(fr, en), line, screen):
        fields = tuple(getattr(value, f.name) for f in dataclasses.fields(value))
        assert hash(value) == hash(fields) == hash(value)
        assert "_hash_" in vars(value)
        for other in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value),
                      dataclasses.replace(value), core.evolve(value)):
            assert "_hash_" not in vars(other)  # it starts without; comparing may work it out
            assert other == value and value == other
            assert hash(other) == hash(value)
    assert hash(line) != hash(core.Line(fr, en, not mark)) or line != core.Line(fr, en, not mark)
