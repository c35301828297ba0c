"""Drôles de Zèbres on the table: pieces, labels, layouts, gestures, button menus, screens."""

from __future__ import annotations

import re

from games.core import Game, GameConfig, normalise_layout
from games.droles_de_zebres import GAME
from games.droles_de_zebres.pieces import piece_id as _piece_id
from games.droles_de_zebres.state import CROCODILE, MOVE
from games.droles_de_zebres.state_diagram import from_diagram

W, G = "white", "green"
EMPTY = (". . . . . .",) * 5


def piece_id(colour: str, kind: str, n: int = 1) -> str:
    return _piece_id(colour, kind, n)


def matches(state, sensed: dict[str, frozenset[str]]) -> list[tuple[int, dict]]:
    """What the runtime's reconciliation would find: legal actions whose gesture is the board."""
    target = normalise_layout(sensed)
    return [(seat, act) for seat in GAME.to_act(state) for act in GAME.legal_actions(state, seat)
            if normalise_layout(GAME.footprint(state, seat, act)) == target]


def with_piece(layout, square: str, piece: str) -> dict[str, frozenset[str]]:
    out = dict(layout)
    out[square] = frozenset({piece})
    return out


def test_pieces_are_the_30_tagged_animals():
    pieces = GAME.pieces()
    assert len(pieces) == len(set(pieces)) == 30
    assert all(re.fullmatch(r"droles-de-zebres/(white|green)/(zebra|gazelle|crocodile|elephant|lion)/[1-6]", p)
               for p in pieces)
    assert "droles-de-zebres/white/zebra/3" in pieces and "droles-de-zebres/green/gazelle/6" in pieces
    assert "droles-de-zebres/white/zebra/6" not in pieces and "droles-de-zebres/white/lion/2" not in pieces


def test_piece_labels_in_both_languages():
    label = GAME.piece_label
    assert label(piece_id(W, "zebra", 3)).fr == "le zèbre blanc 3"
    assert label(piece_id(G, "gazelle", 2)).fr == "la gazelle verte 2"
    assert label(piece_id(W, "gazelle", 1)).en == "the white gazelle 1"
    assert label(piece_id(W, "elephant", 1)).fr == "l'éléphant blanc"
    assert label(piece_id(G, "lion", 1)).fr == "le lion vert" and label(piece_id(G, "lion", 1)).en == "the green lion"
    assert label(piece_id(G, "crocodile", 2)).en == "the green crocodile 2"
    assert label("zop/card/7").fr == "zop/card/7"


def test_expected_layout_lists_the_animals_on_their_squares():
    state = from_diagram(("wZ . . . . gL", *EMPTY[1:]))
    assert GAME.expected_layout(state) == {"A1": frozenset({piece_id(W, "zebra", 1)}),
                                           "F1": frozenset({piece_id(G, "lion", 1)})}


def test_a_sensed_placement_is_exactly_one_action_and_a_wrong_square_none():
    state = from_diagram(("wZ . . . . .", *EMPTY[1:]), guardian=0, turn=1)
    layout = GAME.expected_layout(state)
    lion = piece_id(G, "lion")
    assert matches(state, with_piece(layout, "A3", lion)) == [(1, {"type": "place", "piece": lion, "square": "A3"})]
    assert matches(state, with_piece(layout, "B3", lion)) == []  # off the line: guidance, not an action
    assert matches(state, with_piece(layout, "A3", piece_id(W, "zebra", 2))) == []  # not green's piece


def test_lion_gesture_keeps_the_fleeing_gazelles_then_guidance_removes_them():
    rows = (". . wZ . . .", ". . gE . . .", ". wG . gZ . .", ". . gG . . .", ". . gC . . .")
    state = from_diagram(rows, guardian=2, turn=0)
    lion = piece_id(W, "lion")
    sensed = with_piece(GAME.expected_layout(state), "C3", lion)
    [(seat, act)] = matches(state, sensed)
    after = GAME.apply(state, seat, act).state
    expected = GAME.expected_layout(after)
    assert "B3" not in expected and "C4" not in expected and expected["C3"] == {lion}
    # while the gazelles still lie there, no action matches: the runtime guides their removal
    assert after.phase == MOVE and matches(after, sensed) == []
    assert normalise_layout(GAME.footprint(after, 0, {"type": "move", "steps": 1})) == normalise_layout(expected)


