"""Drôles de Zèbres: majorities, face-down tokens, the inauguration bonus, tie cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.droles_de_zebres import GAME
from games.droles_de_zebres import pieces_board as board_mod
from games.droles_de_zebres.pieces_board import get_board
from games.droles_de_zebres.scoring import final_outcome, territory_scores, totals, winners_of
from games.droles_de_zebres.state import OVER
from games.droles_de_zebres.state_diagram import from_diagram

# Territory c (C1 D1 E1 F1 D2 D3 E3, 7 squares): white 4 tokens, green 3.
SCORING_EXAMPLE = (
    ". . wZ wE wz gL",  # the white zebra in E1 hid beside the green lion: 0 points, still counted
    ". . . wC . .",
    ". . . gZ gG .",
    ". . . . . .",
    ". . . . . .",
)


def _territory(state, name: str):
    return next(t for t in territory_scores(state) if t.name == name)


def test_rulebook_scoring_example_majority_scores_both_colours():
    """White has 4 tokens against 3: it scores 11 (white) + 9 (green) = 20 points there."""
    state = from_diagram(SCORING_EXAMPLE)
    c = _territory(state, "c")
    assert c.tokens == (4, 3) and c.leader == 0 and c.full
    assert c.points == 6 + 5 + 0 + 0 + (1 + 6 + 2) == 20
    assert totals(state) == (20, 0)


def test_face_down_tokens_count_for_majority_but_score_nothing():
    rows = (". . gZ gZ wz wz", ". . . wz . .", ". . . . . .", ". . . . . .", ". . . . . .")
    c = _territory(from_diagram(rows), "c")
    assert c.tokens == (3, 2) and c.leader == 0 and c.points == 12


def test_inauguration_adds_five_points():
    state = from_diagram(SCORING_EXAMPLE, inauguration=1)
    assert totals(state) == (20, 5)


def test_projected_scores_in_every_view():
    state = from_diagram(SCORING_EXAMPLE)
    for seat in (None, 0, 1):
        view = GAME.view(state, seat)
        assert view.projected == (20, 0)
        assert [t.leader for t in view.territories if t.name == "c"] == [0]


@pytest.fixture
def even_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Another printing with even-sized territories, where majorities can be equal."""
    (tmp_path / "even.toml").write_text(
        'rows = ["a a b b c c", "a a b b c c", "d d d e e e", "d d d e e e", "f f f f f f"]\n', "utf-8")
    monkeypatch.setattr(board_mod, "BOARDS_DIR", tmp_path)
    get_board.cache_clear()
    yield "even"
    get_board.cache_clear()


# a: white 3-1 (20 points), c: green 3-1 (20 points), b, d, e, f: equal tokens.
EVEN_DRAW = (
    "wZ wZ wE gE gZ gZ",
    "wZ gG wC gC gZ wG",
    "wG gG wG wZ gZ wG",
    "gG wG gG gG wL gL",
    "wZ gZ wG gG wC gC",
)


def test_equal_tokens_in_a_territory_score_for_nobody(even_board: str):
    state = from_diagram(EVEN_DRAW, board=even_board, phase=OVER, turn=None, guardian=None)
    by_name = {t.name: t for t in territory_scores(state)}
    assert by_name["a"].leader == 0 and by_name["c"].leader == 1
    for name in "bdef":
        assert by_name[name].leader is None and by_name[name].tokens[0] == by_name[name].tokens[1]
    assert by_name["b"].points == 10  # lost for both players
    assert totals(state) == (20, 20)


def test_equal_totals_are_a_shared_win(even_board: str):
    state = from_diagram(EVEN_DRAW, board=even_board, phase=OVER, turn=None, guardian=None)
    outcome = GAME.outcome(state)
    assert outcome.scores == (20.0, 20.0) and outcome.winners == (0, 1)
    assert [t["leader"] for t in outcome.details["territories"]] == [0, None, 1, None, None, None]
    screen = GAME.screen(GAME.view(state, 0), 0)
    assert screen.title.fr == "Fin · égalité" and screen.title.en == "End · draw"
    assert any("b:=10" in line.fr for line in screen.lines)


def test_winners_of():
    assert winners_of((42, 35)) == (0,)
    assert winners_of((30, 31)) == (1,)
    assert winners_of((33, 33)) == (0, 1)


def test_final_outcome_details():
    state = from_diagram(SCORING_EXAMPLE, inauguration=0)
    outcome = final_outcome(state)
    assert outcome.scores == (25.0, 0.0) and outcome.winners == (0,)
    assert outcome.details["bonus"] == 5 and outcome.details["inauguration"] == 0
    assert outcome.details["colours"] == ["white", "green"]
    c = next(t for t in outcome.details["territories"] if t["name"] == "c")
    assert c == {"name": "c", "squares": ["C1", "D1", "E1", "F1", "D2", "D3", "E3"], "tokens": [4, 3],
                 "points": 20, "leader": 0}
