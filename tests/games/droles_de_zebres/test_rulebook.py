"""Drôles de Zèbres: where the engine follows the rulebook's own words (issue 13)."""

from __future__ import annotations

from games.core import SQUARES, normalise_layout
from games.droles_de_zebres import GAME
from games.droles_de_zebres.pieces import piece_id
from games.droles_de_zebres.state import CROCODILE, Token
from games.droles_de_zebres.state_diagram import from_diagram

W, G = "white", "green"


def cell(state, square: str) -> Token | None:
    return state.cells[SQUARES.index(square)]


def test_a_face_down_gazelle_flees_a_new_neighbouring_lion():
    """Rulebook (Gazelle): "As soon as a Lion appears on a neighboring square (vertically or
    horizontally), Gazelle flees : Gazelle's token comes back in front of their owner."
    Rulebook (Lion): "Any Gazelles present there comes back to their owners." No face-up condition:
    only the crocodile is blind to hidden gazelles ("There is no interaction between a Crocodile
    and a face down gazelle token")."""
    # The green gazelle in B2 lies face down beside the green lion in A2; White's lion in C2 is a
    # new neighbour: the gazelle flees back to Green, face down or not.
    rows = (". . . . . .", "gL gg . . . .", ". . . . . .", ". . . . . .", ". . . . . .")
    state = from_diagram(rows, guardian=2, turn=0)  # above column C
    gazelle = piece_id(G, "gazelle", 1)
    step = GAME.apply(state, 0, {"type": "place", "piece": piece_id(W, "lion", 1), "square": "C2"})
    assert cell(step.state, "B2") is None
    assert gazelle in step.state.reserves[1]
    [ret] = [e for e in step.effects if e.kind == "return"]
    assert ret.data == {"square": "B2", "piece": gazelle, "seat": 1}
    assert ret.text.en == "The green gazelle 1 on B2 flees: back to Green."
    # on the table the expected layout drops it: guidance asks to lift it from B2
    assert "B2" not in GAME.expected_layout(step.state)
    assert normalise_layout(GAME.expected_layout(step.state))["C2"] == {piece_id(W, "lion", 1)}


def test_a_face_down_zebra_beside_a_new_lion_stays_face_down_without_a_second_flip():
    """Rulebook (Zebra): "As soon as a Lion appears on a neighboring square ... the Zebra hides
    (token is turned face down)": a zebra already face down has nothing left to do."""
    rows = (". . . . . .", "gL gz . . . .", ". . . . . .", ". . . . . .", ". . . . . .")
    state = from_diagram(rows, guardian=2, turn=0)
    step = GAME.apply(state, 0, {"type": "place", "piece": piece_id(W, "lion", 1), "square": "C2"})
    assert cell(step.state, "B2") == Token(piece_id(G, "zebra", 1), False)
    assert not [e for e in step.effects if e.kind in ("flip", "return")]


def test_the_crocodile_still_ignores_a_face_down_gazelle():
    """Rulebook (Crocodile): "There is no interaction between a Crocodile and a face down gazelle
    token (crocodile cannot see an hidden Gazelle)"."""
    # B4 (territory a) is across a river from C4 (b); the gazelle there lies face down.
    rows = (". . . . . .", ". . . . . .", ". . . . . .", ". gg . . . .", ". . . . . .")
    state = from_diagram(rows, guardian=18, turn=0)  # left of row 4
    step = GAME.apply(state, 0, {"type": "place", "piece": piece_id(W, "crocodile", 1), "square": "C4"})
    assert "crocodile" not in [e.kind for e in step.effects] and step.state.phase != CROCODILE
    assert GAME.check(step.state, 0, {"type": "swap", "square": "B4"}) is not None
