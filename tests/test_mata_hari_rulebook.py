"""Operation: Mata Hari: where the engine follows the rulebook's own words (issue 13)."""

from __future__ import annotations

from dataclasses import replace

from games.mata_hari import GAME
from games.mata_hari.state import End, MHState, owed, with_seat
from test_mata_hari_kit import dealt, lay_all, obj, par, play, res

# -- scoring: ties for most Compromis covers --------------------------------------------------


def _final(compromis: list[int]) -> MHState:
    """A finished 3-player game (last cover taken) with the given Compromis counts."""
    hands = [[res("documents", 7)], [res("gants", 7)], [res("pistolets", 5)]]
    objectives = [obj("documents"), obj("gants"), obj("pistolets")]
    state = dealt(3)
    for i in range(3):
        state = with_seat(state, i, hand=tuple(hands[i]), objective=objectives[i], offer=(),
                          compromis=compromis[i], incognito=0)
    return replace(state, phase="over", end=End("covers"))


def test_when_every_player_ties_for_most_compromis_all_are_eliminated_and_nobody_wins() -> None:
    """Rulebook (Calcul des points): « Si plusieurs joueurs ont le même nombre de Cartes Compromis,
    ils sont tous éliminés. » No exception is made when the tie is the whole table."""
    out = GAME.outcome(_final([2, 2, 2]))
    assert out.details["eliminated"] == [0, 1, 2]
    assert out.winners == () and out.details["no_winner"] is True
    assert out.details["points"] == [7, 7, 5]  # still reported, face up
    for seat in (None, 0, 1, 2):
        screen = GAME.screen(GAME.view(_final([2, 2, 2]), seat), seat)
        assert [ln.fr for ln in screen.lines[:2]] == ["Tous éliminés", "Aucun gagnant"]
        assert [ln.en for ln in screen.lines[:2]] == ["All eliminated", "No winner"]
        assert screen.icon is None  # no trophy for anyone
    assert GAME.outcome(_final([2, 2, 2])).to_json()["winners"] == []


def test_several_tied_for_most_compromis_are_all_eliminated_the_others_score() -> None:
    """Rulebook: « Le joueur possédant le plus de Cartes Couverture du côté Compromis est identifié
    comme un espion et éliminé du calcul des points. » / « … ils sont tous éliminés. »"""
    out = GAME.outcome(_final([1, 1, 0]))
    assert out.details["eliminated"] == [0, 1] and out.winners == (2,)
    assert out.details["no_winner"] is False
    screen = GAME.screen(GAME.view(_final([1, 1, 0]), 2), 2)
    assert screen.lines[0].en == "Winner: J3" and screen.lines[1].en == "Out: J1 J2"


def test_nobody_holding_a_compromis_cover_nobody_is_identified_as_a_spy() -> None:
    """Rulebook: « Le joueur possédant le plus de Cartes Couverture du côté Compromis est identifié
    comme un espion »: a seat holding none possesses no Compromis card (reading chosen, see doc)."""
    out = GAME.outcome(_final([0, 0, 0]))
    assert out.details["eliminated"] == [] and out.winners == (0, 1)


# -- counter-espionage: no limit on accusations -----------------------------------------------

D7, G2, G4 = res("documents", 7), res("gants", 2), res("gants", 4)
DA, HIT = par("double-agent"), par("hitman")


def _offered(hands: dict[int, list[str]], active: list[str], counters: dict[int, list[str]]) -> MHState:
    state = dealt(4, hands)
    state = play(lay_all(state, 0, active), 0, type="confirm")
    for seat, cards in counters.items():
        state = play(lay_all(state, seat, cards), seat, type="confirm")
    return state


def test_a_seat_may_accuse_the_same_seat_again_in_the_same_turn() -> None:
    """Rulebook (Contre-espionnage): « À tout moment, avant la Phase de Résolution, un joueur peut
    accuser un autre d'avoir joué un Partenaire spécifique parmi les cartes offertes » -- no limit
    per accuser, accused or turn. An unfounded accusation costs a Compromis cover each time."""
    state = _offered({0: [D7, G4], 1: [G2, DA]}, [D7, G4], {1: [G2, DA]})
    state = play(state, 2, type="accuse", target=1)
    state = play(state, 2, type="accuse", target=1, partner="hitman")  # unfounded: J3 sees the offer
    assert GAME.view(state, 2)["me"]["seen"] == [{"seat": 1, "cards": [G2, DA]}]
    state = play(state, 2, type="take_cover", cover=state.stock[0])
    # again, the same kind: unfounded again, another cover; the look is recorded once
    assert {"type": "accuse", "target": 1} in GAME.legal_actions(state, 2)
    state = play(state, 2, type="accuse", target=1)
    state = play(state, 2, type="accuse", target=1, partner="hitman")
    assert owed(state, 2) == 1 and len(GAME.view(state, 2)["me"]["seen"]) == 1
    state = play(state, 2, type="take_cover", cover=state.stock[0])
    assert state.seats[2].compromis == 2
    # and the kind it saw: founded this time
    state = play(state, 2, type="accuse", target=1)
    state = play(state, 2, type="accuse", target=1, partner="double-agent")
    assert DA in state.removed and state.seats[1].status == "withdrawn" and owed(state, 1) == 1
    assert [(x.accuser, x.accused, x.founded) for x in state.accusations] == \
        [(2, 1, False), (2, 1, False), (2, 1, True)]


def test_the_accusation_menu_stays_offered_after_an_accusation() -> None:
    """Rulebook: « À tout moment … un joueur peut accuser un autre »: the button menu keeps
    « Accuser J2… » after a first accusation of J2."""
    state = _offered({0: [D7], 1: [G2]}, [D7], {1: [G2]})
    state = play(state, 3, type="accuse", target=1)
    state = play(state, 3, type="accuse", target=1, partner="hitman")
    state = play(state, 3, type="take_cover", cover=state.stock[0])
    labels = [c.label.fr for c in GAME.choices(state, 3)]
    assert "Accuser J2…" in labels
