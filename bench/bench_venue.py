"""Benchmark of the venue link on a real mosquitto, loopback only (127.0.0.1).

    python bench/bench_venue.py [--quick]

1. One table's publisher: events per second it hands to the broker (QoS 1, until every PUBACK)
   from a journal of whole games, with the CPU it costs (its own thread: reading the journal,
   replaying, building the public part; and the whole process, paho's network thread included).
2. The same publisher live, as on a table: one move committed at a time, each waited for until
   its PUBACK: commit-to-PUBACK latency and CPU per move, against 23.3 ms (one SSD1306 frame).
3. `zebra-table venue` consuming 50 simulated tables publishing at once (50 MQTT clients sending
   the outbox messages of their journals): events per second stored, the venue process's CPU.
4. The venue's checks of one message (inbound.parse), unsigned and signed (HMAC-SHA256 verified),
   over the messages of whole games of all five games, and the time to refuse each poison.

Figures from this machine, not from a Pi. Needs Debian's mosquitto (exits with a message if
absent). Bounded: every wait has a deadline; --quick plays fewer games (CI runs it).
"""

from __future__ import annotations

import argparse
import os
import pwd
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware_host.storage.journal import Journal  # noqa: E402
from firmware_host.venue import inbound, signing  # noqa: E402
from firmware_host.venue.outbox import Outbox  # noqa: E402
from firmware_host.venue.publisher import Publisher  # noqa: E402
from firmware_host.venue.settings import VenueConfig  # noqa: E402
from games.core import GameConfig  # noqa: E402
from games.playout import random_playout  # noqa: E402
from games.registry import get_game  # noqa: E402

FRAME_MS = 23.3
DEADLINE = 120.0  # seconds any one wait may take before the benchmark gives up
ALL_GAMES = [("droles-de-zebres", 2), ("zop", 2), ("spywhere", 4), ("operation-zebre", 4), ("mata-hari", 4)]


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def wait(cond: Any, what: str, timeout: float = DEADLINE) -> None:
    """Poll until `cond()`; exit with a message after `timeout`."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            sys.exit(f"bench_venue: gave up waiting for {what}")
        time.sleep(0.001)


class Broker:
    """mosquitto on 127.0.0.1:<free port>, from a generated config; no system service."""

    def __init__(self, root: Path):
        binary = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")
        if binary is None:
            sys.exit("bench_venue: mosquitto is not installed (Debian package `mosquitto`)")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        conf = root / "mosquitto.conf"
        conf.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\n"
                        f"user {pwd.getpwuid(os.getuid()).pw_name}\nmax_inflight_messages 100\n"
                        "max_queued_messages 1000000\n")
        self.proc = subprocess.Popen([binary, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait(self._up, "mosquitto to listen", 10)

    def _up(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
            return True
        except OSError:
            return False

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def fill_journal(path: Path, table: str, games: list[tuple[str, int]], seed: int) -> tuple[Journal, int, list[Any]]:
    """A journal with the venue configured from the start, then whole games; (journal, events, playouts)."""
    journal = Journal(path)
    journal.db.execute("PRAGMA synchronous=OFF")  # preparing, not measuring, the journal
    Outbox(path, table).close()  # the venue was configured before these games
    playouts = []
    events = 0
    for i, (game_id, players) in enumerate(games):
        game = get_game(game_id)
        p = random_playout(game, GameConfig(players, {}, seed + i), seed + i)
        gid = journal.start_game(game_id, p.config, tuple(range(1, players + 1)))
        for idx, (seat, act) in enumerate(p.moves):
            journal.append(gid, idx, seat, act)
        journal.finish(gid, p.outcome.to_json() if p.outcome else None)
        playouts.append(p)
        events += len(p.moves) + 2
    return journal, events, playouts


def settings(port: int, table: str) -> VenueConfig:
    return VenueConfig(table=table, host="127.0.0.1", port=port, reconnect_max=1.0)


def bench_publisher(tmp: Path, port: int, games: list[tuple[str, int]]) -> None:
    """One table's publisher draining a journal of whole games."""
    journal, events, _ = fill_journal(tmp / "bulk.sqlite", "bulk", games, seed=1)
    journal.close()
    pub = Publisher(settings(port, "bulk"), tmp / "bulk.sqlite")
    cpu0, t0 = time.process_time(), time.perf_counter()
    pub.start()
    wait(lambda: pub.stats.acked >= events, "the publisher's PUBACKs")
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    pub.close()
    print(f"publisher, one table, {len(games)} whole games from its journal: {events} events in {wall:.2f} s "
          f"= {events / wall:.0f} events/s (QoS 1, every PUBACK)")
    print(f"  CPU: publisher thread {pub.stats.cpu / events * 1000:.3f} ms/event (journal, replay, public part, "
          f"JSON); whole process {cpu / events * 1000:.3f} ms/event (paho's thread included)")


