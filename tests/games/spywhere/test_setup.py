"""Spywhere set-up: removed nationality, passports (two with 2 players), hands, centre, options."""

import random
from dataclasses import replace

import pytest

from games.core import CHANCE, BadConfig, GameConfig
from games.spywhere import GAME
from games.spywhere.pieces import card_set, passport
from games.spywhere.state import DRAW, PLAY, SETUP
from tests.kits.gamekit import check_illegal_leaves_state
from tests.kits.spywhere_kit import card, fresh


def deal_everything(state, seed=0):
    """Choose a removed nationality if needed, then sample set-up deals until the first turn."""
    rng = random.Random(seed)
    if state.removal_pending:
        state = GAME.apply(state, state.first, rng.choice(GAME.legal_actions(state, state.first))).state
    while state.phase == SETUP:
        outcomes = GAME.chance_outcomes(state)
        state = GAME.apply(state, CHANCE, rng.choice(outcomes)[0]).state
    return state


@pytest.mark.parametrize("players", [5, 6])
def test_five_and_six_players_play_every_nationality(players):
    state = fresh(players)
    assert state.nationalities == card_set().ids and state.removed is None and not state.removal_pending
    assert len(state.pile) == 108
    state = deal_everything(state)
    assert len(state.pile) == 108 - 3 * players - 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_four_players_or_fewer_remove_the_chosen_nationality_entirely(players):
    state = fresh(players, removed_nationality="italie")
    assert state.removed == "italie" and "italie" not in state.nationalities
    assert len(state.pile) == 90 and not any("/italie/" in c for c in state.pile)
    outcomes = [a for a, _ in GAME.chance_outcomes(state)]
    assert not any("italie" in a["card"] for a in outcomes)  # no passport, no card of Italy
    state = deal_everything(state)
    assert all("italie" not in p for ps in state.passports for p in ps)


def test_removed_nationality_cannot_be_identified():
    state = replace(deal_everything(fresh(3, removed_nationality="italie")), step="identify")
    exc = check_illegal_leaves_state(GAME, state, state.active,
                                     {"type": "identify", "target": (state.active + 1) % 3, "nationality": "italie"})
    assert exc.code == "nationality_removed"
    assert all(a["nationality"] != "italie" for a in GAME.legal_actions(state, state.active) if a["type"] == "identify")


def test_by_default_the_first_player_chooses_the_removed_nationality_on_their_screen():
    state = fresh(4, first_player=2)
    assert state.removal_pending and GAME.to_act(state) == {2} and GAME.chance_outcomes(state) == []
    menu = GAME.choices(state, 2)
    assert [c.action["nationality"] for c in menu] == list(card_set().ids)
    assert menu[-1].label.fr == "Retirer Italie"
    assert GAME.choices(state, 0) == []
    assert check_illegal_leaves_state(GAME, state, 2, {"type": "remove", "nationality": "suisse"}).code == \
        "unknown_nationality"
    assert check_illegal_leaves_state(GAME, state, 2, {"type": "draw", "card": "x"}).code == "unknown_action"
    assert check_illegal_leaves_state(GAME, state, 2, {"type": "end_turn"}).code == "wrong_step"
    assert check_illegal_leaves_state(GAME, state, CHANCE, {"type": "deal", "to": 0,
                                                            "card": card("france", 1)}).code == "not_your_turn"
    step = GAME.apply(state, 2, {"type": "remove", "nationality": "espagne"})
    assert step.state.removed == "espagne" and len(step.state.pile) == 90 and GAME.to_act(step.state) == {CHANCE}
    assert step.effects[0].audience is None  # everybody sees which nationality went back in the box


def test_removal_option_refused_with_five_players_and_unknown_values():
    with pytest.raises(BadConfig, match="removed only"):
        GAME.validate_config(GameConfig(players=5, options={"removed_nationality": "france"}))
    with pytest.raises(BadConfig):
        GAME.validate_config(GameConfig(players=3, options={"removed_nationality": "suisse"}))
    with pytest.raises(BadConfig):
        GAME.validate_config(GameConfig(players=7))
    with pytest.raises(BadConfig):
        GAME.validate_config(GameConfig(players=1))


def test_first_player_option():
    with pytest.raises(BadConfig, match="first_player"):
        GAME.validate_config(GameConfig(players=3, options={"first_player": 3}))
    state = deal_everything(fresh(3, first_player="2"))
    assert state.phase == PLAY and state.step == DRAW and state.active == 2
    assert GAME.validate_config(GameConfig(players=3)).options == {
        "removed_nationality": "choose", "retriple": "off", "first_player": 0, "identify_from": "round"}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_gives_passports_hands_and_centre(players):
    state = deal_everything(fresh(players), seed=players)
    per = 2 if players == 2 else 1
    assert all(len(ps) == per for ps in state.passports)
    dealt = [p for ps in state.passports for p in ps]
    assert len(set(dealt)) == len(dealt)
    assert all(len(h) == 3 for h in state.hands) and None not in state.centre
    assert state.phase == PLAY and state.active == 0 and state.turn == 0


def test_deals_come_in_any_order_and_refuse_impossible_ones():
    state = fresh(3, removed_nationality="belgique")
    state = GAME.apply(state, CHANCE, {"type": "centre", "slot": 4, "card": card("france", 1)}).state
    state = GAME.apply(state, CHANCE, {"type": "deal", "to": 2, "card": card("italie", 1)}).state
    step = GAME.apply(state, CHANCE, {"type": "passport", "to": 1, "card": passport("espagne")})
    state = step.state
    assert state.passports[1] == (passport("espagne"),) and state.hands[2] == (card("italie", 1),)
    # the passport scan is shown only to its owner
    assert {e.audience for e in step.effects} == {frozenset({1})}
    cases = {
        "slot_taken": {"type": "centre", "slot": 4, "card": card("france", 2)},
        "not_in_pile": {"type": "deal", "to": 0, "card": card("france", 1)},
        "passport_unavailable": {"type": "passport", "to": 0, "card": passport("espagne")},
        "seat_served": {"type": "passport", "to": 1, "card": passport("france")},
        "bad_chance": {"type": "deal", "to": 7, "card": card("france", 3)},
        "bad_slot": {"type": "centre", "slot": 0, "card": card("france", 3)},
    }
    for code, act in cases.items():
        assert check_illegal_leaves_state(GAME, state, CHANCE, act).code == code
    removed = check_illegal_leaves_state(GAME, state, CHANCE, {"type": "passport", "to": 0,
                                                               "card": passport("belgique")})
    assert removed.code == "passport_unavailable"


def test_chance_outcomes_all_pass_check_and_sum_to_one():
    state = fresh(2, removed_nationality="france")
    rng = random.Random(5)
    while state.phase == SETUP:
        outcomes = GAME.chance_outcomes(state)
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        assert all(GAME.check(state, CHANCE, a) is None for a, _ in rng.sample(outcomes, min(40, len(outcomes))))
        state = GAME.apply(state, CHANCE, rng.choice(outcomes)[0]).state
    assert GAME.legal_actions(state, CHANCE) == []


def test_setup_seat_screens_show_own_progress_only():
    state = fresh(3, removed_nationality="belgique")
    state = GAME.apply(state, CHANCE, {"type": "passport", "to": 0, "card": passport("italie")}).state
    mine = GAME.screen(GAME.view(state, 0), 0)
    other = GAME.screen(GAME.view(state, 1), 1)
    assert any("Italie" in line.fr for line in mine.lines)
    assert not any("Italie" in line.fr or "Ita" in line.fr for line in other.lines)
