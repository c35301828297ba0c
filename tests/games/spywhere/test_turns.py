"""Spywhere turns: draw, swap, triples (own-nationality refusal, bonus, refill, re-triple), identification."""

from dataclasses import replace

from games.core import CHANCE, to_json
from games.spywhere import GAME
from games.spywhere.rules_turn import redraw_can_avoid_triple
from games.spywhere.state import BONUS, DRAW, IDENTIFY, REFILL, SWAP, TAKE
from tests.kits.gamekit import check_illegal_leaves_state
from tests.kits.spywhere_kit import apply_all, card, cards_of, make_state

SPAIN_PAIR = (card("espagne", 1), card("espagne", 2), card("france", 10), card("allemagne", 10), card("italie", 10))


def test_turn_starts_with_a_chance_draw_into_the_hand():
    state = make_state(step=DRAW)
    assert GAME.to_act(state) == {CHANCE}
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == len(state.pile) and all(a["type"] == "draw" for a, _ in outcomes)
    step = GAME.apply(state, CHANCE, {"type": "draw", "card": card("italie", 5)})
    assert card("italie", 5) in step.state.hands[0] and len(step.state.hands[0]) == 4
    assert step.state.step == SWAP and len(step.state.pile) == len(state.pile) - 1
    assert step.effects[0].audience == frozenset({0})  # only the drawer learns the card


def test_swap_exchanges_a_hand_card_with_a_centre_card():
    state = make_state()
    hand_card = state.hands[0][0]
    step = GAME.apply(state, 0, {"type": "swap", "slot": 2, "card": hand_card})
    after = step.state
    assert after.centre[1] == hand_card and card("italie", 10) in after.hands[0]
    assert hand_card not in after.hands[0] and len(after.hands[0]) == 3
    assert after.last_swap == (0, 2, hand_card, card("italie", 10))
    assert after.step == IDENTIFY  # no triple in the centre


def test_swap_rejections_leave_the_state_unchanged():
    state = make_state(centre=(None, *make_state().centre[1:]))
    cases = {
        "not_in_hand": {"type": "swap", "slot": 2, "card": card("italie", 10)},
        "bad_slot": {"type": "swap", "slot": 6, "card": state.hands[0][0]},
        "empty_slot": {"type": "swap", "slot": 1, "card": state.hands[0][0]},
        "bad_action": {"type": "swap", "slot": 2},
        "unknown_action": {"type": "steal"},
        "wrong_step": {"type": "leave"},
    }
    for code, act in cases.items():
        assert check_illegal_leaves_state(GAME, state, 0, act).code == code, code
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "end_turn"}).code == "not_your_turn"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "swap", "slot": True,
                                                       "card": state.hands[0][0]}).code == "bad_slot"
    assert GAME.check(state, 0, ["not", "a", "dict"]).code == "bad_action"  # type: ignore[arg-type]


def test_a_triple_of_another_nationality_is_taken_with_a_bonus_card_and_a_refill():
    state = make_state(hands=(cards_of("espagne", 3, 4, 5), cards_of("italie", 1, 2, 3), cards_of("angleterre", 1, 2, 3)),
                       centre=SPAIN_PAIR)
    state = GAME.apply(state, 0, {"type": "swap", "slot": 3, "card": card("espagne", 3)}).state
    assert state.step == TAKE
    assert GAME.legal_actions(state, 0) == [{"type": "take", "slots": [1, 2, 3]}, {"type": "leave"}]
    step = GAME.apply(state, 0, {"type": "take", "slots": [3, 1, 2]})
    state = step.state
    assert state.clues[0] == cards_of("espagne", 1, 2, 3) and state.centre[:3] == (None, None, None)
    assert state.step == BONUS and GAME.to_act(state) == {CHANCE}
    assert step.effects[0].audience is None  # the clue pile is public
    state = GAME.apply(state, CHANCE, {"type": "draw", "card": card("angleterre", 9)}).state
    assert card("angleterre", 9) in state.hands[0] and state.step == REFILL
    assert {a["slot"] for a, _ in GAME.chance_outcomes(state)} == {1, 2, 3}
    state = apply_all(GAME, state, [(CHANCE, {"type": "centre", "slot": s, "card": card("italie", 10 + s)})
                                    for s in (2, 3, 1)])
    assert None not in state.centre and state.step == IDENTIFY


