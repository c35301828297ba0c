"""Benchmark of Spywhere across tables: what its stand-ins cost, without a broker.

    python bench/bench_remote_spywhere.py [--quick]

Seeded games whose players seldom identify (they run to the pile's end: the longest games, the
most stand-ins shown), one, two or five players at the joining table:

1. The host: CPU per move of the shadow (firmware_host/remote/shadow_spywhere.py) making each
   message, mean and max (a rewrite replays the moves it changes), rewrites per move and moves
   told again per rewrite; and the CPU the table's loop spends per move on it (teller.py: a
   message that tells moves again is made in a worker thread), mean and max, each move handed
   over once the worker is done with the last (moves come slower than rewrites are made; one
   that comes sooner waits in the queue, which costs the loop less) and the garbage collected
   then, as the table's loop collects it in its idle time (firmware_host/loop/collector.py).
2. The wire: sealed, signed bytes per message (mean) and the largest message (a message holds at
   most 64 KB).
3. The joining table: CPU per message of following it on a simulated table (RemoteSeats: moves
   laid, rewrites taken back and laid again without a word, moves announced), mean and max.

Figures from this machine; the Pi Zero 2 W estimate multiplies by bench/benchkit.PI_FACTOR.
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

from bench.benchkit import on_pi  # noqa: E402
from firmware_host.apps.app import StartRequest  # noqa: E402
from firmware_host.loop.collector import idle_collect  # noqa: E402
from firmware_host.remote import code as codes  # noqa: E402
from firmware_host.remote import crossing, wire  # noqa: E402
from firmware_host.remote.seats import RemoteSeats  # noqa: E402
from firmware_host.remote.teller import Teller  # noqa: E402
from games.core import Action, GameConfig  # noqa: E402
from games.registry import get_game  # noqa: E402
from tests.kits.spyplay import quiet_playout  # noqa: E402
from tests.service.apps.solo_table import follow_instruction, open_table, session  # noqa: E402
from tests.service.remote.test_remote_seats import FakeLink  # noqa: E402

GAME = get_game("spywhere")
TOPIC = wire.topic("0123456789abcdef0123", "host")


def long_game(players: int, seed: int) -> tuple[GameConfig, list[tuple[int, Action]]]:
    """A seeded game whose players seldom identify: it runs to the pile's end."""
    config = GAME.validate_config(GameConfig(players, dict(crossing.REMOTE_OPTIONS["spywhere"]), seed))
    return config, quiet_playout(GAME, config, seed)


class Loop:
    """The host's loop handing each move to the teller: its CPU per move, the shadow's time per message
    (wherever it is made) and the messages in the order they reach the link."""

    def __init__(self, config: GameConfig, seats: frozenset[int]):
        self.first = GAME.initial_state(config)
        self.messages: list[tuple[str, dict[str, Any]]] = []
        self.cpu: list[float] = []
        self.shadow: list[float] = []
        self.teller = Teller(lambda kind, fields: self.messages.append((kind, fields)))
        self.teller.start(lambda: crossing.shadow(GAME, config, seats, []), False)
        step = self.teller.shadow.step

        def timed(*args: Any) -> tuple[str, dict[str, Any]]:
            start = time.perf_counter()
            try:
                return step(*args)  # type: ignore[no-any-return]
            finally:
                self.shadow.append(time.perf_counter() - start)

        self.teller.shadow.step = timed

    def play(self, moves: list[tuple[int, Action]]) -> None:
        """Each move told as the loop tells it, once the worker is done with the last."""
        state = self.first
        for seat, action in moves:
            after = GAME.apply(state, seat, action).state
            cpu = time.thread_time()
            self.teller.tell(state, seat, action, after)
            self.cpu.append(time.thread_time() - cpu)
            state = after
            if not self.teller.finish(600.0):
                sys.exit("bench_remote_spywhere: the teller's worker did not finish")
            idle_collect()  # the loop idle till the next move


