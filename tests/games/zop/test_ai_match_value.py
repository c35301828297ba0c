"""ZOP's strong level values a round for the match: a tied revanche is a belle for both seats."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.core import GameConfig
from games.zop import GAME, ai
from games.zop.ai_model import from_state
from games.zop.state import BELLE, MANCHE, REVANCHE, TRACKED, RoundResult
from games.zop.views import ZopView

CONFIG = GameConfig(players=2, options={"deck": TRACKED})


def _view(seat: int, label: str, manche_winner: int | None) -> ZopView:
    state = GAME.initial_state(GAME.validate_config(CONFIG))
    results = () if label == MANCHE else (RoundResult(MANCHE, (9, 9) if manche_winner is None else (9, 4), manche_winner, (20, 20)),)
    return replace(GAME.view(state, seat), label=label, results=results)


@pytest.mark.parametrize(("seat", "label", "manche_winner", "offset"), [
    (0, MANCHE, None, 0.0),
    (0, REVANCHE, 0, -0.5),  # a tie sends the match to the belle: as bad as losing the revanche
    (1, REVANCHE, 0, 0.5),  # as good as winning it
    (1, REVANCHE, 1, -0.5),
    (0, BELLE, None, 0.0),  # a tied manche: the belle next, a tie there is played again
    (1, BELLE, 0, 0.0),
])
def test_tie_offset_by_round_and_score(seat: int, label: str, manche_winner: int | None, offset: float) -> None:
    assert ai.tie_offset(_view(seat, label, manche_winner), seat) == offset


def test_a_tied_round_is_rewarded_as_the_match_values_it() -> None:
    model = from_state(GAME.deck, GAME.initial_state(GAME.validate_config(CONFIG)), random.Random(0))
    model.sides[0].points = model.sides[1].points = 7
    tie, win, loss = ai._reward(model, 0), ai._reward(model, 0, 0.5), ai._reward(model, 0, -0.5)
    assert loss < 0.3 < tie == 0.5 < 0.7 < win
    model.sides[0].points = 8
    assert ai._reward(model, 0, -0.5) > 0.7  # a win by one stays a win when a tie counts as a loss
