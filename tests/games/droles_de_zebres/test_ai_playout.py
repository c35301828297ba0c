"""The strong search's modelled playouts: a greedy placement's gain is the margin it really adds,
and a modelled playout plays legal moves to the end, the same for a seed."""

from __future__ import annotations

import random

from games.droles_de_zebres import ai_model
from games.droles_de_zebres.ai_playout import greedy_placement, modelled_playout, placement_gains
from games.droles_de_zebres.game import GAME
from games.droles_de_zebres.state import OVER
from games.playout import random_playout

from .test_ai import CONFIGS


def _margin(model: ai_model.Model, seat: int) -> int:
    a, b = model.totals()
    return a - b if seat == 0 else b - a


def _placing_models(seeds: range) -> list[ai_model.Model]:
    """Every position where a seat places, along seeded random games of the rules engine."""
    out = []
    for seed in seeds:
        played = random_playout(GAME, CONFIGS[seed % len(CONFIGS)], seed)
        state = GAME.initial_state(played.config)
        for seat, act in played.moves:
            if state.phase != OVER:
                model = ai_model.from_state(state)
                if model.phase == ai_model.P_PLACE:
                    out.append(model)
            state = GAME.transition(state, seat, act).state
    return out


def test_a_placements_gain_is_the_margin_it_adds():
    """Each placement's gain equals the margin after it minus before (the territories, a lion's
    neighbours hidden or sent home, the inauguration), over every placement of 40 games."""
    checked = 0
    for model in _placing_models(range(40)):
        seat = model.turn
        before = _margin(model, seat)
        gains = placement_gains(model)
        assert sorted(a for _, a in gains) == sorted(model.actions())
        for gain, act in gains:
            after = model.copy()
            after.play(seat, act)
            if after.phase == ai_model.P_CROC:  # the placement's margin: no swap after it
                after.play(seat, ("x",))
            assert gain == _margin(after, seat) - before, (act, gain)
            checked += 1
    assert checked > 5_000


def test_a_greedy_placement_is_one_of_the_best():
    for model in _placing_models(range(5)):
        best = max(g for g, _ in placement_gains(model))
        act = greedy_placement(model, random.Random(1))
        assert (best, act) in placement_gains(model)


def test_modelled_playouts_end_and_repeat_for_a_seed():
    """A modelled playout reaches the end through the model's own moves, the same for a seed."""
    for model in _placing_models(range(3))[::7]:
        ends = [ai_model.signature(modelled_playout(model.copy(), random.Random(7), (0.25, 0.5)))
                for _ in range(2)]
        assert ends[0] == ends[1]
        assert ends[0][3] == ai_model.P_OVER
        assert sum(ends[0][1]) + sum(ends[0][2]) == 0  # every animal laid
