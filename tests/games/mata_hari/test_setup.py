"""Operation: Mata Hari: the card set, the set-up table by player count, the deal and the pads."""

from __future__ import annotations

import pytest

from games.core import CHANCE, BadConfig, GameConfig, normalise_layout
from games.mata_hari import GAME
from games.mata_hari.pieces import card, card_set, label, setup
from tests.kits.gamekit import check_illegal_leaves_state
from tests.kits.mata_hari_kit import dealt, obj, par, play, res


def test_the_box_holds_100_tagged_cards() -> None:
    pieces = GAME.pieces()
    assert len(pieces) == len(set(pieces)) == 100
    kinds = {p.split("/")[1] for p in pieces}
    assert kinds == {"resources", "partners", "objectives", "covers"}
    assert sum(1 for p in pieces if "/resources/" in p) == 63
    assert sum(1 for p in pieces if "/partners/" in p) == 18
    assert sum(1 for p in pieces if "/objectives/" in p) == 9
    assert sum(1 for p in pieces if "/covers/" in p) == 10
    assert res("documents", 5) in pieces and par("double-agent", 3) in pieces
    assert all(p.startswith("mata-hari/") and len(p.split("/")) == 4 for p in pieces)


def test_resource_colours_follow_the_rulebook() -> None:
    colours = {r: card(res(r, 1)).colour for r in card_set().resource_order}
    assert colours == {"magnetophones": "red", "photographies": "red", "documents": "red",
                       "poisons": "blue", "pistolets": "blue", "mallettes": "blue",
                       "manteaux": "green", "deguisements": "green", "gants": "green"}


def test_objectives_are_a_resource_and_a_skull_of_another_colour() -> None:
    objs = card_set().objectives.values()
    assert sorted(o.resource for o in objs) == sorted(card_set().resource_order)
    assert all(card(res(o.resource, 1)).colour != o.skull for o in objs)


def test_piece_labels_are_short_and_bilingual() -> None:
    assert GAME.piece_label(res("documents", 5)).fr == "Documents 5"
    assert GAME.piece_label(res("gants", 2)).en == "Gloves 2"
    assert GAME.piece_label(par("hitman", 2)).fr == "Tueur à gages"
    assert GAME.piece_label(obj("poisons")).fr == "Objectif Poisons"
    assert GAME.piece_label("mata-hari/covers/cover/3").en == "Cover 3"
    assert label("zop/x/y/1").fr == "zop/x/y/1"


@pytest.mark.parametrize("players, resources, partners_each, deal, pile, objectives", [
    (3, 6, 2, 13, 9, 6),   # Magnétophones, Poisons, Manteaux + 4 partners of each kind out
    (4, 6, 4, 11, 10, 6),  # same resources out, 2 partners of each kind out
    (5, 9, 4, 9, 30, 9),   # 2 partners of each kind out
    (6, 9, 4, 11, 9, 9),
    (7, 9, 6, 10, 11, 9),  # everything in play
])
def test_setup_table_by_player_count(players: int, resources: int, partners_each: int, deal: int,
                                     pile: int, objectives: int) -> None:
    su = setup(players)
    objs = {card(c).object for c in su.deck if card(c).family == "resource"}
    assert len(objs) == resources
    if players <= 4:
        assert objs.isdisjoint({"magnetophones", "poisons", "manteaux"})
    for kind in ("double-agent", "hitman", "mata-hari"):
        mine = sorted(c for c in su.deck if card(c).partner == kind)
        assert len(mine) == partners_each
        assert mine == [par(kind, n) for n in range(1, partners_each + 1)]  # highest numbers removed
    assert su.deal == deal and len(su.objectives) == objectives
    state = dealt(players)
    assert [len(s.hand) for s in state.seats] == [deal] * players
    assert len(state.pile) == pile
    assert len({s.objective for s in state.seats}) == players
    assert state.phase == "offer" and state.active == 0 and len(state.stock) == 10


def test_player_count_is_3_to_7() -> None:
    for n in (2, 8):
        with pytest.raises(BadConfig):
            GAME.initial_state(GameConfig(players=n))


def test_chance_deals_any_missing_card_to_any_short_seat_uniformly() -> None:
    state = GAME.initial_state(GameConfig(players=3))
    outcomes = GAME.chance_outcomes(state)
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert GAME.to_act(state) == {CHANCE}
    objectives = [a for a, _ in outcomes if "/objectives/" in a["card"]]
    assert len(objectives) == 3 * 6
    # each seat has 13 card slots and 1 objective slot: a slot is chosen uniformly
    p_obj = sum(p for a, p in outcomes if a in objectives)
    assert abs(p_obj - 3 / 42) < 1e-9


def test_dealt_cards_lie_on_the_pad_until_lifted_and_stay_secret() -> None:
    state = GAME.initial_state(GameConfig(players=3))
    deal = {"type": "deal", "seat": 1, "card": res("documents", 5)}
    assert normalise_layout(GAME.footprint(state, CHANCE, deal))["pad.1"] == {res("documents", 5)}
    step = GAME.apply(state, CHANCE, deal)
    assert step.effects[0].audience == frozenset({1})
    state = step.state
    assert GAME.expected_layout(state)["pad.1"] == {res("documents", 5)}
    assert 1 in GAME.to_act(state) and {"type": "lift"} in GAME.legal_actions(state, 1)
    assert GAME.view(state, 0).me.hand == () and GAME.view(state, 1).me.hand == (res("documents", 5),)
    state = play(state, 1, type="lift")
    assert "pad.1" not in normalise_layout(GAME.expected_layout(state))


def test_a_batch_of_cards_may_be_laid_then_lifted_one_by_one_or_at_once() -> None:
    state = GAME.initial_state(GameConfig(players=3))
    for v in (1, 2, 3):
        state = play(state, CHANCE, type="deal", seat=0, card=res("gants", v))
    assert len(state.seats[0].loose) == 3
    assert GAME.view(state, 0).seats[0].cards == 3  # the screen counts them
    one = {"type": "lift", "card": res("gants", 2)}
    assert one in GAME.legal_actions(state, 0)
    state = GAME.apply(state, 0, one).state
    assert state.seats[0].loose == (res("gants", 1), res("gants", 3))
    state = play(state, 0, type="lift")
    assert state.seats[0].loose == ()


def test_impossible_deals_are_refused() -> None:
    state = dealt(3)
    assert GAME.check(state, CHANCE, {"type": "deal", "seat": 0, "card": state.pile[0]}).code == "not_your_turn"
    start = GAME.initial_state(GameConfig(players=3))
    s1 = play(start, CHANCE, type="deal", seat=0, card=obj("gants"))
    assert GAME.check(s1, CHANCE, {"type": "deal", "seat": 0, "card": obj("documents")}).code == "bad_chance"
    assert GAME.check(s1, CHANCE, {"type": "deal", "seat": 1, "card": obj("gants")}).code == "bad_chance"
    assert GAME.check(s1, CHANCE, {"type": "deal", "seat": 9, "card": obj("documents")}).code == "bad_chance"
    assert GAME.check(s1, CHANCE, {"type": "deal", "seat": 0, "card": res("poisons", 1)}).code == "bad_chance"
    assert GAME.check(s1, CHANCE, "nonsense").code == "bad_chance"  # type: ignore[arg-type]
    exc = check_illegal_leaves_state(GAME, s1, 0, {"type": "lay", "card": res("gants", 1)})
    assert exc.code == "dealing"
