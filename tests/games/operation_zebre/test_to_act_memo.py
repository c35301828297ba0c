"""Who is to act is worked out once for the last state asked: over the states of seeded playouts
(cooperative and competitive), asked after the state before, it is what is worked out afresh,
and so is every seat's menu of legal actions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import GameConfig
from games.operation_zebre import rules
from games.playout import random_playout
from games.registry import get_game

GAME = get_game("operation-zebre")


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(GAME.min_players, 8))
def test_who_is_to_act_is_what_is_worked_out_afresh(seed: int, players: int) -> None:
    config = GAME.validate_config(GameConfig(players, {}, seed))
    state = previous = GAME.initial_state(config)
    afresh = rules.to_act.__wrapped__  # type: ignore[attr-defined]
    acting = 0
    for seat, act in random_playout(GAME, config, seed).moves[:150]:
        rules.to_act(previous)  # the memo holds another state now
        assert rules.to_act(state) == afresh(state)
        acting += len(afresh(state))
        rules.to_act(previous)
        for s in range(players):
            legal = GAME.legal_actions(state, s)
            rules.to_act(previous)
            assert GAME.legal_actions(state, s) == legal
        previous, state = state, GAME.apply(state, seat, act).state
    assert acting > 0
