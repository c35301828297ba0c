"""Seeded random playouts: the runtime's chance sampler and the tests' game driver."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.core import CHANCE, Action, Game, GameConfig, Outcome


def sample_chance(game: Game[Any, Any], state: Any, rng: random.Random) -> Action:
    """One chance action drawn with the game's probabilities."""
    outcomes = game.chance_outcomes(state)
    if not outcomes:
        raise RuntimeError(f"{game.id}: CHANCE to act but no chance outcomes")
    actions = [a for a, _ in outcomes]
    weights = [w for _, w in outcomes]
    return rng.choices(actions, weights=weights, k=1)[0]


@dataclass
class Playout:
    """A finished (or cut) random game: its config, every (seat, action) and the final state."""

    config: GameConfig
    moves: list[tuple[int, Action]] = field(default_factory=list)
    state: Any = None
    outcome: Outcome | None = None


Policy = Callable[[Game[Any, Any], Any, int, list[Action], random.Random], Action]


def uniform_policy(game: Game[Any, Any], state: Any, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Pick any legal action with equal chance."""
    return rng.choice(legal)


def random_playout(
    game: Game[Any, Any],
    config: GameConfig,
    seed: int,
    max_steps: int = 10_000,
    policy: Policy = uniform_policy,
) -> Playout:
    """Play a whole game with seeded random choices (chance sampled too); stops at the outcome.

    Raises RuntimeError when a non-final state has nobody to act or no legal action, or when
    `max_steps` is exceeded: both are rule bugs the tests must see.
    """
    rng = random.Random(seed)
    config = game.validate_config(config)
    state = game.initial_state(config)
    result = Playout(config=config)
    # the game's methods and the generator's choice bound once: this loop is the random playouts'
    # own cost (tests, benchmarks, the flat Monte-Carlo yardstick), the same calls in the same order
    outcome, to_act, legal_actions, apply = game.outcome, game.to_act, game.legal_actions, game.apply
    choice, record, draw = rng.choice, result.moves.append, game.random_legal_action
    uniform = policy is uniform_policy  # the game's own draw: the same action, maybe without the list
    for _ in range(max_steps):
        if outcome(state) is not None:
            break
        seats = sorted(to_act(state))
        if not seats:
            raise RuntimeError(f"{game.id}: game not over but nobody to act")
        seat = choice(seats)
        if seat == CHANCE:
            act = sample_chance(game, state, rng)
        elif uniform:
            drawn = draw(state, seat, rng)
            if drawn is None:
                raise RuntimeError(f"{game.id}: seat {seat} to act with no legal action")
            act = drawn
        else:
            legal = legal_actions(state, seat)
            if not legal:
                raise RuntimeError(f"{game.id}: seat {seat} to act with no legal action")
            act = policy(game, state, seat, legal, rng)
        state = apply(state, seat, act).state
        record((seat, act))
    else:
        raise RuntimeError(f"{game.id}: no outcome after {max_steps} steps")
    result.state = state
    result.outcome = game.outcome(state)
    return result