def bench_live(tmp: Path, port: int, games: list[tuple[str, int]]) -> None:
    """Moves committed one at a time, as a table does, each waited for until its PUBACK."""
    source, _, playouts = fill_journal(tmp / "source.sqlite", "src", games, seed=7)
    source.close()
    journal = Journal(tmp / "live.sqlite")  # synchronous=FULL, as on the table
    from firmware_host.storage.config import parse_config, sim_config_text
    from firmware_host.venue import attach

    config = parse_config(sim_config_text() + f'\n[venue]\ntable = "live"\nhost = "127.0.0.1"\nport = {port}\n')
    link = attach(config, journal)
    assert isinstance(link, Publisher)
    wait(lambda: link.connected, "the live publisher to connect", 10)
    latencies: list[float] = []
    commits: list[float] = []
    cpu_before = link.stats.cpu
    moves = 0
    for (game_id, _), p in zip(games, playouts):
        gid = journal.start_game(game_id, p.config, tuple(range(1, p.config.players + 1)))
        for idx, (seat, act) in enumerate(p.moves):
            acked = link.stats.acked
            t0 = time.perf_counter()
            journal.append(gid, idx, seat, act)  # commits, then wakes the publisher (a flag)
            t1 = time.perf_counter()
            wait(lambda acked=acked: link.stats.acked > acked, "a PUBACK", 10)
            latencies.append((time.perf_counter() - t1) * 1000)
            commits.append((t1 - t0) * 1000)
            moves += 1
        journal.finish(gid, p.outcome.to_json() if p.outcome else None)
    per_move = (link.stats.cpu - cpu_before) / moves * 1000
    link.close()
    journal.close()
    print(f"live, one move at a time ({moves} moves): commit-to-PUBACK median {statistics.median(latencies):.2f} ms, "
          f"p95 {pct(latencies, 95):.2f} ms; publisher thread {per_move:.3f} ms CPU/move "
          f"= {per_move / FRAME_MS:.3f} of one {FRAME_MS} ms frame")
    print(f"  the loop's side of a move: journal commit + wake-up median {statistics.median(commits):.2f} ms "
          f"(the fsync; publishing adds a flag)")