def test_a_triple_of_the_players_own_nationality_is_refused_secretly():
    # seat 0 is French: a French triple may only be left, and the public view cannot tell
    centre = (card("france", 10), card("france", 11), card("espagne", 1), card("allemagne", 10), card("italie", 10))
    hands = (cards_of("france", 1, 2, 3), cards_of("italie", 1, 2, 3), cards_of("angleterre", 1, 2, 3))
    state = make_state(hands=hands, centre=centre)
    state = GAME.apply(state, 0, {"type": "swap", "slot": 3, "card": card("france", 1)}).state
    assert state.step == TAKE and GAME.legal_actions(state, 0) == [{"type": "leave"}]
    exc = check_illegal_leaves_state(GAME, state, 0, {"type": "take", "slots": [1, 2, 3]})
    assert exc.code == "triple_refused"
    for text in (exc.rejection.message.fr, exc.rejection.message.en):
        assert "France" not in text and "nationalit" not in text
    # the same position with a Spanish seat 0: it may take; every other seat sees exactly the same
    spanish = replace(state, passports=(state.passports[0][:0] + ("spywhere/passport/espagne/1",),
                                        *state.passports[1:]))
    assert {"type": "take", "slots": [1, 2, 3]} in GAME.legal_actions(spanish, 0)
    for seat in (None, 1, 2):
        assert to_json(GAME.view(state, seat)) == to_json(GAME.view(spanish, seat))
        assert to_json(GAME.screen(GAME.view(state, seat), seat)) == to_json(
            GAME.screen(GAME.view(spanish, seat), seat))


def test_two_players_may_take_neither_of_their_nationalities():
    centre = (card("espagne", 10), card("espagne", 11), card("espagne", 12), card("italie", 10), card("italie", 11))
    state = make_state(players=2, nats=("espagne", "italie", "france", "allemagne"),
                       hands=(cards_of("italie", 1, 2, 3), cards_of("angleterre", 1, 2, 3)), centre=centre, turn=0)
    state = GAME.apply(state, 0, {"type": "swap", "slot": 1, "card": card("italie", 1)}).state
    assert state.step == TAKE and GAME.legal_actions(state, 0) == [{"type": "leave"}]  # Italian triple: own
    state = replace(make_state(players=2, nats=("espagne", "italie", "france", "allemagne"), centre=centre),
                    step=TAKE)
    assert GAME.legal_actions(state, 0) == [{"type": "leave"}]  # Spanish triple: own too
    other = make_state(players=2, nats=("france", "allemagne", "espagne", "italie"),
                       hands=(cards_of("france", 1, 2, 3), cards_of("angleterre", 1, 2, 3)), centre=centre)
    other = GAME.apply(other, 0, {"type": "swap", "slot": 4, "card": card("france", 1)}).state
    assert other.step == TAKE and {"type": "take", "slots": [1, 2, 3]} in GAME.legal_actions(other, 0)


def test_four_identical_centre_cards_offer_each_triple():
    centre = (*cards_of("italie", 10, 11, 12), card("france", 10), card("allemagne", 10))
    state = make_state(centre=centre, hands=(cards_of("italie", 1, 2, 3), cards_of("france", 1, 2, 3),
                                             cards_of("angleterre", 1, 2, 3)))
    state = GAME.apply(state, 0, {"type": "swap", "slot": 4, "card": card("italie", 1)}).state
    takes = [a["slots"] for a in GAME.legal_actions(state, 0) if a["type"] == "take"]
    assert takes == [[1, 2, 3], [1, 2, 4], [1, 3, 4], [2, 3, 4]]
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "take", "slots": [1, 2, 5]}).code == "not_a_triple"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "take", "slots": [1, 1, 2]}).code == "bad_slots"


