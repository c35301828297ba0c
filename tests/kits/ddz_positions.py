"""Drôles de Zèbres positions for the search's tests: seeded random and greedy games stopped at a placement."""

from __future__ import annotations

from games.core import GameConfig
from games.droles_de_zebres import GAME, ai, ai_model
from games.droles_de_zebres.ai_model import P_PLACE, Model
from games.droles_de_zebres.state import DdzState
from games.playout import random_playout, uniform_policy


def endings(left: int, seeds: range) -> list[tuple[DdzState, Model]]:
    """(state, model) at the first placement with `left` animals or fewer to lay, one per seeded
    game (random and greedy games, every board of the registry's default config)."""
    out = []
    for seed in seeds:
        played = random_playout(GAME, GameConfig(players=2), seed, policy=ai.greedy_policy if seed % 2 else uniform_policy)
        state = GAME.initial_state(played.config)
        for seat, act in played.moves:
            state = GAME.apply(state, seat, act).state
            model = ai_model.from_state(state)
            if model.phase == P_PLACE and sum(model.left) <= left:  # a placement: the game is not over
                out.append((state, model))
                break
    return out
