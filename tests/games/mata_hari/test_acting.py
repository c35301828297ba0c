"""Who is to act and who the table may say it waits for are worked out in one look at each seat's
actions (kept for the last state): over the states of seeded playouts, both are what a look at
each seat's legal actions, one question at a time, gives."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import CHANCE, GameConfig
from games.mata_hari import rules_actions
from games.mata_hari.rules import reject
from games.mata_hari.state import DEAL, DRAW, OVER, MHState
from games.playout import random_playout
from games.registry import get_game
from tests.games.mata_hari.test_end import FIVES_3P
from tests.kits.mata_hari_kit import dealt

GAME = get_game("mata-hari")


def seats_with(state: MHState, public: bool) -> frozenset[int]:
    """The seats with a legal action (`public`: besides the visionary claim), one seat at a time."""
    if state.phase == OVER:
        return frozenset()
    out = {i for i in range(state.players)
           if any((not public or a["type"] != "visionary") and reject(state, i, a, True) is None
                  for a in rules_actions.candidates(state, i))}
    if state.phase == DEAL or (state.phase == DRAW and state.draws > 0):
        out.add(CHANCE)
    return frozenset(out)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(GAME.min_players, GAME.max_players))
def test_who_acts_and_who_is_waited_for_are_what_each_seat_s_actions_say(seed: int, players: int) -> None:
    config = GAME.validate_config(GameConfig(players))
    state = GAME.initial_state(config)
    drafting = 0
    for seat, act in random_playout(GAME, config, seed).moves[:250]:
        undrafted = replace(state, seats=tuple(replace(s, draft=None) for s in state.seats))
        drafting += undrafted != state
        # each asked first of a state, then the other (what one leaves kept must not change the other)
        assert rules_actions.waiting_for(state) == seats_with(undrafted, True)
        assert rules_actions.to_act(state) == seats_with(state, False)
        assert rules_actions.waiting_for(state) == seats_with(undrafted, True)
        state = GAME.apply(state, seat, act).state
    assert drafting > 0  # statements composed on screens were met


def test_a_seat_whose_one_move_is_the_visionary_claim_acts_but_is_not_said_to_be_waited_for() -> None:
    state = dealt(3, {1: FIVES_3P})
    assert 1 in rules_actions.to_act(state) and 1 not in rules_actions.waiting_for(state)
    assert rules_actions.to_act(state) == seats_with(state, False)
    assert rules_actions.waiting_for(state) == seats_with(state, True)
