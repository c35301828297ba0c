"""ZOP refuses bad actions with a precise code and a short message, leaving the state untouched."""

from dataclasses import replace

import pytest

from games.core import CHANCE, GameConfig
from games.zop import GAME
from games.zop.state import COMMIT, EXCHANGE, ROUND_END, Side
from tests.kits.gamekit import check_illegal_leaves_state, states_along

SWAP, STEP_BACK = 4, 3


def sensed():
    return GAME.initial_state(GameConfig(2, {"deck": "sensed"}))


def tracked_commit():
    state = GAME.initial_state(GameConfig(2, {"deck": "tracked"}))
    while state.phase != COMMIT:
        state = GAME.apply(state, CHANCE, GAME.chance_outcomes(state)[0][0]).state
    return state


def laid(state, seat, card):
    return GAME.apply(state, seat, {"type": "commit", "card": card}).state


@pytest.mark.parametrize("action", [
    {"type": "fly"}, {"card": "zop/light/attack/1"}, {"type": "commit"}, {"type": "commit", "card": "x", "extra": 1},
    "commit", None, {"type": 3},
])
def test_malformed_actions(action):
    assert check_illegal_leaves_state(GAME, sensed(), 0, action).code == "bad_action"


def test_unknown_card():
    exc = check_illegal_leaves_state(GAME, sensed(), 0, {"type": "commit", "card": "zop/light/attack/9"})
    assert exc.code == "bad_card"


def test_sensed_opponents_card_is_not_yours():
    state = laid(sensed(), 1, "zop/dark/attack/2")
    for card in ("zop/dark/attack/2", "zop/dark/attack/3"):  # same answer: nothing about the laid card
        assert check_illegal_leaves_state(GAME, state, 0, {"type": "commit", "card": card}).code == "not_yours"


def test_tracked_card_not_in_hand():
    state = tracked_commit()
    missing = next(c for c in GAME.deck.ids("light") if c not in state.sides[0].hand)
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "commit", "card": missing}).code == "not_in_hand"


def test_card_already_played_this_round():
    state = laid(laid(sensed(), 0, "zop/light/attack/1"), 1, "zop/dark/attack/1")
    exc = check_illegal_leaves_state(GAME, state, 0, {"type": "commit", "card": "zop/light/attack/1"})
    assert exc.code == "already_played"


def test_enough_cards_laid_and_already_laid():
    state = laid(sensed(), 0, "zop/light/attack/1")
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "commit", "card": "zop/light/attack/2"}).code \
        == "enough_cards"


def owing_two():
    """Turn 2 after the light player's Reculer pour mieux sauter: it lays two cards."""
    return laid(laid(sensed(), 0, f"zop/light/special/{STEP_BACK}"), 1, "zop/dark/attack/1")


def test_already_laid_with_two_cards_owed():
    state = laid(owing_two(), 0, "zop/light/attack/3")
    exc = check_illegal_leaves_state(GAME, state, 0, {"type": "commit", "card": "zop/light/attack/3"})
    assert exc.code == "already_laid"


def test_withdraw_rules():
    assert check_illegal_leaves_state(GAME, sensed(), 0, {"type": "withdraw", "card": "zop/light/attack/1"}).code \
        == "not_laid"
    both = laid(laid(owing_two(), 0, "zop/light/special/1"), 0, "zop/light/attack/5")
    assert both.sides[0].laid == ("zop/light/special/1", "zop/light/attack/5")
    exc = check_illegal_leaves_state(GAME, both, 0, {"type": "withdraw", "card": "zop/light/special/1"})
    assert exc.code == "withdraw_last"
    back = GAME.apply(both, 0, {"type": "withdraw", "card": "zop/light/attack/5"}).state
    assert back.sides[0].laid == ("zop/light/special/1",)


def test_not_your_turn_and_wrong_phase():
    state = sensed()
    assert check_illegal_leaves_state(GAME, state, 5, {"type": "commit", "card": "zop/light/attack/1"}).code \
        == "not_your_turn"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "next_round"}).code == "wrong_phase"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "give", "card": "zop/light/attack/1"}).code \
        == "wrong_phase"
    assert check_illegal_leaves_state(GAME, state, CHANCE, {"type": "draw", "seat": 0, "card": "x"}).code \
        == "not_your_turn"


def test_seat_without_cards_is_not_to_act():
    state = sensed()
    line = tuple(GAME.deck.ids("light"))
    state = replace(state, sides=(Side(line=line), state.sides[1]))
    assert GAME.to_act(state) == {1}
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "commit", "card": "zop/light/attack/1"}).code \
        == "not_your_turn"


def test_exchange_rejections():
    state = laid(laid(sensed(), 0, f"zop/light/special/{SWAP}"), 1, "zop/dark/attack/2")
    assert state.phase == EXCHANGE
    assert check_illegal_leaves_state(GAME, state, 1, {"type": "exchange_done"}).code == "not_your_turn"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "give", "card": "zop/light/attack/1"}).code \
        == "wrong_phase"
    assert check_illegal_leaves_state(GAME, state, 0, {"type": "commit", "card": "zop/light/attack/1"}).code \
        == "wrong_phase"


def test_tracked_gift_rejections():
    state = tracked_commit()
    sides = (replace(state.sides[0], hand=("zop/light/special/4", "zop/light/attack/1", "zop/light/special/3")),
             replace(state.sides[1], hand=("zop/dark/attack/2", "zop/dark/defence/2")))
    state = laid(laid(replace(state, sides=sides), 0, "zop/light/special/4"), 1, "zop/dark/attack/2")
    assert check_illegal_leaves_state(GAME, state, CHANCE, {"type": "blind_take", "card": "zop/dark/attack/2"}).code \
        == "bad_chance"
    state = GAME.apply(state, CHANCE, {"type": "blind_take", "card": "zop/dark/defence/2"}).state
    for card, code in (("zop/dark/defence/2", "cannot_give"), ("zop/light/special/3", "cannot_give"),
                       ("zop/light/attack/6", "cannot_give"), ("nope", "bad_card")):
        assert check_illegal_leaves_state(GAME, state, 0, {"type": "give", "card": card}).code == code


def test_review_rejections():
    end = next(s for s in states_along(GAME, GameConfig(2, {"deck": "sensed"}), 3) if s.phase == ROUND_END)
    for turn in (0, 1, 99, "2", True):
        assert check_illegal_leaves_state(GAME, end, 0, {"type": "review", "turn": turn}).code == "bad_turn"


def test_messages_fit_the_screen():
    from games.zop.texts import REFUSALS
    assert len(REFUSALS.keys()) >= 17
    for key in REFUSALS.keys():  # noqa: SIM118
        message = REFUSALS(key).message
        for msg in (message.fr, message.en):
            assert len(msg) <= 63, msg  # three lines of 21 characters
