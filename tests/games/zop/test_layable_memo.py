"""The cards a seat may lay are worked out once for the last state asked: over the states of
seeded playouts, asked for either seat in turn and of the state before, they are the cards
worked out afresh, and each card's check says the same."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import GameConfig
from games.playout import random_playout
from games.registry import get_game
from games.zop import rules_supply

GAME = get_game("zop")


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tracked=st.booleans())
def test_the_cards_a_seat_may_lay_are_the_ones_worked_out_afresh(seed: int, tracked: bool) -> None:
    config = GAME.validate_config(GameConfig(2, {"deck": "tracked"} if tracked else {}))
    deck = GAME.deck  # type: ignore[attr-defined]
    state = previous = GAME.initial_state(config)
    afresh = rules_supply.layable.__wrapped__  # type: ignore[attr-defined]
    asked = 0
    for seat, act in random_playout(GAME, config, seed).moves[:80]:
        for s in (0, 1, 0):
            rules_supply.layable(deck, previous, 1 - s)  # the memo holds another question now
            cards = rules_supply.layable(deck, state, s)
            assert cards == afresh(deck, state, s)
            asked += len(cards)
            for card in deck.all_ids()[:12]:
                want = GAME.check(state, s, {"type": "commit", "card": card})
                rules_supply.layable(deck, previous, s)
                assert GAME.check(state, s, {"type": "commit", "card": card}) == want
        previous, state = state, GAME.apply(state, seat, act).state
    assert asked > 0
