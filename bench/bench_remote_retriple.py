"""Sweep of Spywhere across tables with the re-triple rule on, without a broker.

    python bench/bench_remote_retriple.py [--quick] [--games N]

Seeded games (2 to 6 players; one player, all but the first, or every other at the joining table;
every other game run to the pile's end by players who seldom identify) told by the host's shadow
(firmware_host/remote/shadow_spywhere.py) and followed by an engine fed the messages only, as the
joining table's is: a game counts as followed when every message was made and the engine ends on
the host's state and outcome. Prints the games followed, the triples shuffled back (and the
games with one), the rewrites that told a re-triple again, the most changes of stand-ins tried for
one move, the host's CPU per move, and the sealed, signed bytes per message.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware_host.remote import code as codes  # noqa: E402
from firmware_host.remote import crossing, wire  # noqa: E402
from firmware_host.remote.shadow import CannotFollow  # noqa: E402
from firmware_host.remote.shadow_spywhere import SpyShadow  # noqa: E402
from games.core import Action, GameConfig  # noqa: E402
from games.playout import random_playout  # noqa: E402
from games.registry import get_game  # noqa: E402
from tests.kits.spyplay import quiet_playout  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="4 games")
    parser.add_argument("--games", type=int, default=48, help="games in the sweep (default 48)")
    args = parser.parse_args()
    if not 1 <= args.games <= 10_000:
        sys.exit("bench_remote_retriple: --games must be between 1 and 10000")
    assert crossing.refusal("spywhere", {"retriple": "on"}) is None
    logging.disable(logging.WARNING)
    key = codes.derive("ABCDEFGH").key
    games = 4 if args.quick else args.games
    results = [follow(k, key) for k in range(games)]
    followed = [r for r in results if r["failed"] is None]
    for k, r in enumerate(results):
        if r["failed"] is not None:
            print(f"  game {k} NOT FOLLOWED: {r['failed']}")
    sizes = [s for r in results for s in r["sizes"]]
    cpu = [c for r in results for c in r["cpu"]]
    print(f"followed to the end, on the host's state and outcome: {len(followed)} of {games} games "
          f"({sum(r['moves'] for r in results) / games:.0f} moves each)")
    print(f"triples shuffled back: {sum(r['retriples'] for r in results)} in "
          f"{sum(r['retriples'] > 0 for r in results)} games; rewrites {sum(r['rewrites'] for r in results)}, "
          f"{sum(r['across'] for r in results)} telling a re-triple again; "
          f"at most {max(r['tries'] for r in results)} changes tried for one move")
    print(f"host: shadow {sum(cpu) / len(cpu) * 1000:.2f} ms CPU per move (max {max(cpu) * 1000:.0f} ms)")
    print(f"wire: {sum(sizes) / len(sizes):,.0f} bytes per message sealed, largest {max(sizes):,}")


if __name__ == "__main__":
    main()
