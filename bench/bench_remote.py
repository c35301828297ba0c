"""Benchmark of remote play on a real mosquitto, loopback only (127.0.0.1).

    python bench/bench_remote.py [--quick]

1. From a move laid at one table to the instruction to lay it at the other: whole games of Drôles
   de Zèbres between two simulated tables in one process (each a SimTable: reader, buttons,
   runtime). The clock starts when the table that took the move hands its message to the link
   and stops when the other table's loop, woken by the link, shows the instruction: p50, p99, max.
2. Bytes per move: the signed messages' payload bytes (first sendings only) per move, each way.
3. 20 remote games at once on one broker: 40 links (a host and a joining side per game) sending
   the moves of whole games as fast as each is acknowledged: moves per second through the broker,
   send-to-take latency p50/p99, and the CPU of this process (every link's threads).

Figures from this machine, not from a Pi. Needs Debian's mosquitto (exits with a message if
absent). Bounded: every wait has a deadline; --quick plays fewer games (CI runs it).
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.benchkit import pct  # noqa: E402
from firmware_host.remote import crossing  # noqa: E402
from firmware_host.remote.code import ALPHABET, LENGTH  # noqa: E402
from firmware_host.remote.link import RemoteLink  # noqa: E402
from games.core import CHANCE, GameConfig  # noqa: E402
from games.playout import random_playout  # noqa: E402
from games.registry import get_game  # noqa: E402
from tests.kits.remotekit import TwoTables, broker_settings  # noqa: E402
from tests.kits.venuekit import Broker, mosquitto_bin  # noqa: E402
from tests.service.apps.solo_table import human_move  # noqa: E402

DEADLINE = 60.0  # seconds any one wait may take before the benchmark gives up


def give_up(what: str) -> None:
    sys.exit(f"bench_remote: gave up waiting for {what}")


# -- 1 and 2: two tables ----------------------------------------------------------------------------
def timed_sends(link: RemoteLink, sent: list[float]) -> None:
    """Record when each move leaves `link` (the table's loop hands it over)."""
    original = link.send

    def send(kind: str, fields: dict[str, Any]) -> int:
        if kind == "move":
            sent.append(time.perf_counter())
        return original(kind, fields)

    link.send = send  # type: ignore[method-assign]


def until_instruction(t: TwoTables, other: Any, moves_before: int) -> float:
    """Run the other table's loop on its real queue until it took the move (and, in the same
    pass, set the instruction to lay it, when it moves a piece); the time."""
    runtime = other.runtime
    app = runtime.app
    end = time.monotonic() + DEADLINE
    while len(app.moves) <= moves_before:
        if time.monotonic() > end:
            give_up("the other table's instruction")
        try:
            event = runtime.queue.get(timeout=0.5)
        except Exception:  # queue.Empty: the broker is slow, wait again
            continue
        runtime.handle(event)
    return time.perf_counter()


def two_tables(mosquitto: Broker, games: int) -> tuple[list[float], list[float], list[float]]:
    """Latencies (ms) of every move laid at one table to the other's instruction; bytes per move each way."""
    latencies: list[float] = []
    host_bytes: list[float] = []
    join_bytes: list[float] = []
    for seed in range(games):
        t = TwoTables(mosquitto, "droles-de-zebres", {"first_player": "random"}, seed=seed)
        try:
            joined = t.join(t.code)
            if not t.wait(t.in_step):
                give_up("the joining table")
            sent: list[float] = []
            timed_sends(t.hosted.link, sent)
            timed_sends(joined.link, sent)
            rng = random.Random(seed)
            while not t.host_session.over:
                if not t.wait(t.in_step, DEADLINE):
                    give_up("both tables to hold the same moves")
                if t.host_session.over:
                    break
                if t.act_instruction():
                    continue
                for sim, other in ((t.a, t.b), (t.b, t.a)):
                    before = len(other.runtime.app.moves)
                    count = len(sent)
                    if human_move(sim, rng):
                        if len(sent) > count:  # a move that crosses (not a button that changed nothing)
                            latencies.append((until_instruction(t, other, before) - sent[-1]) * 1000)
                        break
                else:
                    give_up("a move to play")
            moves = len(t.host_session.moves)
            host_bytes.append(t.hosted.link.stats.bytes_sent / moves)
            join_bytes.append(joined.link.stats.bytes_sent / max(1, sum(
                1 for s, _ in t.host_session.moves if s == 1)))
        finally:
            t.close()
    return latencies, host_bytes, join_bytes


# -- 3: many games on one broker ------------------------------------------------------------------
def many_games(mosquitto: Broker, count: int) -> tuple[int, float, list[float], float]:
    """(moves, seconds, latencies in ms, CPU seconds) of `count` games sent at once."""
    settings = broker_settings(mosquitto)
    game = get_game("droles-de-zebres")
    pairs = []
    for i in range(count):
        rng = random.Random(i)
        code = "".join(rng.choice(ALPHABET) for _ in range(LENGTH))
        host, join = RemoteLink(settings, code, "host"), RemoteLink(settings, code, "join")
        host.start()
        join.start()
        play = random_playout(game, GameConfig(2, {"first_player": "random"}, i), i)
        pairs.append((host, join, play))
    end = time.monotonic() + DEADLINE
    while not all(h.present and j.present for h, j, _ in pairs):
        if time.monotonic() > end:
            give_up("every link to see its other side")
        time.sleep(0.01)
    latencies: list[float] = []
    cpu0, t0 = time.process_time(), time.perf_counter()
    cursors = [0] * count
    states = [game.initial_state(p.config) for _, _, p in pairs]
    told = [crossing.shadow(game, p.config, {1}, []) for _, _, p in pairs]
    total = 0
    while any(c < len(p.moves) for c, (_, _, p) in zip(cursors, pairs)):
        sent_at: dict[int, tuple[RemoteLink, float]] = {}
        for i, (host, join, play) in enumerate(pairs):
            if cursors[i] >= len(play.moves):
                continue
            seat, action = play.moves[cursors[i]]
            after = game.apply(states[i], seat, action).state
            if seat in (0, CHANCE):  # the host's move, with the joining seat's view
                host.send(*told[i].step(states[i], seat, action, after))
                sent_at[i] = (join, time.perf_counter())
            else:
                told[i].step(states[i], seat, action, after)  # the host's record of it
                join.send("move", {"n": cursors[i], "seat": seat, "action": dict(action)})
                sent_at[i] = (host, time.perf_counter())
            states[i] = after
            cursors[i] += 1
        end = time.monotonic() + DEADLINE
        while sent_at:
            if time.monotonic() > end:
                give_up("the moves of every game to cross")
            for i, (receiver, t_sent) in list(sent_at.items()):
                if receiver.take():
                    latencies.append((time.perf_counter() - t_sent) * 1000)
                    del sent_at[i]
                    total += 1
            time.sleep(0.0005)
    seconds = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    for host, join, _ in pairs:
        host.close()
        join.close()
    return total, seconds, latencies, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games (CI)")
    args = parser.parse_args()
    if mosquitto_bin() is None:
        sys.exit("bench_remote: mosquitto is not installed (Debian package `mosquitto`)")
    root = Path(tempfile.mkdtemp(prefix="bench_remote-"))
    mosquitto = Broker(root).start()
    try:
        games = 1 if args.quick else 3
        latencies, host_bytes, join_bytes = two_tables(mosquitto, games)
        print(f"1. move laid at one table -> instruction at the other ({games} whole game(s) of Drôles de Zèbres,"
              f" {len(latencies)} moves): p50 {pct(latencies, 50):.1f} ms, p99 {pct(latencies, 99):.1f} ms,"
              f" max {max(latencies):.1f} ms")
        out, back = sum(host_bytes) / len(host_bytes), sum(join_bytes) / len(join_bytes)
        print(f"2. bytes per move (signed payload, first sending): host -> joining {out:.0f},"
              f" joining -> host {back:.0f}")
        count = 5 if args.quick else 20
        moves, seconds, lat, cpu = many_games(mosquitto, count)
        print(f"3. {count} remote games at once on one broker: {moves} moves in {seconds:.2f} s"
              f" ({moves / seconds:.0f} moves/s), send -> take p50 {pct(lat, 50):.1f} ms, p99 {pct(lat, 99):.1f} ms,"
              f" CPU of the {2 * count} links {cpu:.2f} s ({cpu / moves * 1000:.2f} ms/move)")
    finally:
        mosquitto.stop()
        shutil.rmtree(root, ignore_errors=True)  # the broker's config, store and log


if __name__ == "__main__":
    main()