def host_side(config: GameConfig, moves: list[tuple[int, Action]], seats: frozenset[int]
              ) -> tuple[Loop, list[int]]:
    """The host's loop over the game, and the messages' sealed sizes."""
    key = codes.derive("ABCDEFGH").key
    loop = Loop(config, seats)
    loop.play(moves)
    sizes = [len(wire.encode(key, TOPIC, {"kind": kind, "seq": n + 1, "ack": 0, "run": 1, "seen": 0, "base": 0,
                                          **fields})) for n, (kind, fields) in enumerate(loop.messages)]
    return loop, sizes


def joining_side(config: GameConfig, messages: list[tuple[str, dict[str, Any]]], seats: frozenset[int]
                 ) -> list[float]:
    """Seconds per message followed by a simulated joining table (its players lay what it says)."""
    table_seats = iter((3, 4, 5, 6, 7))
    layout = tuple(next(table_seats) if g in seats else None for g in range(config.players))
    sim = open_table(seed=config.seed)
    try:
        sim.runtime.auto_chance = False  # nothing drawn here before the remote seats are attached
        sim.runtime.start(StartRequest("spywhere", layout, dict(config.options), seed=0))
        s = session(sim)
        remote = RemoteSeats(s, FakeLink("join"), frozenset(g for g, t in enumerate(layout) if t is None))  # type: ignore[arg-type]
        times = []
        for n, (kind, fields) in enumerate(messages):
            start = time.perf_counter()
            remote.take(wire.Message(kind, n + 1, 0, {"kind": kind, **fields}))
            times.append(time.perf_counter() - start)
            sim.runtime.refresh()
            while follow_instruction(sim):
                pass
        if s.moves != remote.log:
            sys.exit("bench_remote_spywhere: the joining table did not follow the host")
        return times
    finally:
        sim.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one game of 2 players")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    games = 1 if args.quick else 3
    cases = [(2, frozenset({1})), (4, frozenset({1})), (4, frozenset({1, 3})), (6, frozenset({1, 3})),
             (6, frozenset({1, 2, 3, 4, 5}))]
    for players, seats in cases[:1] if args.quick else cases:
        host: list[float] = []
        cpu: list[float] = []
        handed = 0
        join: list[float] = []
        sizes: list[int] = []
        rewrites = again = moves = 0
        for seed in range(1, games + 1):
            config, played = long_game(players, seed)
            loop, sealed = host_side(config, played, seats)
            messages = loop.messages
            host += loop.shadow
            cpu += loop.cpu
            handed += loop.teller.handed
            sizes += sealed
            moves += len(played)
            rewrites += sum(kind == "rewrite" for kind, _ in messages)
            again += sum(len(f["moves"]) for kind, f in messages if kind == "rewrite")
            join += joining_side(config, messages, seats)
        mean_host, mean_join = sum(host) / len(host) * 1000, sum(join) / len(join) * 1000
        print(f"{players} players, {len(seats)} at the joining table: {games} games, {moves / games:.0f} moves each")
        print(f"  host: shadow {mean_host:.2f} ms per move (max {max(host) * 1000:.0f} ms; "
              f"{on_pi(max(host) * 1000)} ms); a rewrite every {moves / max(rewrites, 1):.1f} moves, "
              f"{again / max(rewrites, 1):.0f} moves told again")
        print(f"  host's loop: {sum(cpu) / len(cpu) * 1000:.2f} ms CPU per move (max {max(cpu) * 1000:.1f} ms; "
              f"{on_pi(max(cpu) * 1000)} ms); {handed / games:.0f} moves of each game told in the worker")
        print(f"  wire: {sum(sizes) / len(sizes):,.0f} bytes per message sealed, largest {max(sizes):,}")
        print(f"  joining table: {mean_join:.1f} ms per message followed (max {max(join) * 1000:.0f} ms; "
              f"{on_pi(max(join) * 1000)} ms)")


if __name__ == "__main__":
    main()