def bench_venue(tmp: Path, port: int, tables: int, games: list[tuple[str, int]]) -> None:
    """`zebra-table venue` storing what `tables` tables publish at once."""
    import paho.mqtt.client as mqtt

    journal, per_table, _ = fill_journal(tmp / "shared.sqlite", "t00", games, seed=3)
    journal.db.execute("DELETE FROM venue_outbox")
    journal.close()
    outgoing: list[list[Any]] = []
    for i in range(tables):  # each table's own messages (its name in topics and payloads)
        box = Outbox(tmp / "shared.sqlite", f"t{i:02d}")
        outgoing.append(box.take(10_000_000))
        box.db.close()
    total = per_table * tables
    db_path = tmp / "venue.sqlite"
    venue = subprocess.Popen([sys.executable, "-m", "firmware_host.commands.main", "venue", "--port", str(port),
                              "--db", str(db_path), "--reconnect-max", "1"], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert venue.stderr is not None
    ready = threading.Event()
    threading.Thread(target=lambda: [ready.set() for line in venue.stderr if "listening" in line],
                     daemon=True).start()
    if not ready.wait(30):
        venue.kill()
        sys.exit("bench_venue: the venue did not subscribe")
    acked = [0]
    lock = threading.Lock()

    def on_publish(*_: Any) -> None:
        with lock:
            acked[0] += 1

    clients = []
    for i in range(tables):
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"t{i:02d}", protocol=mqtt.MQTTv311)
        c.on_publish = on_publish
        c.connect("127.0.0.1", port)
        c.loop_start()
        clients.append(c)
    t0 = time.perf_counter()
    for c, msgs in zip(clients, outgoing):
        for m in msgs:
            c.publish(m.topic, m.payload, qos=1)
    reader = sqlite3.connect(db_path)

    def stored() -> bool:
        try:
            return reader.execute("SELECT COUNT(*) FROM events").fetchone()[0] >= total
        except sqlite3.OperationalError:
            return False

    wait(stored, "the venue to store every event")
    wall = time.perf_counter() - t0
    for c in clients:
        c.disconnect()
        c.loop_stop()
    venue.send_signal(signal.SIGTERM)
    _, status, usage = os.wait4(venue.pid, 0)
    venue.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    dups = reader.execute("SELECT SUM(duplicates) FROM tables").fetchone()[0]
    reader.close()
    print(f"venue, {tables} tables publishing at once: {total} events stored in {wall:.2f} s = {total / wall:.0f} "
          f"events/s; venue process CPU {cpu:.2f} s over its whole run ({cpu / total * 1000:.3f} ms/event); "
          f"copies dropped {dups}")


def bench_checks(tmp: Path, games: list[tuple[str, int]]) -> None:
    """inbound.parse per message, unsigned and signed, and the refusal of each poison."""
    journal, _, _ = fill_journal(tmp / "checks.sqlite", "t1", games, seed=5)
    journal.db.execute("DELETE FROM venue_outbox")
    journal.close()
    key = b"k" * 64
    figures = []
    for signed in (None, key):
        box = Outbox(tmp / "checks.sqlite", "t1", signed)
        msgs = [(m.topic, m.payload) for m in box.take(10_000_000)]
        box.db.close()
        keys = {"t1": signed}.get if signed else inbound.no_keys
        t0 = time.perf_counter()
        for topic, payload in msgs:
            inbound.parse(topic, payload, keys)
        figures.append((time.perf_counter() - t0) / len(msgs) * 1e6)
    topic = "zebra-table/t1/game/ab12cd34-1/finished"
    poisons = {"1 MB": b'{"a":"' + b"x" * 1_000_000 + b'"}', "64 KB nested 32,000 deep": b"[" * 32_000 + b"]" * 32_000,
               "forged 6 KB": signing.sign(b"f" * 64, topic, b'{"a":"' + b"x" * 6000 + b'"}')}
    worst = []
    for name, payload in poisons.items():
        t0 = time.perf_counter()
        try:
            inbound.parse(topic, payload, {"t1": key}.get)
        except inbound.BadMessage:
            pass  # the refusal itself is what is timed
        worst.append(f"{name} {(time.perf_counter() - t0) * 1e6:.0f}")
    print(f"venue checks: {figures[0]:.1f} µs/message unsigned, {figures[1]:.1f} µs/message signed "
          f"({len(msgs)} messages of {len(games)} games); poisons refused in µs: {', '.join(worst)}")


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer games (CI)")
    args = ap.parse_args()
    publisher_games = ALL_GAMES if args.quick else ALL_GAMES * 3
    live_games = [("spywhere", 3)] if args.quick else ALL_GAMES
    venue_games = [("spywhere", 3)] if args.quick else [("spywhere", 3), ("zop", 2), ("droles-de-zebres", 2)]
    with tempfile.TemporaryDirectory() as tmp:
        broker = Broker(Path(tmp))
        try:
            bench_publisher(Path(tmp), broker.port, publisher_games)
            bench_live(Path(tmp), broker.port, live_games)
            bench_venue(Path(tmp), broker.port, 50, venue_games)
            bench_checks(Path(tmp), publisher_games)
        finally:
            broker.stop()


if __name__ == "__main__":
    main()
