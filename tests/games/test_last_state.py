"""The one-entry memo of the rules: answers for the last arguments only, compared by identity."""

from __future__ import annotations

import copy
import random
import sys

import pytest

from games.core import CHANCE, GameConfig, last_state
from games.playout import sample_chance
from games.registry import get_game
from tests.kits.every_game import ids, sampled_players


def test_same_objects_answer_from_memory_others_are_computed():
    calls: list[tuple[object, ...]] = []

    @last_state
    def f(a: object, b: object) -> tuple[object, object]:
        calls.append((a, b))
        return (a, b)

    x, y = [1], [1]  # equal, not the same object
    assert f(x, 0) == ([1], 0) and f(x, 0) == ([1], 0)
    assert len(calls) == 1
    f(y, 0)  # an equal state that is another object: computed again
    f(x, 1)
    f(x, 0)  # only the last call is remembered
    assert len(calls) == 4


@pytest.mark.parametrize("gid", ids())
def test_every_seats_view_is_the_view_computed_afresh(gid):
    """Along a random game, each seat's view (the shared part remembered per state) equals the view
    of a copy of the state (another object: nothing remembered), asked in between other states."""
    game = get_game(gid)
    low, high = sampled_players(gid)
    players = min(max(low, 4), high)
    state = game.initial_state(game.validate_config(GameConfig(players, {}, 3)))
    rng = random.Random(1)
    previous = state
    seen = []
    for _ in range(60):
        seen.append(game.view(state, 0))
        twin = copy.deepcopy(state)
        for seat in (None, *range(players)):
            mine = game.view(state, seat)
            game.view(previous, seat)  # the memo now holds another state
            assert game.view(twin, seat) == mine
            assert game.view(state, seat) == mine
            # the screen and the menu, with what the game's modules remember from earlier states
            # (texts, a hand's score and values), are the ones worked out with nothing remembered
            shown = game.screen(mine, seat)
            menu = game.choices(state, seat) if seat is not None else None
            _forget(gid)
            fresh = game.view(twin, seat)
            assert fresh == mine and game.screen(fresh, seat) == shown
            if seat is not None:
                assert game.choices(twin, seat) == menu
        acting = sorted(game.to_act(state), key=str)
        if not acting:
            break
        seat = rng.choice(acting)
        if seat == CHANCE:
            act = sample_chance(game, state, rng)
        else:
            legal = game.legal_actions(state, seat)
            if not legal:
                break
            act = rng.choice(legal)
        previous, state = state, game.apply(state, seat, act).state
    # the views did follow the game (a short game: most of its moves)
    assert sum(a != b for a, b in zip(seen, seen[1:])) >= min(10, (len(seen) - 1) // 2)


def _forget(gid: str) -> None:
    """Empty every bounded cache of a game's modules (its data, cached for good, stays)."""
    prefix = f"games.{gid.replace('-', '_')}."
    for name, module in list(sys.modules.items()):
        if not name.startswith(prefix):
            continue
        for value in vars(module).values():
            info = getattr(value, "cache_info", None)
            if info is not None and hasattr(value, "cache_clear") and info().maxsize is not None:
                value.cache_clear()
