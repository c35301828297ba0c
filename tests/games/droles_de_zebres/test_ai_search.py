"""Drôles de Zèbres' strong search: the move ordering's gains are the score's changes, and the
tree widens with its playouts, best moves first."""

from __future__ import annotations

import math
import random

from games.ai import Budget
from games.core import GameConfig
from games.droles_de_zebres import GAME, ai, ai_model, ai_search
from tests.kits.gamekit import states_along

CONFIG = GameConfig(players=2)


def _placing_states(seeds: range) -> list:
    return [s for seed in seeds for s in states_along(GAME, CONFIG, seed) if s.phase == "place"]


def _margin(model: ai_model.Model, seat: int) -> int:
    a, b = model.totals()
    return a - b if seat == 0 else b - a


def test_placement_gains_are_the_change_of_the_margin():
    """Every placement but the lion's (its neighbours are left out on purpose) and a crocodile's
    that opens swaps (the turn, and the bonus, wait for them): the gain is the margin's change."""
    checked = 0
    for state in _placing_states(range(12)):
        model = ai_model.from_state(state)
        seat = model.turn
        gains = ai_model.placement_gains(model)
        assert sorted(a for _, a in gains) == sorted(model.actions())
        for gain, act in gains:
            if act[1] == ai_model.LION:
                continue
            after = model.copy()
            after.play(seat, act)
            if after.phase == ai_model.P_CROC:
                continue
            assert gain == _margin(after, seat) - _margin(model, seat), (act, gain)
            checked += 1
    assert checked > 1_000


def test_the_first_move_tried_has_the_best_gain():
    for state in _placing_states(range(3))[::5]:
        model = ai_model.from_state(state)
        best = max(g for g, _ in ai_model.placement_gains(model))
        view = GAME.view(state, state.turn)
        first = ai.rank(view, state.turn, "strong", random.Random(1), Budget(1))[0].action
        gain = dict((a, g) for g, a in ai_model.placement_gains(model))[ai_model.from_action(first)]
        assert gain == best


def test_the_tree_widens_with_its_playouts():
    """After n iterations the root has tried at most ceil(WIDEN * sqrt(n)) placements, then all."""
    state = _placing_states(range(1))[2]
    model = ai_model.from_state(state)
    count = len(model.actions())
    assert count > 10
    for n in (4, 9, 16):
        moves = ai_search.uct_widening(model, lambda m: ai._reward(m, 0), Budget(n).start(), random.Random(0), 0.5)
        assert len(moves) <= math.ceil(ai_search.WIDEN * math.sqrt(n)) < n
        assert sum(m.visits for m in moves) == n
    moves = ai_search.uct_widening(model, lambda m: ai._reward(m, 0), Budget(2000).start(), random.Random(0), 0.5)
    assert len(moves) == count
