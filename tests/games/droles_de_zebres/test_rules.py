"""Drôles de Zèbres: set-up, placement, lion, crocodile, guardian, passing, end, rejections."""

from __future__ import annotations

import pytest

from games.core import CHANCE, SQUARES, GameConfig, Step, replay
from games.droles_de_zebres import GAME
from games.droles_de_zebres.pieces import piece_id
from games.droles_de_zebres.state import CROCODILE, GUARDIAN, MOVE, OVER, PLACE, Token
from games.droles_de_zebres.state_diagram import DiagramError, from_diagram, square_of, to_diagram
from tests.kits.gamekit import check_illegal_leaves_state

W, G = "white", "green"
EMPTY = (". . . . . .",) * 5


def pid(colour: str, kind: str, n: int = 1) -> str:
    return piece_id(colour, kind, n)


def place(piece: str, square: str) -> dict:
    return {"type": "place", "piece": piece, "square": square}


def cell(state, square: str) -> Token | None:
    return state.cells[SQUARES.index(square)]


def kinds(step: Step) -> list[str]:
    return [e.kind for e in step.effects]


# -- set-up and first player -----------------------------------------------------------------

def test_initial_state_everything_in_reserve_either_player_places_the_guardian():
    state = GAME.initial_state(GameConfig(players=2))
    assert state.phase == GUARDIAN and all(c is None for c in state.cells)
    assert [len(r) for r in state.reserves] == [15, 15]
    assert GAME.to_act(state) == {0, 1}
    assert len(GAME.legal_actions(state, 1)) == 22
    step = GAME.apply(state, 1, {"type": "guardian", "position": 7})
    # the guardian's placer is the first player; the OTHER player places the first animal
    assert step.state.first == 1 and step.state.turn == 0 and step.state.phase == PLACE
    assert GAME.to_act(step.state) == {0}
    assert step.effects[0].data["line"] == "row:2"


def test_fixed_first_player_option():
    state = GAME.initial_state(GameConfig(players=2, options={"first_player": "seat1"}))
    assert GAME.to_act(state) == {1}
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "guardian", "position": 0}).code == "not_your_turn"
    state0 = GAME.initial_state(GameConfig(players=2, options={"first_player": "seat0"}))
    assert GAME.to_act(state0) == {0}


def test_random_first_player_is_a_chance_action():
    state = GAME.initial_state(GameConfig(players=2, options={"first_player": "random"}))
    assert GAME.to_act(state) == {CHANCE}
    outcomes = GAME.chance_outcomes(state)
    assert sorted(a["seat"] for a, _ in outcomes) == [0, 1] and sum(p for _, p in outcomes) == 1
    after = GAME.apply(state, CHANCE, {"type": "first_player", "seat": 1}).state
    assert GAME.to_act(after) == {1}
    assert check_illegal_leaves_state(GAME, state, CHANCE, {"type": "first_player", "seat": 2}).code == "bad_chance"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "guardian", "position": 0}).code == "not_your_turn"


def test_seat0_colour_option_gives_seat0_the_green_animals():
    state = GAME.initial_state(GameConfig(players=2, options={"seat0_colour": "green", "first_player": "seat1"}))
    assert all("/green/" in p for p in state.reserves[0])
    state = GAME.apply(state, 1, {"type": "guardian", "position": 0}).state
    assert state.turn == 0
    state = GAME.apply(state, 0, place(pid(G, "zebra"), "A1")).state
    assert cell(state, "A1") == Token(pid(G, "zebra"))


# -- placing ---------------------------------------------------------------------------------

def test_placement_only_on_an_empty_square_of_the_faced_line():
    state = from_diagram(("wZ . . . . .", *EMPTY[1:]), guardian=0, turn=1)  # faces column A
    legal = GAME.legal_actions(state, 1)
    assert {a["square"] for a in legal} == {"A2", "A3", "A4", "A5"}
    assert len(legal) == 4 * 15
    exc = check_illegal_leaves_state(GAME, state, 1, place(pid(G, "zebra"), "B2"))
    assert exc.code == "off_line" and "col. A" in exc.rejection.message.fr
    assert check_illegal_leaves_state(GAME, state, 1, place(pid(G, "zebra"), "A1")).code == "square_taken"


