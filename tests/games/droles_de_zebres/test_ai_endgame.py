"""Drôles de Zèbres' proof of a won end (ai_endgame) against plain minimax, and the strong player using it."""

from __future__ import annotations

import random

import pytest

from games.ai import Budget
from games.droles_de_zebres import GAME, ai, ai_endgame, ai_model
from games.droles_de_zebres.ai_model import P_OVER, Model
from tests.kits.ddz_positions import endings


def _minimax(model: Model, seen: dict[tuple[object, ...], int] | None = None) -> int:
    """Every continuation read, no cut: seat 0's margin with best play (a position met again is not read twice)."""
    if model.phase == P_OVER:
        a, b = model.totals()
        return a - b
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


ENDINGS = endings(5, range(40))
LONGER = endings(6, range(40, 52))  # enough moves for the table's bounds to be used


def test_prover_agrees_with_minimax_on_smallendings() -> None:
    """A win is proven exactly where plain minimax finds one, for the seat to act and the other."""
    assert len(ENDINGS) == 40 and len(LONGER) == 12
    won = lost = 0
    for _, model in ENDINGS + LONGER:
        seen: dict[tuple[object, ...], int] = {}
        margin = _minimax(model, seen)
        for seat, sign in ((0, 1), (1, -1)):
            assert ai_endgame.Prover(seat, 100_000).wins(model) == (sign * margin > 0)
        seat = model.turn
        sign = 1 if seat == 0 else -1
        values = {}
        for act in model.actions():
            child = model.copy()
            child.play(seat, act)
            values[act] = sign * _minimax(child, seen)
        win = ai_endgame.winning_move(model, 100_000)
        if win is None:
            assert max(values.values()) <= 0
            lost += 1
        else:
            assert values[win] > 0
            won += 1
    assert won >= 10 and lost >= 10


def test_node_limit_gives_up_instead_of_guessing() -> None:
    _, model = max(ENDINGS, key=lambda pair: len(pair[1].actions()))
    assert ai_endgame.winning_move(model, 2) is None
    with pytest.raises(ai_endgame.NodeLimit):
        ai_endgame.Prover(model.turn, 2).wins(model)


def test_strong_player_plays_a_proven_win_and_searches_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the last placements the strong level plays the proven win when there is one; short of
    one it plays what its search without the proof plays."""
    wins = others = 0
    for state, model in ENDINGS[:24]:
        seat = model.turn
        win = ai_endgame.winning_move(model, 100_000)
        view = GAME.view(state, seat)
        act = ai.choose(view, seat, "strong", random.Random(5), Budget(200))
        assert GAME.check(state, seat, act) is None
        if win is not None:
            assert act == ai_model.to_action(state, seat, win)
            wins += 1
        else:
            with monkeypatch.context() as patch:
                patch.setattr(ai, "ENDGAME_ANIMALS", 0)
                assert act == ai.choose(view, seat, "strong", random.Random(5), Budget(200))
            others += 1
    assert wins >= 5 and others >= 5
