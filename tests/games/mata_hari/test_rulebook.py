"""Operation: Mata Hari: where the engine follows the rulebook's own words (issue 13)."""

from __future__ import annotations

from dataclasses import replace

from games.core import CHANCE, to_json
from games.mata_hari import GAME
from games.mata_hari.state import End, MHState, owed, with_seat
from tests.kits.mata_hari_kit import dealt, lay_all, obj, par, play, res

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
    assert screen.lines[0].en == "Winner: P3" and screen.lines[1].en == "Out: P1 P2"
    assert screen.lines[0].fr == "Gagnant : J3" and screen.lines[1].fr == "Éliminés : J1 J2"


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
    assert to_json(GAME.view(state, 2).me.seen) == [{"seat": 1, "cards": [G2, DA]}]
    state = play(state, 2, type="take_cover", cover=state.stock[0])
    # again, the same kind: unfounded again, another cover; the look is recorded once
    assert {"type": "accuse", "target": 1} in GAME.legal_actions(state, 2)
    state = play(state, 2, type="accuse", target=1)
    state = play(state, 2, type="accuse", target=1, partner="hitman")
    assert owed(state, 2) == 1 and len(GAME.view(state, 2).me.seen) == 1
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


# -- a refusal that draws the pile's last card: the cover comes before the end ----------------


def _refusing(compromis: list[int], pile: int = 1, stock: int = 5) -> MHState:
    """J1 offers a card, nobody answers; the pile holds `pile` cards, the stock `stock` covers."""
    state = dealt(3)
    for i, c in enumerate(compromis):
        state = with_seat(state, i, compromis=c)
    state = replace(state, pile=state.pile[:pile], stock=state.stock[:stock])
    state = play(state, 0, type="lay", card=state.seats[0].hand[0])
    state = play(state, 0, type="confirm")
    return play(state, 0, type="refuse")


def _draw(state: MHState) -> MHState:
    return GAME.apply(state, CHANCE, GAME.chance_outcomes(state)[0][0]).state


def test_refusal_drawing_the_last_card_takes_its_cover_before_the_game_ends() -> None:
    """Rulebook (Phase de Résolution): « Si le joueur actif refuse toutes les offres …, il reprend
    ses cartes sans les révéler, pioche 2 cartes de la pioche Opération, prend 1 carte Couverture du
    côté Compromis, puis le tour passe au joueur suivant. » The cover is part of the refusal: it is
    taken before « La dernière carte de la pioche Opération est piochée » ends the game."""
    state = _refusing([0, 1, 1], pile=1)
    step_ = GAME.apply(state, CHANCE, GAME.chance_outcomes(state)[0][0])
    state = step_.state
    assert state.pile == () and state.phase == "settle" and GAME.outcome(state) is None
    assert owed(state, 0) == 1 and 0 in GAME.to_act(state)
    assert "Pile empty: cover first" in [e.text.en for e in step_.effects]
    assert GAME.legal_actions(state, 0) and all(a["type"] in ("take_cover", "lift", "visionary")
                                                for a in GAME.legal_actions(state, 0))
    state = play(state, 0, type="take_cover", cover=state.stock[0])
    assert state.phase == "over" and state.end.reason == "pile"
    # the cover changes who is eliminated: 1-1-1, everybody (ended first, it was J2 and J3)
    assert [s.compromis for s in state.seats] == [1, 1, 1]
    assert GAME.outcome(state).details["eliminated"] == [0, 1, 2]


def test_refusal_with_one_card_left_draws_it_then_takes_the_cover() -> None:
    """Rulebook: « pioche 2 cartes … prend 1 carte Couverture »: with one card left, one is drawn
    (there is no second), then the cover is taken, then the game ends."""
    state = _refusing([0, 0, 0], pile=1)
    hand = len(state.seats[0].hand)
    state = _draw(state)
    assert GAME.chance_outcomes(state) == []  # no second draw from an empty pile
    state = play(state, 0, type="take_cover", cover=state.stock[0])
    assert state.phase == "over" and len(state.seats[0].hand) == hand + 1
    assert GAME.outcome(state).details["eliminated"] == [0]


def test_cover_lifted_before_the_draws_still_ends_the_game_after_them() -> None:
    """Rulebook order « pioche 2 cartes …, prend 1 carte Couverture »: when the player lifts the
    last cover first (« La dernière Carte Couverture … est prise »), the two draws still happen
    before the game ends, as if done in the rulebook's order."""
    state = _refusing([0, 0, 0], pile=5, stock=1)
    state = play(state, 0, type="take_cover", cover=state.stock[0])
    assert state.stock == () and state.phase == "draw" and GAME.outcome(state) is None
    state = _draw(state)
    assert state.phase == "draw"
    state = _draw(state)
    assert state.phase == "over" and state.end.reason == "covers" and len(state.pile) == 3


def test_founded_accusation_cover_is_taken_even_when_the_accuser_picks_the_last_card() -> None:
    """Rulebook (Contre-espionnage): « Accusation fondée : le joueur accusé doit révéler le
    Partenaire, le retirer du jeu et recevoir une Carte Couverture du côté Compromis. … L'accusateur
    peut alors prendre la pioche Opération, en observer le contenu et choisir une carte. » The
    accused's cover comes first: the pile's last card picked does not cancel it."""
    state = _offered({0: [D7], 1: [DA]}, [D7], {1: [DA]})
    state = replace(state, pile=state.pile[:1])
    state = play(state, 2, type="accuse", target=1)
    state = play(state, 2, type="accuse", target=1, partner="double-agent")
    state = play(state, 2, type="pick", card=state.pile[0])
    assert state.pile == () and state.phase == "settle" and owed(state, 1) == 1
    assert GAME.outcome(state) is None
    state = play(state, 1, type="take_cover", cover=state.stock[0])
    assert state.phase == "over" and state.end.reason == "pile" and state.seats[1].compromis == 1
