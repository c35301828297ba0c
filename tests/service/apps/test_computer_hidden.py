"""The computer seat sees its view only: whatever the humans' hidden cards are, the session gives
the thinking code the same job and plays the same move (property, over seeded positions)."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.apps.computer import InlineThinker
from firmware_host.apps.session import GameSession
from firmware_host.storage.tags import sim_registry
from games.core import CHANCE, GameConfig
from games.playout import sample_chance
from games.registry import get_game

OPTIONS = {"zop": {"deck": "tracked"}, "spywhere": {}}


def position(game_id: str, seed: int, players: int, computer: int):
    """A random position where the computer seat has a decision to make, or None."""
    from games import ai

    game = get_game(game_id)
    config = game.validate_config(GameConfig(players, OPTIONS[game_id], seed))
    rng = random.Random(seed)
    state = game.initial_state(config)
    for n in range(300):
        if game.outcome(state) is not None:
            return None
        acting = sorted(game.to_act(state), key=str)
        if n > rng.randrange(5, 60) and computer in acting \
                and ai.needs_decision(game_id, game.view(state, computer), computer):
            return game, config, state
        seat = rng.choice(acting)
        act = sample_chance(game, state, rng) if seat == CHANCE else rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, act).state
    return None


def decide(game, config, state, computer: int):
    """What a session with `computer` played by the computer asks and plays from `state`."""
    seats = tuple(range(1, config.players + 1))
    s = GameSession(game, config, seats, sim_registry([]), set(), lambda: 0.0, auto_chance=True, state=state)
    s.set_computers({computer: "strong"}, hints=False)
    thinker = InlineThinker(iterations=8)
    s.computers.thinker = thinker
    s.computers.start()
    assert s.computers.thinking is not None
    answer = s.computers.thinking.future.result()
    job = thinker.jobs[0]
    return (job.view, job.seed, job.seat, job.level), answer


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["zop", "spywhere"]), st.integers(0, 10_000))
def test_the_computer_decides_the_same_whatever_it_cannot_see(game_id, seed):
    players = 2 if game_id == "zop" else 3
    found = position(game_id, seed, players, 1)
    if found is None:
        return
    game, config, state = found
    job, move = decide(game, config, state, 1)
    assert job[0] == game.view(state, 1)  # the job holds the seat's view, and only that
    for variant in itertools.islice(game.hidden_variants(state, 1), 4):
        assert game.view(variant, 1) == job[0]
        assert decide(game, config, variant, 1) == (job, move)
