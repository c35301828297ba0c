"""Who the game waits for is told to every screen, page and ear at the table (`Game.waiting_for`):
it may depend on public information only, whatever the seats' secrets are."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import GameConfig
from games.registry import game_ids, game_info, get_game
from tests.kits.gamekit import states_along


@pytest.mark.parametrize("gid", game_ids())
@settings(max_examples=24, deadline=None)
@given(data=st.data(), seed=st.integers(0, 100_000), seat=st.integers(0, 3), offset=st.integers(0, 2))
def test_waiting_for_is_the_same_whatever_the_hidden_cards(gid: str, data: st.DataObject, seed: int, seat: int,
                                                          offset: int) -> None:
    # one seat's secrets and every third state of a game per example: all of them over the examples
    # (every state of every seat took two minutes: Mata Hari's states have hundreds of variants)
    info = game_info(gid)
    players = data.draw(st.sampled_from(sorted({info.min_players, min(4, info.max_players)})), label="players")
    game = get_game(gid)
    seat %= players
    for state in states_along(game, GameConfig(players, {}), seed)[offset::3]:
        waiting = game.waiting_for(state)
        for variant in game.hidden_variants(state, seat):
            assert game.waiting_for(variant) == waiting, f"{gid}: seat {seat}'s secrets change who is waited for"


def test_a_visionary_hand_is_not_told_by_whose_turn_it_is() -> None:
    from tests.games.mata_hari.test_end import FIVES_3P, GAME, dealt

    state = dealt(3, {1: FIVES_3P})
    assert {"type": "visionary", "value": 5} in GAME.legal_actions(state, 1)
    assert 1 in GAME.to_act(state)  # it may claim the win at any time...
    assert 1 not in GAME.waiting_for(state)  # ...but nobody is told it could
