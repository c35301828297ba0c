"""Operation: Mata Hari: the three end conditions and the scoring (elimination, points, ties)."""

from __future__ import annotations

from dataclasses import replace

from games.core import CHANCE
from games.mata_hari import GAME
from games.mata_hari.scoring import eliminated, points
from games.mata_hari.state import End, MHState, owed, with_seat
from tests.kits.gamekit import check_illegal_leaves_state
from tests.kits.mata_hari_kit import dealt, lift_all, obj, play, res

FIVES_3P = [res(r, 5) for r in ("photographies", "documents", "pistolets", "mallettes", "deguisements", "gants")]


def _refuse_turn(state: MHState) -> MHState:
    """The active player offers its first card, nobody answers, it refuses: draws 2, takes a cover."""
    a = state.active
    state = lift_all(state)
    state = play(state, a, type="lay", card=state.seats[a].hand[0])
    state = play(state, a, type="confirm")
    state = play(state, a, type="refuse")
    while state.phase == "draw":
        state = GAME.apply(state, CHANCE, GAME.chance_outcomes(state)[0][0]).state
    if state.phase != "over":
        state = play(state, a, type="take_cover", cover=state.stock[0])
    return state


def test_visionary_agent_reveals_every_card_of_a_priority_and_wins_at_once() -> None:
    state = dealt(3, {1: FIVES_3P})
    assert 1 in GAME.to_act(state)  # at any time, even during another player's turn
    assert {"type": "visionary", "value": 5} in GAME.legal_actions(state, 1)
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "visionary", "value": 5}).code == "not_visionary"
    result = GAME.apply(state, 1, {"type": "visionary", "value": 5})
    assert result.state.phase == "over"
    reveal = [e for e in result.effects if e.kind == "reveal"][0]
    assert reveal.audience is None and sorted(reveal.data["cards"]) == sorted(FIVES_3P)
    out = GAME.outcome(result.state)
    assert out.winners == (1,) and out.details["reason"] == "visionary"


def test_visionary_needs_every_card_in_play_of_that_value() -> None:
    state = dealt(5, {1: FIVES_3P})  # at 5 players the Tape recorder, Poison and Coat 5s are in play
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "visionary", "value": 5}).code == "not_visionary"


def test_game_ends_when_the_last_card_of_the_pile_is_drawn() -> None:
    """Rulebook: « Si le joueur actif refuse toutes les offres …, il reprend ses cartes …, pioche 2
    cartes de la pioche Opération, prend 1 carte Couverture du côté Compromis »: the refusal's
    cover is taken, then the game ends (« La dernière carte de la pioche Opération est piochée »)."""
    state = dealt(3)
    assert len(state.pile) == 9
    for _ in range(4):
        state = _refuse_turn(state)
    assert len(state.pile) == 1 and state.phase == "offer"
    before = state.seats[state.active].compromis
    state = _refuse_turn(state)
    assert state.phase == "over" and state.end.reason == "pile"
    assert owed(state, state.active) == 0  # the cover was taken before the end
    assert state.seats[state.active].compromis == before + 1
    assert GAME.to_act(state) == frozenset() and GAME.outcome(state) is not None


def test_game_ends_when_the_last_cover_is_taken() -> None:
    state = dealt(4)
    # nine covers already taken: five by seat 1, four by seat 2
    state = with_seat(state, 1, compromis=5, covers=state.stock[:5])
    state = with_seat(state, 2, compromis=4, covers=state.stock[5:9])
    state = replace(state, stock=state.stock[9:])
    state = _refuse_turn(state)
    assert state.phase == "over" and state.end.reason == "covers" and state.stock == ()
    out = GAME.outcome(state)
    assert out.details["eliminated"] == [1]  # the most Compromis covers: a spy


def test_points_objective_incognito_and_skull() -> None:
    hand = [res("documents", 7), res("documents", 2), res("pistolets", 6), res("gants", 2)]
    # Documents objective, blue skull: 7 + 2 for Documents, -6 for the blue Pistol, +2 per Incognito
    assert points(hand, obj("documents"), 1) == 7 + 2 - 6 + 2
    assert points(hand, obj("gants"), 0) == 2 - 7 - 2  # Gloves objective, red skull
    assert points([], None, 3) == 6


def test_elimination_of_the_most_compromised_with_ties() -> None:
    """Rulebook: « Si plusieurs joueurs ont le même nombre de Cartes Compromis, ils sont tous
    éliminés » -- the whole table included."""
    assert eliminated([2, 1, 0]) == [0]
    assert eliminated([2, 1, 2]) == [0, 2]  # tied for most: all of them are out
    assert eliminated([1, 1, 1]) == [0, 1, 2]  # everybody tied: everybody is out
    assert eliminated([0, 0, 0, 0]) == []  # nobody holds a Compromis: no spy to identify


def _final(hands: list[list[str]], objectives: list[str], compromis: list[int],
           incognito: list[int]) -> MHState:
    state = dealt(3)
    for i in range(3):
        state = with_seat(state, i, hand=tuple(sorted(hands[i])), objective=objectives[i], offer=(),
                          compromis=compromis[i], incognito=incognito[i])
    return replace(state, phase="over", end=End("covers"))


def test_scoring_excludes_eliminated_players_and_shares_ties() -> None:
    hands = [[res("documents", 7)], [res("gants", 7)], [res("pistolets", 5), res("pistolets", 2)]]
    objectives = [obj("documents"), obj("gants"), obj("pistolets")]
    out = GAME.outcome(_final(hands, objectives, [0, 0, 1], [0, 0, 0]))
    assert out.details["points"] == [7, 7, 7] and out.details["eliminated"] == [2]
    assert out.winners == (0, 1)  # shared victory
    out = GAME.outcome(_final(hands, objectives, [0, 1, 1], [1, 0, 0]))
    assert out.winners == (0,) and out.details["eliminated"] == [1, 2]
    view = GAME.view(_final(hands, objectives, [0, 1, 1], [1, 0, 0]), 2)
    assert view.seats[0].points == 9  # face-up scoring at the end
    screen = GAME.screen(view, 2)
    assert screen.title.fr == "Fin de partie"