def test_crocodile_swap_done_by_hand_or_chosen_on_the_buttons():
    rows = (*EMPTY[:3], "gG gG . . . .", EMPTY[4])
    state = from_diagram(rows, guardian=18, turn=0)
    croc = piece_id(W, "crocodile")
    state = GAME.apply(state, 0, {"type": "place", "piece": croc, "square": "C4"}).state
    assert state.phase == CROCODILE
    # by hand: the crocodile and the gazelle exchange squares
    sensed = dict(GAME.expected_layout(state))
    sensed["B4"], sensed["C4"] = frozenset({croc}), frozenset({piece_id(G, "gazelle", 2)})
    assert matches(state, sensed) == [(0, {"type": "swap", "square": "B4"})]
    # on the buttons: every swap and the refusal are in the menu
    menu = GAME.choices(state, 0)
    assert [c.action for c in menu] == [{"type": "swap", "square": "B4"}, {"type": "stop"}]
    assert [c.label.fr for c in menu] == ["Échanger avec B4", "Pas d'échange"]
    assert [c.label.en for c in menu] == ["Swap with B4", "No swap"]
    assert GAME.choices(state, 1) == []
    # the default menu of the contract would have dropped the swap (it moves pieces)
    assert [c.action for c in Game.choices(GAME, state, 0)] == [{"type": "stop"}]


def test_guardian_menus():
    state = GAME.initial_state(GameConfig(players=2))
    menu = GAME.choices(state, 0)
    assert len(menu) == 22 and menu[0].label.fr == "Haut col. A" and menu[21].label.en == "Left row 1"
    assert menu[7].action == {"type": "guardian", "position": 7}
    s = GAME.apply(state, 1, menu[2].action).state  # seat 1 places the guardian on column C
    assert GAME.choices(s, 0) == []  # placing is done with the pieces
    s = GAME.apply(s, 0, {"type": "place", "piece": piece_id(W, "zebra"), "square": "C2"}).state
    menu = GAME.choices(s, 0)
    assert [c.label.fr for c in menu] == ["+1 : col. D", "+2 : col. E", "+3 : col. F"]
    assert [c.label.en for c in menu] == ["+1: col D", "+2: col E", "+3: col F"]


def test_effects_name_the_pieces_and_squares_for_the_instructions():
    rows = (". . wZ . . .", ". . gE . . .", ". wG . gZ . .", ". . gG . . .", ". . gC . . .")
    step = GAME.apply(from_diagram(rows, guardian=2, turn=0), 0,
                      {"type": "place", "piece": piece_id(W, "lion"), "square": "C3"})
    texts = {e.kind + ":" + e.data.get("square", ""): e.text for e in step.effects}
    assert texts["return:B3"].fr == "La gazelle blanche 1 en B3 fuit : rendez-la à Blanc."
    assert texts["return:C4"].en == "The green gazelle 1 on C4 flees: back to Green."
    assert texts["flip:D3"].en == "Turn the green zebra 1 on D3 face down."
    assert all(e.audience is None for e in step.effects if e.kind in ("flip", "return"))