@pytest.mark.parametrize("seat, action, code", [
    (0, place(pid(W, "zebra", 2), "A2"), "not_your_turn"),
    (1, place(pid(W, "zebra", 2), "A2"), "not_your_piece"),
    (1, place("droles-de-zebres/green/zebra/9", "A2"), "unknown_piece"),
    (1, place("spywhere/x/y/1", "A2"), "unknown_piece"),
    (1, place(pid(G, "lion"), "A2"), "not_in_reserve"),
    (1, place(pid(G, "zebra"), "Z9"), "bad_square"),
    (1, place(pid(G, "zebra"), 3), "bad_square"),
    (1, place(pid(G, "zebra"), "a2"), "bad_square"),
    (1, {"type": "place", "piece": pid(G, "zebra")}, "bad_action"),
    (1, {**place(pid(G, "zebra"), "A2"), "face": "up"}, "bad_action"),
    (1, {"type": "fly"}, "bad_action"),
    (1, {"kind": "place"}, "bad_action"),
    (1, {"type": "first_player", "seat": 1}, "bad_action"),
    (1, {"type": "move", "steps": 1}, "wrong_phase"),
    (1, {"type": "swap", "square": "B1"}, "wrong_phase"),
    (1, {"type": "stop"}, "wrong_phase"),
    (1, {"type": "guardian", "position": 3}, "wrong_phase"),
])
def test_rejections_keep_the_state(seat: int, action: dict, code: str):
    state = from_diagram(("wZ . gL . . .", *EMPTY[1:]), guardian=0, turn=1)
    exc = check_illegal_leaves_state(GAME, state, seat, action)
    assert exc.code == code
    assert len(exc.rejection.message.fr) <= 63 and len(exc.rejection.message.en) <= 63


def test_bad_guardian_positions():
    state = GAME.initial_state(GameConfig(players=2))
    for position in (-1, 22, "3", True, None):
        exc = check_illegal_leaves_state(GAME, state, 0, {"type": "guardian", "position": position})
        assert exc.code == "bad_position"


# -- the lion ---------------------------------------------------------------------------------

LION_EXAMPLE = (
    ". . wZ . . .",
    ". . gE . . .",
    ". wG . gZ . .",
    ". . gG . . .",
    ". . gC . . .",
)


def test_rulebook_lion_example():
    """One square left in the guarded column; White's lion: elephant stays, two gazelles flee,
    the zebra hides (face down, still counted)."""
    state = from_diagram(LION_EXAMPLE, guardian=2, turn=0)
    assert [a["square"] for a in GAME.legal_actions(state, 0)][:1] == ["C3"]
    step = GAME.apply(state, 0, place(pid(W, "lion"), "C3"))
    after = step.state
    assert to_diagram(after) == (
        ". . wZ . . .",
        ". . gE . . .",
        ". . wL gz . .",
        ". . . . . .",
        ". . gC . . .",
    )
    assert pid(W, "gazelle") in after.reserves[0] and pid(G, "gazelle") in after.reserves[1]
    assert sorted(kinds(step)[:3]) == ["flip", "return", "return"]
    returned = {e.data["square"]: e.data["seat"] for e in step.effects if e.kind == "return"}
    assert returned == {"B3": 0, "C4": 1}
    flip = next(e for e in step.effects if e.kind == "flip")
    assert flip.data == {"square": "D3", "piece": pid(G, "zebra"), "face_up": False}
    assert flip.text.fr == "Retournez le zèbre vert 1 en D3 face cachée."
    # the gazelle's square is free again, so column C is open: the guardian still has a choice
    assert after.phase == MOVE and after.turn == 0


def test_zebra_or_gazelle_placed_next_to_a_lion_lies_face_down():
    rows = (". . . . . .", ". gL . . . .", *EMPTY[2:])
    state = from_diagram(rows, guardian=1, turn=0)  # faces column B
    for kind in ("zebra", "gazelle"):
        step = GAME.apply(state, 0, place(pid(W, kind), "B3"))
        assert cell(step.state, "B3") == Token(pid(W, kind), face_up=False)
        assert step.effects[0].kind == "face_down" and step.effects[0].data["square"] == "B3"
    for kind in ("elephant", "crocodile"):
        step = GAME.apply(state, 0, place(pid(W, kind), "B3"))
        assert cell(step.state, "B3") == Token(pid(W, kind), face_up=True)
    # not adjacent (diagonal / two squares away): face up
    assert cell(GAME.apply(state, 0, place(pid(W, "zebra"), "B4")).state, "B4").face_up


