"""Drôles de Zèbres' exact endgame (ai_endgame) against plain minimax, and the strong player using it."""

from __future__ import annotations

import random

import pytest

from games.ai import Budget
from games.core import GameConfig
from games.droles_de_zebres import GAME, ai, ai_endgame, ai_model
from games.droles_de_zebres.ai_model import P_OVER, P_PLACE, Model
from games.droles_de_zebres.state import OVER
from games.playout import random_playout


def _minimax(model: Model, seen: dict[tuple[object, ...], int] | None = None) -> int:
    """Every continuation read, no cut: the value for seat 0 (a position met again is not read twice)."""
    if model.phase == P_OVER:
        return ai_endgame.outcome_value(model)
    seen = {} if seen is None else seen
    key = ai_model.signature(model)
    if key not in seen:
        values = []
        for act in model.actions():
            child = model.copy()
            child.play(model.turn, act)
            values.append(_minimax(child, seen))
        seen[key] = max(values) if model.turn == 0 else min(values)
    return seen[key]


def _endings(left: int, seeds: range) -> list[tuple[object, Model]]:
    """(state, model) where `left` animals or fewer are left to lay, one per seeded game (random
    and greedy games, every board of the registry's default config)."""
    out = []
    for seed in seeds:
        policy = {"policy": ai.greedy_policy} if seed % 2 else {}
        played = random_playout(GAME, GameConfig(players=2), seed, **policy)
        state = GAME.initial_state(played.config)
        for seat, act in played.moves:
            state = GAME.apply(state, seat, act).state
            model = ai_model.from_state(state)
            if state.phase != OVER and model.phase == P_PLACE and sum(model.left) <= left:
                out.append((state, model))
                break
    return out


ENDINGS = _endings(5, range(40))
LONGER = _endings(6, range(40, 52))  # enough moves for the table's bounds to be used


def test_solver_values_match_minimax_on_small_endings():
    """The cut search and its table give every move the value plain minimax gives it."""
    assert len(ENDINGS) == 40 and len(LONGER) == 12
    for _, model in ENDINGS + LONGER:
        seat = model.turn
        solved = ai_endgame.solve(model, 100_000)
        assert solved is not None
        sign = 1 if seat == 0 else -1
        expected = {}
        seen: dict[tuple[object, ...], int] = {}
        for act in model.actions():
            child = model.copy()
            child.play(seat, act)
            expected[act] = sign * _minimax(child, seen)
        best = max(expected.values())
        assert solved[0][1] == best and expected[solved[0][0]] == best
        # the others: a bound at most the best, at least their true value
        assert all(expected[act] <= value <= best for act, value in solved)
        assert sorted(act for act, _ in solved) == sorted(expected)
        assert ai_endgame.Solver(100_000).value(model) == _minimax(model, seen)


def test_outcome_value_orders_wins_before_margins():
    model = ENDINGS[0][1].copy()
    ai_model.random_playout(model, random.Random(3))
    a, b = model.totals()
    value = ai_endgame.outcome_value(model)
    assert ai_endgame.margin_of(value) == a - b
    assert (value > 0) == (a > b) and (value < 0) == (a < b)
    assert abs(value) >= ai_endgame.WIN or a == b


def test_node_limit_gives_up_instead_of_guessing():
    _, model = max(ENDINGS, key=lambda pair: len(pair[1].actions()))
    assert ai_endgame.solve(model, 2) is None
    with pytest.raises(ai_endgame.NodeLimit):
        ai_endgame.Solver(2).value(model)


def test_strong_player_plays_a_proven_win_and_searches_otherwise(monkeypatch):
    """In the last placements the strong level plays the exactly best move when it wins against
    any reply; short of a proven win it plays what its search without the exact reading plays."""
    wins = others = 0
    for state, model in ENDINGS[:24]:
        seat = model.turn
        solved = ai_endgame.solve(model, 100_000)
        assert solved is not None
        view = GAME.view(state, seat)
        act = ai.choose(view, seat, "strong", random.Random(5), Budget(200))
        assert GAME.check(state, seat, act) is None
        if solved[0][1] > 0:
            assert act == ai_model.to_action(state, seat, solved[0][0])
            wins += 1
        else:
            with monkeypatch.context() as patch:
                patch.setattr(ai, "ENDGAME_ANIMALS", 0)
                assert act == ai.choose(view, seat, "strong", random.Random(5), Budget(200))
            others += 1
    assert wins >= 5 and others >= 5
