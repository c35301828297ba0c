"""Benchmark of Operation: Mata Hari across tables: what the host's loop spends per move on the
messages to the joining table, without a broker.

    python bench/bench_remote_mata_hari.py [--quick]

Seeded random games (3 and 4 players, one or two at the joining table), each played twice by the
host's side (firmware_host/remote/teller.py with the shadow of shadow_mata_hari.py):

1. Messages made on the loop (the shadow's `costly` says False): the loop's time per move is the
   time the shadow takes to make its message (a search over the shadow's cards, up to 4,000
   changes tried, or an end told again): its thread's CPU p50, p99 and max, and wall time.
2. Messages made in the worker (the shadow's own `costly`): the loop's time per move (handing the
   move over: its thread's CPU, and wall time, which includes waiting for the interpreter's lock
   while the worker starts); and, while the worker makes them, how late the loop gets the lock
   back for an event (a 1 ms wait, then the time over it: the worker holds the lock for up to the
   interpreter's switch interval, 5 ms, at a time), p99 and max.

Wall times follow the machine's load (the scheduler), CPU times do not.

Moves are handed over as a table's players make them, far slower than the worker makes messages:
each once the worker is done with the last. Figures from this machine; the Pi Zero 2 W estimate
multiplies by bench/benchkit.PI_FACTOR.
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

from bench.benchkit import on_pi, pct  # noqa: E402
from firmware_host.loop.collector import idle_collect  # noqa: E402
from firmware_host.remote import crossing  # noqa: E402
from firmware_host.remote.teller import Teller  # noqa: E402
from games.core import Action, GameConfig  # noqa: E402
from games.playout import random_playout  # noqa: E402
from games.registry import get_game  # noqa: E402

GAME = get_game("mata-hari")
TICK = 0.001  # the loop's wait between two looks while the worker makes messages


class Figures:
    """The loop's seconds per move (its thread's CPU, and wall time) and its lateness while the worker works."""

    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.late: list[float] = []


def host_loop(config: GameConfig, moves: list[tuple[int, Action]], seats: frozenset[int], on_loop: bool,
              figures: Figures) -> list[tuple[str, dict[str, Any]]]:
    """The host's loop telling `moves` (`on_loop`: every message made on it): the messages sent."""
    sent: list[tuple[str, dict[str, Any]]] = []
    teller = Teller(lambda kind, fields: sent.append((kind, fields)))
    teller.start(lambda: crossing.shadow(GAME, config, seats, []), False)
    if on_loop:
        teller.shadow.costly = lambda *_: False
    state = GAME.initial_state(config)
    for seat, action in moves:
        after = GAME.apply(state, seat, action).state
        cpu, start = time.thread_time(), time.perf_counter()
        teller.tell(state, seat, action, after)
        figures.wall.append(time.perf_counter() - start)
        figures.cpu.append(time.thread_time() - cpu)
        state = after
        while teller.busy:  # the loop serves its events meanwhile
            start = time.perf_counter()
            time.sleep(TICK)
            figures.late.append(time.perf_counter() - start - TICK)
        if not teller.finish(600.0):
            sys.exit("bench_remote_mata_hari: the teller's worker did not finish")
        idle_collect()  # the loop idle till the next move
    return sent


def ms(values: list[float], p: float) -> float:
    return pct(values, p) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="two games of 3 players")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    cases = [(3, frozenset({1})), (4, frozenset({1, 3}))]
    seeds = range(1, 3) if args.quick else range(1, 9)
    for players, seats in cases[:1] if args.quick else cases:
        before, after = Figures(), Figures()
        count = 0
        for seed in seeds:
            play = random_playout(GAME, GameConfig(players, {}, seed), seed)
            count += len(play.moves)
            made_here = host_loop(play.config, play.moves, seats, True, before)
            if host_loop(play.config, play.moves, seats, False, after) != made_here:
                sys.exit("bench_remote_mata_hari: the worker's messages differ from the loop's")
        print(f"{players} players, {len(seats)} at the joining table: {len(seeds)} games, {count} moves")
        print(f"  on the loop: CPU {ms(before.cpu, 50):.2f} ms per move p50, p99 {ms(before.cpu, 99):.1f} ms, "
              f"max {ms(before.cpu, 100):.0f} ms ({on_pi(ms(before.cpu, 100))} ms); wall p99 "
              f"{ms(before.wall, 99):.1f} ms, max {ms(before.wall, 100):.0f} ms")
        print(f"  in the worker: loop CPU {ms(after.cpu, 50):.3f} ms per move p50, p99 {ms(after.cpu, 99):.2f} ms, "
              f"max {ms(after.cpu, 100):.2f} ms ({on_pi(ms(after.cpu, 100))} ms); wall p99 "
              f"{ms(after.wall, 99):.1f} ms, max {ms(after.wall, 100):.1f} ms; the loop late by p99 "
              f"{ms(after.late, 99):.1f} ms, max {ms(after.late, 100):.1f} ms while the worker works")

if __name__ == "__main__":
    main()