def test_lion_ignores_rivers_and_scares_face_down_gazelles_too():
    """Rulebook (Lion): "check if there are any Zebras and/or Gazelles on the four neighboring
    squares ... even if it's on the other side of a river: Any Zebra present there are turned face
    down / Any Gazelles present there comes back to their owners" -- no face-up condition."""
    # B3 (a) and C3 (b) are across a river: the lion still scares. The face-down gazelle in C2
    # (placed earlier beside the green lion in C1) flees too; the face-down zebra in C4 stays down.
    rows = (". . gL . . .", ". . wg . . .", ". wZ . . . .", ". . wz . . .", EMPTY[4])
    state = from_diagram(rows, guardian=19, turn=0)  # left of row 3
    step = GAME.apply(state, 0, place(pid(W, "lion"), "C3"))
    assert cell(step.state, "B3") == Token(pid(W, "zebra"), False)
    assert cell(step.state, "C2") is None and pid(W, "gazelle") in step.state.reserves[0]
    assert cell(step.state, "C4") == Token(pid(W, "zebra", 2), False)
    assert [e.data["square"] for e in step.effects if e.kind == "flip"] == ["B3"]
    assert [e.data["square"] for e in step.effects if e.kind == "return"] == ["C2"]


# -- the crocodile ----------------------------------------------------------------------------

CROC_EXAMPLE = (
    ". . . . . .",
    ". . . . . .",
    ". . gG . . .",  # gazelle C: above the crocodile's square, same territory (b)
    "gG gG . . . .",  # A4 (e): for the chain; B4 (a, 5 squares): gazelle A
    ". . gG . . .",  # C5 (f): gazelle B
)


def test_rulebook_crocodile_example_swap_only_across_a_river():
    state = from_diagram(CROC_EXAMPLE, guardian=18, turn=0)  # left of row 4
    step = GAME.apply(state, 0, place(pid(W, "crocodile"), "C4"))
    s = step.state
    assert s.phase == CROCODILE and s.turn == 0 and step.effects[-1].kind == "crocodile"
    assert step.effects[-1].audience == frozenset({0})
    assert GAME.legal_actions(s, 0) == [{"type": "swap", "square": "C5"}, {"type": "swap", "square": "B4"},
                                        {"type": "stop"}]
    assert check_illegal_leaves_state(GAME, s, 0, {"type": "swap", "square": "C3"}).code == "not_across_river"
    assert check_illegal_leaves_state(GAME, s, 0, {"type": "swap", "square": "D4"}).code == "no_gazelle"
    assert check_illegal_leaves_state(GAME, s, 1, {"type": "stop"}).code == "not_your_turn"
    assert check_illegal_leaves_state(GAME, s, 0, place(pid(W, "zebra"), "D4")).code == "wrong_phase"
    # white swaps with gazelle A: the crocodile now stands in the 5-square territory a
    swap = GAME.apply(s, 0, {"type": "swap", "square": "B4"})
    assert cell(swap.state, "B4") == Token(pid(W, "crocodile"))
    assert cell(swap.state, "C4") == Token(pid(G, "gazelle", 3))  # numbered in reading order
    assert swap.effects[0].kind == "swap" and swap.effects[0].data["to"] == "B4"


def test_declining_the_crocodile_leaves_it_in_place():
    state = from_diagram(CROC_EXAMPLE, guardian=18, turn=0)
    s = GAME.apply(state, 0, place(pid(W, "crocodile"), "C4")).state
    step = GAME.apply(s, 0, {"type": "stop"})
    assert step.state.phase in (PLACE, MOVE) and step.state.croc is None
    assert to_diagram(step.state)[3] == "gG gG wC . . ."


def test_crocodile_chains_swaps_but_never_with_the_same_gazelle():
    state = from_diagram(CROC_EXAMPLE, guardian=18, turn=0)
    s = GAME.apply(state, 0, place(pid(W, "crocodile"), "C4")).state
    s = GAME.apply(s, 0, {"type": "swap", "square": "B4"}).state
    # from B4: A4 (e) holds another face-up gazelle; C4 holds the gazelle just swapped
    assert s.phase == CROCODILE
    assert GAME.legal_actions(s, 0) == [{"type": "swap", "square": "A4"}, {"type": "stop"}]
    assert check_illegal_leaves_state(GAME, s, 0, {"type": "swap", "square": "C4"}).code == "already_swapped"
    step = GAME.apply(s, 0, {"type": "swap", "square": "A4"})
    # no gazelle left across a river from A4: the turn ends by itself
    assert step.state.phase in (PLACE, MOVE) and step.state.croc is None
    assert to_diagram(step.state)[3] == "wC gG gG . . ."


