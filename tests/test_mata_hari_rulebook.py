"""Operation: Mata Hari: where the engine follows the rulebook's own words (issue 13)."""

from __future__ import annotations

from dataclasses import replace

from games.mata_hari import GAME
from games.mata_hari.state import End, MHState, with_seat
from test_mata_hari_kit import dealt, obj, res

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