def test_screens_of_a_turn():
    state = from_diagram(("wZ . . . . .", *EMPTY[1:]), guardian=0, turn=1)
    mine = GAME.screen(GAME.view(state, 1), 1)
    assert mine.title.fr == "Vert · à vous" and mine.icon == "turn"
    assert [line.fr for line in mine.lines] == ["Col. A : 2 3 4 5", "Rés. Z5 G6 C2 É1 L1",
                                                "Maj vous:- adv:a", "Prévu 0-6"]
    theirs = GAME.screen(GAME.view(state, 0), 0)
    assert theirs.title.en == "White · wait" and theirs.lines[0].en == "Guardian: col A"
    assert theirs.lines[1].en == "Left Z4 G6 C2 E1 L1" and theirs.lines[2].en == "Lead you:a opp:-"
    public = GAME.screen(GAME.view(state, None), None)
    assert [line.fr for line in public.lines] == ["Tour : Vert", "Gardien : col. A", "Blanc 6 - Vert 0"]


def test_screen_shows_the_inauguration_holder():
    state = from_diagram(("wZ . . . . .", *EMPTY[1:]), guardian=0, turn=1, inauguration=0)
    assert GAME.screen(GAME.view(state, 0), 0).lines[3].fr == "Prévu 11-0 ★vous"
    assert GAME.screen(GAME.view(state, 1), 1).lines[3].en == "Proj. 0-11 ★opp"


def test_malformed_actions_do_not_crash_the_table_helpers():
    state = from_diagram(("wZ . . . . .", *EMPTY[1:]), guardian=0, turn=1)
    layout = normalise_layout(GAME.expected_layout(state))
    for act in ({"type": "place", "piece": 3, "square": "Q9"}, {"type": "swap", "square": None},
                {"type": "move"}, {"type": "guardian", "position": "x"}, {"type": "nope"}):
        assert normalise_layout(GAME.footprint(state, 1, act)) == layout
        assert GAME.describe_action(state, 1, act).fr
    assert GAME.describe_action(state, 1, {"type": "place", "piece": piece_id(G, "lion"), "square": "A2"}).fr \
        == "lion vert en A2"


def test_explain_gives_the_reason_of_a_misplaced_animal():
    state = from_diagram(("wZ . . . . .", *EMPTY[1:]), guardian=0, turn=1)  # column A, green to play
    lion = piece_id(G, "lion")
    assert GAME.explain(state, 1, "B2", lion).code == "off_line"
    assert GAME.explain(state, 1, "A1", lion).code == "square_taken"
    assert GAME.explain(state, 1, "A2", piece_id(W, "zebra", 2)).code == "not_your_piece"
    assert GAME.explain(state, 1, "pad.1", lion).code == "off_board"
    assert GAME.explain(state, 1, "A2", lion) is None  # legal: no reason to give


def test_explain_during_a_crocodile_turn():
    rows = (*EMPTY[:3], "gG gG . . . .", ". . gG . . .")
    croc = piece_id(W, "crocodile")
    state = GAME.apply(from_diagram(rows, guardian=18, turn=0), 0,
                       {"type": "place", "piece": croc, "square": "C4"}).state
    assert GAME.explain(state, 0, "C3", croc).code == "no_gazelle"
    assert GAME.explain(state, 0, "A4", croc).code == "not_across_river"
    assert GAME.explain(state, 0, "C4", piece_id(G, "gazelle", 1)).code == "not_across_river"  # A4's gazelle
    assert GAME.explain(state, 0, "D4", piece_id(W, "zebra")).code == "wrong_phase"


def test_highlights_light_the_free_squares_then_the_crocodile_and_its_prey():
    state = from_diagram(("wZ . . . . .", *EMPTY[1:]), guardian=0, turn=1)
    assert GAME.highlights(state) == {"A2": "green", "A3": "green", "A4": "green", "A5": "green"}
    rows = (*EMPTY[:3], "gG gG . . . .", ". . gG . . .")
    state = GAME.apply(from_diagram(rows, guardian=18, turn=0), 0,
                       {"type": "place", "piece": piece_id(W, "crocodile"), "square": "C4"}).state
    assert GAME.highlights(state) == {"C4": "yellow", "B4": "blue", "C5": "blue"}
    assert GAME.highlights(GAME.initial_state(GameConfig(players=2))) == {}
