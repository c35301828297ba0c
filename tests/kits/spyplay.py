"""Seeded games of Spywhere whose players seldom identify: they run to the pile's end (the longest
games, where most of the host seats' stand-ins are shown from the pile or laid in the centre)."""

from __future__ import annotations

import random
from typing import Any

from games.core import CHANCE, Action, Game, GameConfig
from games.playout import sample_chance

QUIET = 0.97  # how often a player who may do something else does not identify


def quiet_playout(game: Game[Any, Any], config: GameConfig, seed: int) -> list[tuple[int, Action]]:
    """The moves of a seeded game whose players identify 3% of the time they may."""
    rng = random.Random(seed)
    state = game.initial_state(config)
    moves: list[tuple[int, Action]] = []
    while game.outcome(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        if seat == CHANCE:
            action = sample_chance(game, state, rng)
        else:
            legal = game.legal_actions(state, seat)
            quiet = [a for a in legal if a["type"] not in ("identify", "done")]
            action = rng.choice(quiet if quiet and rng.random() < QUIET else legal)
        moves.append((seat, action))
        state = game.apply(state, seat, action).state
    return moves
