"""A seat's game screen is made again only when the game's key of what it reads changed
(`Game.screen_key`, `SeatFrames.game_screen`): over seeded random games, every seat's screen given
through the kept one is, state by state, the screen made afresh from its view; any two states with
equal keys give equal screens; and a key never depends on another seat's secrets."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pytest

from firmware_host.apps.foresight import Foresight
from firmware_host.apps.seat_frames import SeatFrames
from games.core import Game, GameConfig, Screen
from games.registry import game_ids, get_game
from tests.kits.every_game import screen_configs
from tests.kits.gamekit import states_along

SEEDS = range(6)


class Play:
    """What `SeatFrames.game_screen` reads of a game in progress: the game and its state."""

    def __init__(self, game: Game[Any, Any], state: Any) -> None:
        self.game = game
        self.state = state
        self.foresight = Foresight(self)  # type: ignore[arg-type]  # nothing worked out ahead


def fresh(game: Game[Any, Any], state: Any, seat: int, sensed: bool) -> Screen:
    """The seat's screen made from its view, as without a key."""
    return game.screen(game.view(state, seat), seat, pad_sensed=sensed)


def configs(gid: str) -> list[GameConfig]:
    """The game's sampled set-ups (each game's screen configs)."""
    return screen_configs(gid)


def keyed(gid: str) -> bool:
    """True when the game gives keys of its screens (`Game.screen_key` its own)."""
    return type(get_game(gid)).screen_key is not Game.screen_key


def no_key(gid: str) -> None:
    """A game without keys gives none: its screens are made afresh at every state."""
    game = get_game(gid)
    config = configs(gid)[0]
    for state in states_along(game, config, 0):
        assert all(game.screen_key(state, seat) is None for seat in range(config.players))


@pytest.mark.parametrize("gid", game_ids())
def test_a_kept_screen_is_the_one_made_afresh_state_by_state(gid: str) -> None:
    game = get_game(gid)
    states = kept = 0
    for config in configs(gid):
        for seed in SEEDS:
            along = states_along(game, config, seed)
            for sensed in (True, False):  # a phone seat's screen says to choose in its menu
                play = Play(game, along[0])
                frames = SeatFrames(play)  # type: ignore[arg-type]
                for state in along:
                    play.state = state
                    states += 1
                    for seat in range(config.players):
                        before = frames._screens.get(seat)
                        got = frames.game_screen(seat, sensed)
                        kept += before is not None and got is before[1]
                        assert got == fresh(game, state, seat, sensed), (
                            f"{gid} {config} seed {seed} seat {seat} pad sensed {sensed}: a stale screen kept "
                            f"for key {game.screen_key(state, seat, pad_sensed=sensed)!r}")
    assert states >= 200
    if keyed(gid):  # the path is taken
        assert kept >= 100, f"{gid}: {kept} screens kept over {states} states"


@pytest.mark.parametrize("gid", game_ids())
def test_equal_keys_give_equal_screens(gid: str) -> None:
    # any two states of any game of one set-up, not only one after the other
    if not keyed(gid):
        no_key(gid)
        return
    game = get_game(gid)
    pairs = 0
    for config in configs(gid):
        for seat in range(config.players):
            for sensed in (True, False):
                seen: dict[Hashable, tuple[int, int, Screen]] = {}
                for seed in SEEDS:
                    for i, state in enumerate(states_along(game, config, seed)):
                        key = game.screen_key(state, seat, pad_sensed=sensed)
                        if key is None:
                            continue
                        screen = fresh(game, state, seat, sensed)
                        first = seen.setdefault(key, (seed, i, screen))
                        if first[2] is not screen:
                            pairs += 1
                            assert first[2] == screen, (
                                f"{gid} {config} seat {seat} pad sensed {sensed}: seed {first[0]} state {first[1]} "
                                f"and seed {seed} state {i} share the key {key!r} but not the screen")
    assert pairs >= 100, f"{gid}: {pairs} pairs of states with equal keys"


@pytest.mark.parametrize("gid", game_ids())
def test_a_key_is_the_same_whatever_the_other_seats_secrets(gid: str) -> None:
    # the key is read from the state: it must hold no more of it than the seat's view does
    if not keyed(gid):
        no_key(gid)
        return
    game = get_game(gid)
    variants = 0
    for config in configs(gid):
        for seed in SEEDS[:2]:
            for state in states_along(game, config, seed)[::3]:
                for seat in range(config.players):
                    key = game.screen_key(state, seat, pad_sensed=True)
                    for variant in game.hidden_variants(state, seat):
                        variants += 1
                        assert game.screen_key(variant, seat, pad_sensed=True) == key, (
                            f"{gid} {config} seed {seed} seat {seat}: another seat's secret changes the key")
    assert variants >= 100
