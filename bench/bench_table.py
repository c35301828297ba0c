"""Benchmark of the table's hot path: host time per table event, screen bytes, cold start.

    python bench/bench_table.py [--games N]

A table event is a settled sensed change or a button press, measured from the event leaving the
queue to every changed screen rendered and handed to its (dummy) device. Compared with 23.3 ms,
the time one SSD1306 frame takes on I2C at 400 kHz. Figures from this machine, not from a Pi.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_host.apps import reconcile  # noqa: E402
from firmware_host.apps.menu import StartRequest  # noqa: E402
from firmware_host.loop.runtime import Press, ReaderStatus, TagChange  # noqa: E402
from firmware_host.apps.session import GameSession  # noqa: E402
from firmware_host.loop.simulator import FakeClock, SimTable  # noqa: E402
from games.core import CHANCE  # noqa: E402

FRAME_MS = 23.3


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def play(sim: SimTable, clock: FakeClock, game: str, seats: tuple[int, ...], rng: random.Random,
         presses: list[float], sensed: list[float]) -> None:
    """One game driven by direct events, timing each settled change and each press."""
    rt = sim.runtime
    rt.start(StartRequest(game, seats))
    rt.refresh()
    for _ in range(5000):
        s = rt.app
        assert isinstance(s, GameSession)
        if s.over:
            for zone, uids in list(rt.raw.items()):  # clear the table for the next game
                for uid in list(uids):
                    rt.handle(TagChange(zone, uid, False))
            clock.advance(1.0)
            rt.tick()
            return
        if s.instruction is not None:
            fix = s.instruction[0]
            changes = [(s.to_physical(fix.zone), fix.piece, fix.kind == "place")]
        else:
            seat = rng.choice(sorted(x for x in s.game.to_act(s.state) if x != CHANCE))
            menu = [c.action for c in s.menu(seat)]
            zones = s.logical_zones()
            now = reconcile.restrict(s.layout(), zones)
            legal = [a for a in s.game.legal_actions(s.state, seat)
                     if a in menu or reconcile.restrict(s.game.footprint(s.state, seat, a), zones) != now]
            act = rng.choice(legal)
            if act in menu:
                while s.notices[seat]:
                    s.notices[seat].popleft()
                for _ in range(menu.index(act)):
                    t = time.perf_counter()
                    rt.handle(Press(s.seats[seat], "right", "press"))
                    presses.append(time.perf_counter() - t)
                rt.handle(Press(s.seats[seat], "ok", "press"))
                t = time.perf_counter()
                rt.handle(Press(s.seats[seat], "ok", "release"))
                presses.append(time.perf_counter() - t)
                continue
            foot = reconcile.restrict(s.game.footprint(s.state, seat, act), zones)
            changes = [(s.to_physical(f.zone), f.piece, f.kind == "place") for f in reconcile.fixes(foot, s.layout())]
        for zone, piece, present in changes:
            rt.handle(TagChange(zone, sim.registry.uid(piece) or "", present))
        clock.advance(sim.config.reader.settle + 0.01)
        t = time.perf_counter()
        rt.tick()
        sensed.append(time.perf_counter() - t)


def cold_start() -> tuple[float, float]:
    """Seconds to the first frames: in-process (imports + table up), and the whole `script` command."""
    code = ("import time; t=time.perf_counter()\n"
            "from firmware_host.loop.simulator import SimTable\n"
            "sim=SimTable(); sim.wait_ready(); sim.runtime.refresh()\n"
            "print(time.perf_counter()-t); sim.close()")
    inproc = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                  cwd=Path(__file__).resolve().parents[1]).stdout.strip())
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "firmware_host.commands.main", "script", "-"], input='{"press": 1}\n',
                   capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1])
    return inproc, time.perf_counter() - t


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3, help="games per game id")
    args = ap.parse_args()
    clock = FakeClock()
    sim = SimTable(clock=clock)
    try:
        sim.runtime.handle(ReaderStatus("ready"))
        rng = random.Random(1)
        setups = {"droles-de-zebres": (1, 2), "zop": (1, 2), "spywhere": (1, 2, 3, 4),
                  "operation-zebre": (1, 2, 3, 4), "mata-hari": (1, 2, 3, 4, 5)}
        print(f"{'game':18s} {'events':>7s} {'p50 ms':>8s} {'p99 ms':>8s} {'p99/23.3ms':>10s} {'bytes/event':>12s}")
        for game, seats in setups.items():
            presses: list[float] = []
            sensed: list[float] = []
            before = sim.table.screens.stats.bytes_sent
            for _ in range(args.games):
                play(sim, clock, game, seats, rng, presses, sensed)
            sent = sim.table.screens.stats.bytes_sent - before
            every = presses + sensed
            ms = [v * 1000 for v in every]
            print(f"{game:18s} {len(every):7d} {statistics.median(ms):8.2f} {pct(ms, 99):8.2f} "
                  f"{pct(ms, 99) / FRAME_MS:10.3f} {sent / len(every):12.0f}")
            for name, vals in (("  settled changes", sensed), ("  button presses", presses)):
                if vals:
                    v = [x * 1000 for x in vals]
                    print(f"{name:18s} {len(v):7d} {statistics.median(v):8.2f} {pct(v, 99):8.2f} "
                          f"{pct(v, 99) / FRAME_MS:10.3f}")
    finally:
        sim.close()
    inproc, whole = cold_start()
    print(f"cold start to first frames: {inproc * 1000:.0f} ms in-process (imports, pty reader handshake, "
          f"8 screens); {whole * 1000:.0f} ms for a whole `zebra-table script` run of one press")


if __name__ == "__main__":
    main()
