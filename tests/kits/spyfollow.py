"""Games of Spywhere across tables with the re-triple rule, told by the host's shadow and followed
by an engine fed the messages only (as the joining table's): the sweep of
bench/bench_remote_retriple.py and the games tests/service/remote/test_remote_retriple.py follows."""

from __future__ import annotations

import time
from typing import Any

from firmware_host.remote import wire
from firmware_host.remote.shadow import CannotFollow
from firmware_host.remote.shadow_spywhere import SpyShadow
from games.core import Action, GameConfig
from games.playout import random_playout
from games.registry import get_game
from tests.kits.spyplay import quiet_playout

GAME = get_game("spywhere")
TOPIC = wire.topic("0123456789abcdef0123", "host")


def case(k: int) -> tuple[GameConfig, frozenset[int], list[tuple[int, Action]]]:
    """The k-th game of the sweep: its config, the joining table's seats, its moves."""
    players, seed = 2 + k % 5, 100 + k
    mix = k % 3
    seats = frozenset({1}) if mix == 0 else frozenset(range(1, players)) if mix == 1 \
        else frozenset(s for s in range(players) if s % 2)
    config = GAME.validate_config(GameConfig(players, {"retriple": "on"}, seed))
    moves = quiet_playout(GAME, config, seed) if k % 2 else random_playout(GAME, config, seed).moves
    return config, seats, moves


class Counting(SpyShadow):
    """The host's shadow, counting the changes of stand-ins it tries for each move."""

    tries = 0

    def _told_as(self, *args: Any, **kwargs: Any) -> Any:
        self.tries += 1
        return super()._told_as(*args, **kwargs)


def follow(k: int, key: bytes) -> dict[str, Any]:
    """One game told and followed: its figures, or why it could not be followed."""
    config, seats, moves = case(k)
    shadow = Counting(GAME, config, seats)
    state = joining = GAME.initial_state(config)
    out: dict[str, Any] = {"retriples": 0, "across": 0, "rewrites": 0, "tries": 0, "sizes": [], "cpu": [],
                           "moves": len(moves), "failed": None}
    shuffled: list[int] = []
    held: list[tuple[int, Action]] = []  # the moves the joining engine holds
    for n, (seat, action) in enumerate(moves):
        step = GAME.apply(state, seat, action)
        if any(e.kind == "return_to_pile" for e in step.effects):
            out["retriples"] += 1
            shuffled.append(n)
        before, cpu = shadow.tries, time.process_time()
        try:
            kind, fields = shadow.step(state, seat, action, step.state)
        except CannotFollow as exc:
            out["failed"] = f"move {n}: {exc}"
            return out
        out["cpu"].append(time.process_time() - cpu)
        out["tries"] = max(out["tries"], shadow.tries - before)
        out["sizes"].append(len(wire.encode(key, TOPIC, {"kind": kind, "seq": n + 1, "ack": 0, "run": 1, "seen": 0,
                                                         "base": 0, **fields})))
        if kind == "move":  # the joining engine: the messages only
            held.append((fields["seat"], fields["action"]))
            joining = GAME.apply(joining, fields["seat"], fields["action"]).state
        else:
            out["rewrites"] += 1
            out["across"] += any(fields["from"] <= m for m in shuffled)
            held = held[:fields["from"]] + [(s, a) for s, a in fields["moves"]]
            joining = GAME.initial_state(config)
            for s, a in held:
                joining = GAME.apply(joining, s, a).state
        state = step.state
    if joining != state or GAME.outcome(joining) != GAME.outcome(state):
        out["failed"] = "the joining engine ended on another game"
    return out