def test_crocodile_cannot_see_a_face_down_gazelle():
    rows = (*EMPTY[:3], ". gg . . . .", EMPTY[4])
    state = from_diagram(rows, guardian=2, turn=0)  # column C
    step = GAME.apply(state, 0, place(pid(W, "crocodile"), "C4"))
    assert step.state.phase != CROCODILE  # no visible prey: no crocodile phase at all
    assert "crocodile" not in kinds(step)


def test_crocodile_check_of_hidden_gazelle():
    rows = (*EMPTY[:3], ". gg . . . .", ". . gG . . .")
    state = from_diagram(rows, guardian=2, turn=0)
    s = GAME.apply(state, 0, place(pid(W, "crocodile"), "C4")).state
    assert s.phase == CROCODILE
    assert check_illegal_leaves_state(GAME, s, 0, {"type": "swap", "square": "B4"}).code == "gazelle_hidden"


def test_crocodile_may_swap_with_its_own_gazelle():
    rows = (*EMPTY[:3], ". wG . . . .", EMPTY[4])
    s = GAME.apply(from_diagram(rows, guardian=2, turn=0), 0, place(pid(W, "crocodile"), "C4")).state
    assert {"type": "swap", "square": "B4"} in GAME.legal_actions(s, 0)


def test_gazelle_swapped_next_to_a_lion_lies_face_down():
    # crocodile placed in D4, next to the lion in D5; the gazelle it swaps with lands beside the lion
    rows = (*EMPTY[:2], ". . . gG . .", ". . . . . .", ". . . wL . .")
    s = GAME.apply(from_diagram(rows, guardian=3, turn=1), 1, place(pid(G, "crocodile"), "D4")).state
    step = GAME.apply(s, 1, {"type": "swap", "square": "D3"})
    assert cell(step.state, "D4") == Token(pid(G, "gazelle"), face_up=False)
    assert cell(step.state, "D3") == Token(pid(G, "crocodile"))
    assert "face_down" in kinds(step)


# -- the inauguration ------------------------------------------------------------------------

def test_inauguration_goes_to_whoever_completes_the_first_territory():
    # territory d = E2 F2 F3; white completes it though green has the majority there
    rows = (EMPTY[0], ". . . . gZ gZ", ". . . . . .", *EMPTY[3:])
    state = from_diagram(rows, guardian=5, turn=0)  # column F
    step = GAME.apply(state, 0, place(pid(W, "elephant"), "F3"))
    assert step.state.inauguration == 0
    assert next(e for e in step.effects if e.kind == "inauguration").data == {"seat": 0, "territories": ["d"]}


def test_inauguration_is_kept_by_its_first_holder():
    rows = (EMPTY[0], ". . . . gZ gZ", ". . . . . .", *EMPTY[3:])
    state = from_diagram(rows, guardian=5, turn=0, inauguration=1)
    step = GAME.apply(state, 0, place(pid(W, "elephant"), "F3"))
    assert step.state.inauguration == 1 and "inauguration" not in kinds(step)


def test_faq_lion_scaring_a_gazelle_out_of_the_territory_gives_it_to_no_one():
    # the lion fills d's last square (F2) but the gazelle in E2 (d) flees: d is not complete
    rows = (EMPTY[0], ". . . . wG .", ". . . . . gZ", *EMPTY[3:])
    state = from_diagram(rows, guardian=5, turn=1)
    step = GAME.apply(state, 1, place(pid(G, "lion"), "F2"))
    assert cell(step.state, "E2") is None and cell(step.state, "F3").face_up is False
    assert step.state.inauguration is None and "inauguration" not in kinds(step)


def test_lion_completing_a_territory_without_scaring_it_takes_the_inauguration():
    rows = (EMPTY[0], ". . . . wE .", ". . . . . gZ", *EMPTY[3:])
    step = GAME.apply(from_diagram(rows, guardian=5, turn=1), 1, place(pid(G, "lion"), "F2"))
    assert step.state.inauguration == 1


