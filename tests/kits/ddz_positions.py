"""Drôles de Zèbres positions for the search's tests, from seeded random and greedy games."""

from __future__ import annotations

from games.core import CHANCE, GameConfig
from games.droles_de_zebres import GAME, ai, ai_model
from games.droles_de_zebres.ai_model import P_PLACE, Model
from games.droles_de_zebres.state import CROCODILE, DdzState
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


def decisions(seeds: range, every: int) -> list[tuple[DdzState, int]]:
    """(state, seat) at every crocodile's choice and every `every`-th other choice of a seat with
    two moves or more, along seeded random and greedy games (the picks shifted by the seed)."""
    out = []
    for seed in seeds:
        played = random_playout(GAME, GameConfig(players=2), seed, policy=ai.greedy_policy if seed % 2 else uniform_policy)
        state = GAME.initial_state(played.config)
        count = 0
        for seat, act in played.moves:
            if seat != CHANCE and len(GAME.legal_actions(state, seat)) > 1:
                if state.phase == CROCODILE or count % every == seed % every:
                    out.append((state, seat))
                count += 1
            state = GAME.apply(state, seat, act).state
    return out
