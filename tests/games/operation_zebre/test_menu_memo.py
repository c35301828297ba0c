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


def test_a_card_whose_side_is_not_chosen_leaves_nothing_else_to_check():
    """While a reader's card waits for its side, the candidates stop after the sides: every
    action they leave out (censoring, confirming, a sum, a mission) is refused."""
    from games.operation_zebre.rules_prepare import prepare_candidates
    from games.operation_zebre.state import MAX_SUM_ENTRY, PREPARE, STAGE_CARD, reading_of

    game = get_game("operation-zebre")
    checked = 0
    for config in _configs():
        config = game.validate_config(config)
        rng = random.Random(config.seed)
        state = game.initial_state(config)
        for _ in range(150):
            for seat in range(config.players):
                reading = reading_of(state, seat)
                if state.phase != PREPARE or reading is None or reading.stage != STAGE_CARD:
                    continue
                left_out = [{"type": "censor", "line": i} for i in range(len(reading.hidden))]
                left_out += [{"type": "confirm"}] + [{"type": "enter_sum", "value": v} for v in range(MAX_SUM_ENTRY + 1)]
                left_out += [{"type": "mission", "mission": m} for m in (*range(len(state.missions_done)), None)]
                assert not [a for a in left_out if a in list(prepare_candidates(game.data, state, seat))]
                assert all(game.check(state, seat, a) is not None for a in left_out)
                checked += 1
            acting = sorted(game.to_act(state), key=str)
            if not acting:
                break
            seat = rng.choice(acting)
            act = sample_chance(game, state, rng) if seat == CHANCE else rng.choice(game.legal_actions(state, seat))
            state = game.apply(state, seat, act).state
    assert checked > 20
