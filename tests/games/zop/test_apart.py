"""ZOP's blind exchange across two tables (option tables = "two"): cards that stay at home, a place
chosen blindly, the card shown on its owner's pad and set aside, a card given back the same way,
each exchanged card laid later from its holder's menu."""

from dataclasses import replace

import pytest

from games.core import GameConfig
from games.zop import GAME
from games.zop.rules_apart import hand_left
from games.zop.state import COMMIT, EXCHANGE, GIVE, PICK, SHOW
from tests.kits.gamekit import check_hidden, check_illegal_leaves_state, check_playouts, states_along

APART = GameConfig(2, {"deck": "sensed", "tables": "two"})
SWAP0, SWAP1 = "zop/light/special/4", "zop/dark/special/4"
STEP_BACK1 = "zop/dark/special/3"


def L(kind: str, n: int) -> str:
    return f"zop/light/{kind}/{n}"


def D(kind: str, n: int) -> str:
    return f"zop/dark/{kind}/{n}"


def play(state, *moves):
    effects = []
    for seat, action in moves:
        step = GAME.apply(state, seat, action)
        state = step.state
        effects += step.effects
    return state, effects


def opened(taker: int = 0):
    """Turn 1 revealed with `taker`'s Échange against an attack: the exchange waits for the pick."""
    cards = {0: SWAP0, 1: D("attack", 3)} if taker == 0 else {0: L("attack", 3), 1: SWAP1}
    state = GAME.initial_state(APART)
    return play(state, (0, {"type": "commit", "card": cards[0]}), (1, {"type": "commit", "card": cards[1]}))


def texts(effects):
    return [e.text.fr for e in effects if e.text.fr]


@pytest.mark.parametrize("taker", [0, 1])
def test_an_exchange_across_tables_takes_blindly_shows_gives_back_and_each_lays_the_other_card(taker):
    victim = 1 - taker
    state, _ = opened(taker)
    assert state.phase == EXCHANGE and state.exchange.stage == PICK and state.exchange.slots == 3
    assert GAME.to_act(state) == {taker}
    assert [c.label.fr for c in GAME.choices(state, taker)] == ["Prendre la n°1", "Prendre la n°2", "Prendre la n°3"]
    assert "mélangez votre main" in [t.fr for t in GAME.screen(GAME.view(state, victim), victim).lines]
    state, _ = play(state, (taker, {"type": "pick", "slot": 2}))
    assert state.exchange.stage == SHOW and GAME.to_act(state) == {victim}
    assert [t.fr for t in GAME.screen(GAME.view(state, victim), victim).lines][1] == "Il prend la n°2 :"
    mine = {0: L, 1: D}
    taken, given = mine[victim]("attack", 5), mine[taker]("defence", 1)
    assert GAME.footprint(state, victim, {"type": "hand_over", "card": taken}) == {f"pad.{victim}": {taken}}
    state, eff = play(state, (victim, {"type": "hand_over", "card": taken}))
    assert state.exchange.stage == GIVE and state.exchange.taken == taken
    assert texts(eff) == ["Échange : Att 5 pris"] and eff[0].audience == {0, 1}
    assert GAME.view(state, None).exchange.taken is None  # spectators never see the card
    assert GAME.explain(state, victim, f"pad.{victim}", taken).code == "lent"
    state, eff = play(state, (taker, {"type": "give", "card": given}))
    assert texts(eff) == ["Échange : Déf 1 donné"]
    assert state.phase == COMMIT and state.turn == 2
    assert state.sides[taker].held == (taken,) and state.sides[victim].held == (given,)
    assert [(s.received, s.given) for s in state.sides] == [(1, 1), (1, 1)]
    # each lays the card it holds from its menu: nothing moves on its pad, and its owner may not lay it
    assert [c.action for c in GAME.choices(state, taker)] == [{"type": "commit", "card": taken}]
    assert GAME.check(state, victim, {"type": "commit", "card": taken}).code == "lent"
    assert GAME.explain(state, taker, f"pad.{taker}", given).code == "lent"
    state, _ = play(state, (taker, {"type": "commit", "card": taken}))
    assert GAME.expected_layout(state) == {}
    assert [c.action["type"] for c in GAME.choices(state, taker)] == ["withdraw"]
    state, _ = play(state, (victim, {"type": "commit", "card": given}))
    assert state.turns[-1].cards[taker] == (taken,) and state.turns[-1].cards[victim] == (given,)


def test_a_refused_card_shown_goes_back_and_another_place_is_chosen_until_none_is_left():
    state, _ = opened(0)
    state, eff = play(state, (0, {"type": "pick", "slot": 1}), (1, {"type": "hand_over", "card": STEP_BACK1}))
    assert state.exchange.stage == PICK and state.exchange.slots == 2 and state.exchange.shown == (STEP_BACK1,)
    told = {e.text.fr: e.audience for e in eff if e.kind == "exchange_refused"}
    assert told == {"Reculer : reprenez-la, il en choisit une autre.": {1}, "Reculer : refusée, choisissez-en une autre.": {0}}
    assert GAME.explain(state, 1, "pad.1", STEP_BACK1).code == "shown"
    state, _ = play(state, (0, {"type": "pick", "slot": 1}))
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "hand_over", "card": STEP_BACK1}).code == "shown"
    after, _ = play(state, (1, {"type": "hand_over", "card": D("special", 5)}))
    assert after.exchange.stage == GIVE and after.exchange.taken == D("special", 5)
    # the last place held a refused card: nothing is left to take, the exchange is void
    state, _ = opened(0)
    state = replace(state, exchange=replace(state.exchange, slots=1))
    state, eff = play(state, (0, {"type": "pick", "slot": 1}), (1, {"type": "hand_over", "card": STEP_BACK1}))
    assert "Échange impossible : aucune carte." in texts(eff)
    assert state.phase == COMMIT and state.turn == 2 and not state.swaps


