"""Seat screens sampled from seeded random playouts, with each seat's button menu: what the
elision property test renders (and a benchmark can reuse). The set-ups sampled are the game's
`screen_configs` (tests/kits/every_game.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from games.core import CHANCE, Game, GameConfig, Screen, Text
from games.playout import sample_chance
from games.registry import get_game
from tests.kits.every_game import screen_configs


@dataclass(frozen=True)
class Sample:
    """One seat's screen in one state, with the menu the table would show under it."""

    game: str
    seed: int
    move: int
    seat: int | None
    screen: Screen
    menu: tuple[Text, ...]


def samples(game_id: str, count: int, seed: int = 0) -> Iterator[Sample]:
    """`count` seat screens (every seat and the public screen at every state) of seeded playouts."""
    game = get_game(game_id)
    configs = screen_configs(game_id)
    n, run = 0, 0
    while True:
        config = game.validate_config(configs[run % len(configs)])
        config = GameConfig(config.players, dict(config.options), seed + run)
        rng = random.Random(f"{seed}/{run}")
        state = game.initial_state(config)
        for move in range(5000):
            acting = game.to_act(state)
            for seat in (*range(config.players), None):
                screen = game.screen(game.view(state, seat), seat)
                # only seats to act have a menu of the game's own
                menu = tuple(c.label for c in game.choices(state, seat)) if seat in acting else ()
                yield Sample(game_id, seed + run, move, seat, screen, menu)
                n += 1
                if n >= count:
                    return
            if game.outcome(state) is not None:
                break
            state = _step(game, state, rng)
        run += 1


def _step(game: Game, state: object, rng: random.Random) -> object:
    seats = sorted(game.to_act(state))
    seat = rng.choice(seats)
    if seat == CHANCE:
        return game.apply(state, CHANCE, sample_chance(game, state, rng)).state
    return game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
