"""Spywhere's end: all opponents identified (+3) or empty pile, last identifications at once, scoring."""

from dataclasses import replace

from games.core import CHANCE
from games.spywhere import GAME
from games.spywhere.scoring import seat_result
from games.spywhere.state import DRAW, FINAL, IDENTIFY, OVER
from tests.kits.gamekit import check_illegal_leaves_state
from tests.kits.spywhere_kit import apply_all, card, cards_of, make_state


def test_identifying_every_opponent_ends_the_game_with_the_three_point_bonus():
    # seat 0 (France) already identified seat 1; identifying seat 2 ends the game
    hands = (cards_of("france", 1, 2, 3) + (card("italie", 1),), cards_of("allemagne", 1, 2), cards_of("angleterre", 1))
    state = make_state(hands=hands, step=IDENTIFY, guesses=(((1, "allemagne"),), (), ()))
    step = GAME.apply(state, 0, {"type": "identify", "target": 2, "nationality": "italie"})
    state = step.state
    assert state.phase == FINAL and state.ender == 0 and GAME.to_act(state) == {1, 2}
    assert GAME.outcome(state) is None
    # the others identify simultaneously, in any order, several per seat
    state = apply_all(GAME, state, [
        (2, {"type": "identify", "target": 0, "nationality": "france"}),
        (1, {"type": "identify", "target": 2, "nationality": "angleterre"}),
    ])
    assert GAME.to_act(state) == {1, 2}
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "done"}).code == "not_your_turn"
    state = apply_all(GAME, state, [(1, {"type": "identify", "target": 0, "nationality": "italie"}),
                                    (2, {"type": "identify", "target": 1, "nationality": "allemagne"})])
    assert state.phase == OVER
    out = GAME.outcome(state)
    # seat 0: N=3 French cards, 1 correct (seat 1 German) -> 3 + 3*1 + 3 = 9
    # seat 1: N=2, 1 correct (seat 2 English) -> 2 + 2 = 4; seat 2: N=1, 2 correct -> 1 + 2 = 3
    assert out.scores == (9.0, 4.0, 3.0) and out.winners == (0,)
    assert out.details["seats"][0]["bonus"] == 3 and out.details["ender"] == 0


def test_two_players_end_when_a_player_has_placed_both_identification_cards():
    hands = (cards_of("espagne", 1, 2) + cards_of("italie", 1, 2, 3), cards_of("france", 1, 2, 3, 4))
    state = make_state(players=2, nats=("espagne", "italie", "france", "allemagne"), hands=hands, step=IDENTIFY,
                       turn=10, guesses=(((1, "france"),), ()))
    state = GAME.apply(state, 0, {"type": "identify", "target": 1, "nationality": "angleterre"}).state
    assert state.phase == FINAL and state.ender == 0 and GAME.to_act(state) == {1}
    ids = {(a["target"], a["nationality"]) for a in GAME.legal_actions(state, 1) if a["type"] == "identify"}
    assert ids == {(0, n) for n in ("france", "allemagne", "angleterre", "espagne", "italie")}
    state = apply_all(GAME, state, [(1, {"type": "identify", "target": 0, "nationality": "espagne"}),
                                    (1, {"type": "identify", "target": 0, "nationality": "italie"})])
    assert state.phase == OVER
    # seat 0: N=5 (Spanish and Italian both count), 1 correct (France), +3 -> 5 + 5 + 3 = 13
    # seat 1: N=4 (France), 2 correct -> 4 + 8 = 12
    assert GAME.outcome(state).scores == (13.0, 12.0)


def test_an_exhausted_pile_ends_the_game_after_that_turn_without_bonus():
    state = make_state(step=DRAW, pile=(card("italie", 9),))
    state = apply_all(GAME, state, [(CHANCE, {"type": "draw", "card": card("italie", 9)})])
    assert state.pile == ()
    state = GAME.apply(state, 0, {"type": "swap", "slot": 1, "card": card("italie", 9)}).state
    assert state.step == IDENTIFY  # the turn goes on after the last card is drawn
    state = GAME.apply(state, 0, {"type": "identify", "target": 1, "nationality": "allemagne"}).state
    assert state.phase == FINAL and state.ender is None and GAME.to_act(state) == {0, 1, 2}
    assert {a["target"] for a in GAME.legal_actions(state, 0) if a["type"] == "identify"} == {2}
    state = apply_all(GAME, state, [(0, {"type": "done"}), (1, {"type": "done"}), (2, {"type": "done"})])
    assert state.phase == OVER and all(r["bonus"] == 0 for r in GAME.outcome(state).details["seats"])


def test_done_gives_up_the_remaining_identifications():
    state = make_state(phase=FINAL, step="", finished=())
    state = GAME.apply(state, 1, {"type": "done"}).state
    assert GAME.to_act(state) == {0, 2} and state.guesses[1] == ()
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "end_turn"}).code == "wrong_step"


def test_scoring_counts_own_cards_times_one_plus_correct_identifications():
    state = make_state(hands=(cards_of("france", 1, 2, 3, 4) + (card("italie", 1),), (), ()),
                       guesses=(((1, "allemagne"), (2, "italie")), (), ()), ender=None)
    r = seat_result(state, 0)
    assert (r.own_cards, r.correct, r.bonus, r.score) == (4, 1, 0, 8)
    r = seat_result(replace(state, ender=0), 0)
    assert r.score == 11
    nobody = seat_result(state, 1)  # no German card in hand: 0 whatever the guesses
    assert nobody.score == 0


def test_equal_top_scores_share_the_win():
    state = make_state(hands=(cards_of("france", 1, 2), cards_of("allemagne", 1, 2), cards_of("italie", 1)),
                       phase=OVER, step="")
    out = GAME.outcome(state)
    assert out.scores == (2.0, 2.0, 0.0) and out.winners == (0, 1)


def test_the_end_reveals_passports_and_identifications_to_everyone():
    state = make_state(step=IDENTIFY, guesses=(((1, "allemagne"),), ((0, "italie"), (2, "angleterre")), ()))
    step = GAME.apply(state, 0, {"type": "identify", "target": 2, "nationality": "espagne"})
    state = apply_all(GAME, step.state, [(2, {"type": "done"})])
    assert state.phase == OVER
    for seat in (None, 0, 1, 2):
        view = GAME.view(state, seat)
        assert [r.passports for r in view.results] == [("france",), ("allemagne",), ("angleterre",)]
        assert view.results[1].guesses == ((0, "italie", False), (2, "angleterre", True))
        screen = GAME.screen(view, seat)
        assert screen.title.fr.startswith("Fin")
    winner = GAME.screen(GAME.view(state, 0), 0)
    assert winner.icon == "trophy" and winner.big == str(GAME.outcome(state).scores[0].__int__())
