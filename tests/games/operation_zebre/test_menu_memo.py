"""A seat's menu remembered while documents are prepared is the menu worked out afresh."""

from __future__ import annotations

import random

import pytest

from games.core import CHANCE, GameConfig
from games.operation_zebre import table
from games.playout import sample_chance
from games.registry import get_game


def _configs() -> list[GameConfig]:
    game = get_game("operation-zebre")
    opts = {o.key: o.choices for o in game.options}
    return [
        GameConfig(5, {"mode": "coop"}, 1),
        GameConfig(4, {"mode": "coop", "protocol": opts["protocol"][1], "missions": opts["missions"][1]}, 2),
        GameConfig(6, {"mode": opts["mode"][1]}, 3),
        GameConfig(8, {"mode": opts["mode"][1]}, 4),
    ]


@pytest.mark.parametrize("config", _configs(), ids=lambda c: f"{c.players}-{'-'.join(map(str, c.options.values()))}")
def test_every_menu_is_the_menu_worked_out_afresh(config):
    game = get_game("operation-zebre")
    config = game.validate_config(config)
    rng = random.Random(config.seed)
    for _ in range(3):  # several games in a row: menus of another game are never handed out
        state = game.initial_state(config)
        previous = state
        for _ in range(120):
            for seat in rng.sample(range(config.players), config.players):
                fresh = table._choices(game.data, state, seat)
                assert game.choices(state, seat) == fresh
                assert game.choices(state, seat) == fresh  # the memo's answer
                game.choices(previous, seat)  # the memo holds another state
                assert game.choices(state, seat) == fresh
            acting = sorted(game.to_act(state), key=str)
            if not acting:
                break
            seat = rng.choice(acting)
            if seat == CHANCE:
                act = sample_chance(game, state, rng)
            else:
                legal = game.legal_actions(state, seat)
                buttons = [c.action for c in game.choices(state, seat)]
                act = rng.choice(buttons if buttons and rng.random() < 0.7 else legal)
            previous, state = state, game.apply(state, seat, act).state