def test_leaving_the_triple_goes_to_identification_and_keeps_the_centre():
    state = make_state(hands=(cards_of("espagne", 3, 4, 5), cards_of("italie", 1, 2, 3), cards_of("angleterre", 1, 2, 3)),
                       centre=SPAIN_PAIR)
    state = apply_all(GAME, state, [(0, {"type": "swap", "slot": 3, "card": card("espagne", 3)}), (0, {"type": "leave"})])
    assert state.step == IDENTIFY and state.clues[0] == () and state.centre[2] == card("espagne", 3)


def test_a_triple_already_in_the_centre_is_offered_after_any_swap():
    centre = (*cards_of("italie", 10, 11, 12), card("france", 10), card("allemagne", 10))
    state = make_state(centre=centre)
    state = GAME.apply(state, 0, {"type": "swap", "slot": 5, "card": state.hands[0][0]}).state
    assert state.step == TAKE


def _refill_triple_position(retriple: bool, pile: tuple[str, ...]):
    """Seat 0 took a triple from slots 1-3; the centre keeps two Italians."""
    centre = (None, None, None, card("italie", 10), card("italie", 11))
    return make_state(centre=centre, pile=pile, step=REFILL, retriple=retriple)


def _lay(state, *cards):
    """Lay cards from the pile on the empty slots, lowest first."""
    for c in cards:
        slot = state.centre.index(None) + 1
        state = GAME.apply(state, CHANCE, {"type": "centre", "slot": slot, "card": c}).state
    return state


def test_without_the_optional_rule_a_refill_triple_stays():
    state = _refill_triple_position(False, (card("italie", 12), *cards_of("angleterre", 10, 11, 12)))
    state = _lay(state, card("italie", 12), card("angleterre", 10), card("angleterre", 11))
    assert state.step == IDENTIFY and state.centre[0] == card("italie", 12)
    # the next player meets the triple after their swap
    state = apply_all(GAME, state, [(0, {"type": "end_turn"}), (CHANCE, {"type": "draw", "card": card("angleterre", 12)})])
    state = GAME.apply(state, 1, {"type": "swap", "slot": 2, "card": state.hands[1][0]}).state
    assert state.step == TAKE


def test_optional_rule_shuffles_a_refill_triple_back_and_redraws_repeatedly():
    pile = (card("italie", 12), *cards_of("angleterre", 10, 11, 12), *cards_of("france", 11, 12))
    state = _refill_triple_position(True, pile)
    state = _lay(state, card("italie", 12), card("angleterre", 10))
    step = GAME.apply(state, CHANCE, {"type": "centre", "slot": 3, "card": card("angleterre", 11)})
    state = step.state
    # the Italian triple (the fresh card of slot 1 and the two older ones) goes back into the pile
    assert state.step == REFILL
    assert state.centre == (None, card("angleterre", 10), card("angleterre", 11), None, None)
    assert {card("italie", 10), card("italie", 11), card("italie", 12)} <= set(state.pile)
    assert step.effects[-1].kind == "return_to_pile" and step.effects[-1].audience is None
    assert step.effects[-1].data["zones"] == ["centre.1", "centre.4", "centre.5"]
    # the redraw makes an English triple: back it goes too
    state = _lay(state, card("angleterre", 12), card("france", 11), card("france", 12))
    assert state.step == REFILL and state.centre == (None, None, None, card("france", 11), card("france", 12))
    assert set(cards_of("angleterre", 10, 11, 12)) <= set(state.pile)
    # a third draw without any triple ends the rule
    state = _lay(state, card("italie", 10), card("italie", 11), card("angleterre", 10))
    assert state.step == IDENTIFY and None not in state.centre


def test_optional_rule_stops_when_no_redraw_can_avoid_a_triple():
    centre = (None, None, None, card("italie", 10), card("italie", 11))
    assert not redraw_can_avoid_triple(centre, cards_of("italie", 12, 13, 14))
    assert not redraw_can_avoid_triple(centre, (*cards_of("italie", 12, 13), *cards_of("france", 1, 2)))
    assert not redraw_can_avoid_triple(centre, (*cards_of("italie", 12, 13), *cards_of("france", 1, 2, 3)))
    assert redraw_can_avoid_triple(centre, (*cards_of("italie", 12, 13), *cards_of("france", 1, 2), card("espagne", 1)))
    # only Italians and English come back while two English stay: every redraw makes a triple
    state = _refill_triple_position(True, (card("italie", 12), *cards_of("angleterre", 10, 11, 12)))
    state = _lay(state, card("italie", 12), card("angleterre", 10), card("angleterre", 11))
    assert state.step == IDENTIFY and state.centre[0] == card("italie", 12)


