"""The games' rules make their states with `evolve`: for every state (and every dataclass inside it)
met in seeded playouts, evolving a field gives what `dataclasses.replace` gives."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import GameConfig, evolve
from games.playout import random_playout
from games.registry import game_ids, get_game


def _dataclasses(obj: Any, depth: int = 0) -> Iterator[Any]:
    """`obj` and the dataclass instances it holds (in fields, tuples, frozensets), by type once."""
    if depth > 4:
        return
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        yield obj
        for f in dataclasses.fields(obj):
            yield from _dataclasses(getattr(obj, f.name), depth + 1)
    elif isinstance(obj, (tuple, frozenset, list)):
        for item in list(obj)[:8]:
            yield from _dataclasses(item, depth + 1)


def _same(got: Any, want: Any) -> None:
    assert type(got) is type(want)
    assert got == want and repr(got) == repr(want)
    assert vars(got) == vars(want) if hasattr(want, "__dict__") else True
    try:
        expected = hash(want)
    except TypeError:  # a mutable field inside: neither hashes
        with pytest.raises(TypeError):
            hash(got)
        return
    assert hash(got) == expected


@pytest.mark.parametrize("game_id", game_ids())
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 400))
def test_evolving_a_state_is_replacing_it(game_id: str, seed: int, cut: int) -> None:
    game = get_game(game_id)
    config = game.validate_config(GameConfig(game.min_players))
    moves = random_playout(game, config, seed).moves
    state = game.initial_state(config)
    states = [state]
    for seat, act in moves[:cut + 2]:
        state = game.apply(state, seat, act).state
        states.append(state)
    before, after = states[min(cut, len(states) - 2)], states[min(cut, len(states) - 2) + 1]
    others: dict[type, list[Any]] = {}
    for obj in _dataclasses(after):
        others.setdefault(type(obj), []).append(obj)
    checked = 0
    for obj in _dataclasses(before):
        for f in dataclasses.fields(obj):
            if not f.init:
                continue
            for other in (obj, *others.get(type(obj), [])[:2]):
                value = getattr(other, f.name)
                _same(evolve(obj, **{f.name: value}), dataclasses.replace(obj, **{f.name: value}))
                checked += 1
    assert checked >= len(dataclasses.fields(before))