def test_faq_crocodile_swapping_an_opponent_gazelle_into_the_completed_territory():
    # white's crocodile fills d's last square F3, then swaps with green's gazelle in F4 (f)
    rows = (EMPTY[0], ". . . . gZ gZ", ". . . . . .", ". . . . . gG", EMPTY[4])
    state = from_diagram(rows, guardian=5, turn=0)
    s = GAME.apply(state, 0, place(pid(W, "crocodile"), "F3")).state
    assert s.phase == CROCODILE and s.inauguration is None  # awarded at the end of the turn
    step = GAME.apply(s, 0, {"type": "swap", "square": "F4"})
    assert cell(step.state, "F3") == Token(pid(G, "gazelle"))
    assert step.state.inauguration == 0


# -- the guardian -----------------------------------------------------------------------------

COLS_B_C_FULL = tuple(". wZ gZ . . ." for _ in range(5))


def test_guardian_choice_between_open_lines():
    state = from_diagram(EMPTY, guardian=0, turn=0)
    s = GAME.apply(state, 0, place(pid(W, "zebra"), "A1")).state
    assert s.phase == MOVE and s.turn == 0 and s.guardian == 0
    assert GAME.legal_actions(s, 0) == [{"type": "move", "steps": k} for k in (1, 2, 3)]
    step = GAME.apply(s, 0, {"type": "move", "steps": 3})
    assert step.state.guardian == 3 and step.state.phase == PLACE and step.state.turn == 1
    assert step.effects[-1].data == {"position": 3, "line": "col:D", "steps": 3, "forced": False}


def test_guardian_single_solution_is_forced_automatically():
    state = from_diagram(COLS_B_C_FULL, guardian=0, turn=0)  # columns B and C full
    step = GAME.apply(state, 0, place(pid(W, "elephant"), "A3"))
    assert step.state.phase == PLACE and step.state.guardian == 3 and step.state.turn == 1
    assert step.effects[-1].kind == "guardian" and step.effects[-1].data["forced"] is True


def test_guardian_move_to_a_full_line_is_refused():
    rows = tuple(". wZ . . . ." for _ in range(5))  # column B full: steps 2 and 3 remain
    s = GAME.apply(from_diagram(rows, guardian=0, turn=0), 0, place(pid(W, "elephant"), "A3")).state
    assert GAME.legal_actions(s, 0) == [{"type": "move", "steps": 2}, {"type": "move", "steps": 3}]
    exc = check_illegal_leaves_state(GAME, s, 0, {"type": "move", "steps": 1})
    assert exc.code == "line_full" and "col. B" in exc.rejection.message.fr
    for steps in (0, 4, True, "2"):
        assert check_illegal_leaves_state(GAME, s, 0, {"type": "move", "steps": steps}).code == "bad_steps"


def test_guardian_jumps_past_three_full_lines():
    # columns B to E full
    rows = (". wZ gZ wG gG .", ". wZ gZ wG gG .", ". wZ gZ wG gG .", ". wZ gZ wC gC .", ". wZ gZ wE gE .")
    state = from_diagram(rows, guardian=0, turn=0, inauguration=1)
    step = GAME.apply(state, 0, place(pid(W, "lion"), "A1"))
    assert step.state.guardian == 5 and step.state.phase == PLACE  # column F, 5 steps on
    assert step.effects[-1].data == {"position": 5, "line": "col:F", "steps": 5, "forced": True}


def test_guardian_wraps_around_the_path():
    state = from_diagram(EMPTY, guardian=21, turn=1)  # left of row 1
    s = GAME.apply(state, 1, place(pid(G, "zebra"), "C1")).state
    s = GAME.apply(s, 1, {"type": "move", "steps": 2}).state
    assert s.guardian == 1  # 21 -> 0 -> 1: column B


# -- passing and the end ----------------------------------------------------------------------

ALL_WHITE = (
    "wZ wZ wZ wZ wZ wG",
    "wG wG wG wG wG wC",
    "wC wE . . . .",
    ". . . . . .",
    ". . . wL . .",
)


def test_player_without_animals_passes_and_the_other_keeps_placing():
    state = from_diagram(ALL_WHITE, guardian=8, turn=1)  # right of row 3
    assert state.reserves[0] == ()
    step = GAME.apply(state, 1, place(pid(G, "elephant"), "C3"))
    assert step.state.phase == MOVE and step.state.turn == 1  # rows 4, 5 and column A open
    step = GAME.apply(step.state, 1, {"type": "move", "steps": 1})
    assert step.state.turn == 1 and GAME.to_act(step.state) == {1} and step.state.phase == PLACE
    passes = [e for e in step.effects if e.kind == "pass"]
    assert passes and passes[0].data == {"seat": 0}