def test_take_with_an_empty_pile_skips_bonus_and_refill():
    state = make_state(hands=(cards_of("espagne", 3, 4, 5), cards_of("italie", 1, 2, 3), cards_of("angleterre", 1, 2, 3)),
                       centre=SPAIN_PAIR, pile=())
    state = apply_all(GAME, state, [(0, {"type": "swap", "slot": 3, "card": card("espagne", 3)}),
                                    (0, {"type": "take", "slots": [1, 2, 3]})])
    assert state.step == IDENTIFY and state.centre[:3] == (None, None, None)


def test_one_identification_per_turn_then_the_turn_passes():
    state = make_state(step=IDENTIFY)
    step = GAME.apply(state, 0, {"type": "identify", "target": 2, "nationality": "angleterre"})
    state = step.state
    assert state.guesses[0] == ((2, "angleterre"),) and state.active == 1 and state.step == DRAW
    public = [e for e in step.effects if e.audience is None]
    assert public and all("Angleterre" not in e.text.fr and "angleterre" not in str(e.data) for e in public)
    assert [e.audience for e in step.effects if "angleterre" in str(e.data)] == [frozenset({0})]


def test_each_opponent_once_and_each_identification_card_once():
    state = make_state(step=IDENTIFY, guesses=(((2, "angleterre"),), (), ()))
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "identify", "target": 2,
                                                       "nationality": "france"}).code == "already_identified"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "identify", "target": 1,
                                                       "nationality": "angleterre"}).code == "card_used"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "identify", "target": 0,
                                                       "nationality": "france"}).code == "bad_target"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "identify", "target": 1,
                                                       "nationality": "suisse"}).code == "unknown_nationality"
    targets = {a["target"] for a in GAME.legal_actions(state, 0) if a["type"] == "identify"}
    assert targets == {1}


def test_end_turn_without_identifying():
    state = GAME.apply(make_state(step=IDENTIFY), 0, {"type": "end_turn"}).state
    assert state.active == 1 and state.step == DRAW and state.turn == 1 and state.guesses[0] == ()


def test_two_players_identify_only_from_the_fifth_round():
    """Rulebook (2 joueurs): « Aucune tentative d'identification ne pourra être faite avant le 5e
    tour de jeu », read by default as the 5th round (option identify_from=round; the other reading
    is in test_spywhere_rulebook.py)."""
    hands = (cards_of("italie", 1, 2, 3), cards_of("angleterre", 1, 2, 3))
    state = make_state(players=2, nats=("espagne", "france", "italie", "allemagne"), hands=hands, turn=7, active=1)
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "identify", "target": 0,
                                                       "nationality": "espagne"}).code == "too_early"
    state = GAME.apply(state, 1, {"type": "swap", "slot": 1, "card": card("angleterre", 1)}).state
    assert state.step == DRAW and state.active == 0 and state.turn == 8  # round 4 over: no identification step
    state = apply_all(GAME, state, [(CHANCE, {"type": "draw", "card": card("france", 1)})])
    state = GAME.apply(state, 0, {"type": "swap", "slot": 1, "card": card("italie", 1)}).state
    assert state.step == IDENTIFY  # round 5
    state = GAME.apply(state, 0, {"type": "identify", "target": 1, "nationality": "italie"}).state
    assert state.guesses[0] == ((1, "italie"),)


def test_clue_pile_and_hand_count_are_public_hand_cards_are_not():
    state = make_state(clues=(cards_of("espagne", 1, 2, 3), (), ()))
    view = GAME.view(state, 1)
    assert view.seats[0].clues == cards_of("espagne", 1, 2, 3) and view.seats[0].hand == 3
    assert not set(state.hands[0]) & strings(to_json(view))
    assert set(state.hands[1]) <= strings(to_json(view))


def strings(value) -> set[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()