def test_nothing_to_give_sends_the_card_taken_back_and_no_exchange_is_made():
    state, _ = opened(1)
    state, _ = play(state, (1, {"type": "pick", "slot": 3}), (0, {"type": "hand_over", "card": L("attack", 6)}))
    assert [c.label.fr for c in GAME.choices(state, 1)] == ["Aucune carte à donner"]
    state, eff = play(state, (1, {"type": "exchange_skip"}))
    assert "Rien à donner : la carte prise revient, pas d'échange." in texts(eff)
    assert state.phase == COMMIT and state.sides[0].held == state.sides[1].held == () and not state.swaps
    assert {"type": "commit", "card": L("attack", 6)} in GAME.legal_actions(state, 0)


def test_bad_moves_in_the_exchange_are_refused_with_their_reason_and_change_nothing():
    state, _ = opened(0)
    for seat, action, code in [
        (0, {"type": "pick", "slot": 0}, "bad_slot"), (0, {"type": "pick", "slot": 4}, "bad_slot"),
        (0, {"type": "pick", "slot": True}, "bad_slot"), (0, {"type": "pick", "slot": "1"}, "bad_slot"),
        (0, {"type": "pick", "slot": 1.0}, "bad_slot"), (1, {"type": "pick", "slot": 1}, "not_your_turn"),
        (0, {"type": "pick"}, "bad_action"), (1, {"type": "hand_over", "card": D("attack", 1)}, "wrong_phase"),
        (0, {"type": "give", "card": L("attack", 1)}, "wrong_phase"), (0, {"type": "exchange_done"}, "wrong_phase"),
    ]:
        assert check_illegal_leaves_state(GAME, state, seat, action).code == code, action
    state, _ = play(state, (0, {"type": "pick", "slot": 1}))
    for seat, action, code in [
        (1, {"type": "hand_over", "card": L("attack", 1)}, "not_yours"),  # a card of the wrong deck
        (1, {"type": "hand_over", "card": D("attack", 3)}, "already_played"),
        (1, {"type": "hand_over", "card": "zop/dark/attack/9"}, "bad_card"),
        (1, {"type": "hand_over", "card": 7}, "bad_card"),
        (0, {"type": "hand_over", "card": L("attack", 1)}, "not_your_turn"),
    ]:
        assert check_illegal_leaves_state(GAME, state, seat, action).code == code, action
    state, _ = play(state, (1, {"type": "hand_over", "card": D("attack", 1)}))
    for seat, action, code in [
        (0, {"type": "give", "card": D("attack", 2)}, "not_yours"),
        (0, {"type": "give", "card": L("special", 3)}, "cannot_give"),  # Reculer is never given
        (0, {"type": "give", "card": SWAP0}, "already_played"),
        (1, {"type": "give", "card": D("attack", 2)}, "not_your_turn"),
    ]:
        assert check_illegal_leaves_state(GAME, state, seat, action).code == code, action


def test_the_places_offered_count_the_hand_left_after_laid_and_set_aside_cards():
    state = GAME.initial_state(APART)
    state, _ = play(state, (0, {"type": "commit", "card": SWAP0}), (1, {"type": "commit", "card": SWAP1}))
    assert state.exchange.taker == 0 and state.exchange.slots == 3
    state, _ = play(state, (0, {"type": "pick", "slot": 1}), (1, {"type": "hand_over", "card": D("attack", 1)}),
                    (0, {"type": "give", "card": L("attack", 1)}))
    # the second exchange of the turn: each hand lost the card laid and the card set aside
    assert state.exchange.taker == 1 and state.exchange.slots == 2
    assert hand_left(GAME.deck, state, 0) == hand_left(GAME.deck, state, 1) == 2


def test_random_games_across_tables_make_exchanges_and_play_every_card_to_the_end():
    exchanges = held_laid = 0
    for playout in check_playouts(GAME, [APART], seeds=range(5)):
        rounds = playout.outcome.details["rounds"]
        assert all(r["played"] == [20, 20] for r in rounds)
    for seed in range(5):
        for state in states_along(GAME, APART, seed):
            exchanges += state.phase == COMMIT and state.turn > 1 and bool(state.swaps) and state.swaps[-1].turn == state.turn - 1
            held_laid += any(c in s.held for s in state.sides for c in s.laid)
    assert exchanges > 0 and held_laid > 0


def test_nobody_learns_the_others_face_down_card_with_exchanges_across_tables():
    compared = 0
    for seed in range(4):
        states = states_along(GAME, APART, seed)
        compared += sum(check_hidden(GAME, s, 2) for s in states if any(s.sides[i].held for i in (0, 1)))
    assert compared > 0
