"""Drôles de Zèbres: the rules engine's every answer along seeded random games, pinned.

The fingerprints of tests/games pin the actions and the outcome; this pins everything else the
engine says at each step: the state, the effects (kinds, texts, audiences, data), the seats to
act, every legal action in its order, and the refusal of an action drawn at random. A faster
engine must answer exactly as before. Print new pins after a deliberate rule change with

    .venv/bin/python -m tests.games.droles_de_zebres.test_engine_trace
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from games.core import CHANCE, SQUARES, Action, GameConfig, IllegalAction, to_json
from games.droles_de_zebres import GAME
from games.droles_de_zebres.pieces import ALL_PIECES
from games.playout import sample_chance

pytestmark = pytest.mark.slow  # 160 seeded games, every answer of the engine hashed: tens of seconds

CONFIGS = (
    GameConfig(players=2),
    GameConfig(players=2, options={"first_player": "random"}),
    GameConfig(players=2, options={"first_player": "seat1", "seat0_colour": "green"}),
    GameConfig(players=2, options={"first_player": "seat0"}),
)
GAMES_PER_CONFIG = 40
PINNED = {
    "either": "fc7aa70045dd550079ce",
    "random": "e85d252e6594b35d7415",
    "seat1": "8bb540b80e9d596cf677",
    "seat0": "fea8943eab35bda409e6",
}


def _probe(rng: random.Random) -> Action:
    """A well- or ill-formed action of any type: most are refused, some are legal."""
    kind = rng.choice(("place", "place", "swap", "move", "stop", "guardian", "first_player", "bogus", "extra"))
    if kind == "place":
        return {"type": kind, "piece": rng.choice((*ALL_PIECES, "lion")), "square": rng.choice((*SQUARES, "G9"))}
    if kind == "extra":
        return {"type": "stop", "square": "A1"}
    if kind == "swap":
        return {"type": kind, "square": rng.choice(SQUARES)}
    if kind == "move":
        return {"type": kind, "steps": rng.choice((0, 1, 2, 3, 4, True))}
    if kind == "guardian":
        return {"type": kind, "position": rng.randrange(-1, 24)}
    if kind == "first_player":
        return {"type": kind, "seat": rng.randrange(2)}
    return {"type": kind}


def trace(config: GameConfig, seed: int) -> list[Any]:
    """Every answer of the engine along one seeded random game, as JSON values."""
    rng = random.Random(seed)
    state = GAME.initial_state(GAME.validate_config(config))
    out: list[Any] = [to_json(state)]
    while GAME.outcome(state) is None:
        seats = sorted(GAME.to_act(state))
        out.append(seats)
        for seat in (*seats, 1 - seats[0] if seats[0] in (0, 1) else 0):
            probe = _probe(rng)
            rejection = GAME.check(state, seat, probe)
            out.append([seat, probe, None if rejection is None else to_json(rejection)])
            try:
                GAME.apply(state, seat, probe)
            except IllegalAction as exc:
                out.append(exc.code)
        seat = rng.choice(seats)
        if seat == CHANCE:
            act = sample_chance(GAME, state, rng)
        else:
            legal = GAME.legal_actions(state, seat)
            out.append(legal)
            act = rng.choice(legal)
        step = GAME.apply(state, seat, act)
        state = step.state
        out.append([seat, act, to_json(state), to_json(step.effects)])
    outcome = GAME.outcome(state)
    assert outcome is not None
    out.append(outcome.to_json())
    return out


def digest(config: GameConfig) -> str:
    """One hash of the traces of GAMES_PER_CONFIG seeded games of `config`."""
    h = hashlib.sha256()
    for seed in range(GAMES_PER_CONFIG):
        h.update(json.dumps(trace(config, seed), sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()[:20]


def _name(config: GameConfig) -> str:
    return str(config.options.get("first_player", "either"))


def test_the_engine_answers_as_pinned_along_seeded_games() -> None:
    now = {_name(c): digest(c) for c in CONFIGS}
    assert now == PINNED, "the engine's states, effects, legal actions or refusals changed: see the docstring"


if __name__ == "__main__":
    print(json.dumps({_name(c): digest(c) for c in CONFIGS}, indent=1))