def test_fled_gazelle_returns_to_the_reserve_of_a_passing_player():
    rows = ("wZ wZ wZ wZ wZ wC", "wG wG wG wG wG wG", "wC wE . . . .", ". . . . . .", ". . . wL . .")
    state = from_diagram(rows, guardian=8, turn=1)  # row 3
    step = GAME.apply(state, 1, place(pid(G, "lion"), "D3"))
    s = step.state
    assert pid(W, "gazelle", 4) in s.reserves[0] and cell(s, "D2") is None
    if s.phase == MOVE:
        s = GAME.apply(s, 1, {"type": "move", "steps": 1}).state
    assert s.turn == 0  # white has an animal again


def test_last_placement_ends_the_game():
    rows = (
        "wZ gZ wZ gZ wZ gZ",
        "wZ gZ wZ gZ wG gG",
        "wG gG wG gG wG gG",
        "wG gG wG gG wC gC",
        "wC gC wE gE wL .",
    )
    state = from_diagram(rows, guardian=5, turn=1, inauguration=0)  # column F
    step = GAME.apply(state, 1, place(pid(G, "lion"), "F5"))
    s = step.state
    assert s.phase == OVER and GAME.to_act(s) == frozenset() and GAME.legal_actions(s, 0) == []
    assert all(c is not None for c in s.cells) and s.reserves == ((), ())
    assert step.effects[-1].kind == "game_over"
    assert GAME.outcome(s) is not None and GAME.outcome(state) is None


def test_diagram_errors_and_round_trip():
    with pytest.raises(DiagramError):
        from_diagram(EMPTY[:4])
    with pytest.raises(DiagramError):
        from_diagram(("wL wL . . . .", *EMPTY[1:]))
    with pytest.raises(DiagramError):
        from_diagram(("we . . . . .", *EMPTY[1:]))
    with pytest.raises(DiagramError):
        from_diagram(("xZ . . . . .", *EMPTY[1:]))
    assert to_diagram(from_diagram(LION_EXAMPLE)) == LION_EXAMPLE
    assert square_of(from_diagram(LION_EXAMPLE), pid(G, "elephant")) == "C2"


def test_replay_of_a_short_game_from_json_actions():
    moves = [
        (1, {"type": "guardian", "position": 2}),
        (0, place(pid(W, "zebra", 1), "C1")),
        (0, {"type": "move", "steps": 1}),
        (1, place(pid(G, "lion"), "D1")),
    ]
    state = replay(GAME, GameConfig(players=2), moves)
    assert cell(state, "C1") == Token(pid(W, "zebra"), face_up=False)
    assert state.phase == MOVE and state.turn == 1


def test_inauguration_stays_when_a_lion_later_empties_its_territory():
    rows = (EMPTY[0], ". . . . gZ gZ", ". . . . . wG", *EMPTY[3:])  # d (E2 F2 F3) is full
    state = from_diagram(rows, guardian=5, turn=1, inauguration=0)
    step = GAME.apply(state, 1, place(pid(G, "lion"), "F4"))
    assert cell(step.state, "F3") is None  # the gazelle fled: d is no longer full
    assert step.state.inauguration == 0 and "inauguration" not in kinds(step)


def test_documented_example_replays():
    """The JSON lines of docs/games/droles-de-zebres.md apply in order and end as described."""
    import json
    import re
    from pathlib import Path

    doc = (Path(__file__).parents[3] / "docs" / "games" / "droles-de-zebres.md").read_text("utf-8")
    block = re.search(r"```jsonl\n(.*?)```", doc, re.S)
    assert block is not None
    moves = [(item["seat"], item["action"]) for item in map(json.loads, block.group(1).splitlines())]
    state = replay(GAME, GameConfig(players=2), moves)
    assert to_diagram(state)[:3] == (". . . gz . .", ". . . wL . .", ". . wC . . .")
    assert pid(G, "gazelle") in state.reserves[1]
    assert state.phase == MOVE and state.turn == 0 and len(GAME.legal_actions(state, 0)) == 3
