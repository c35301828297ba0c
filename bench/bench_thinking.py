"""The event loop's latency while a computer player thinks: in a thread or in a worker process.

    .venv/bin/python bench/bench_thinking.py [--quick]

A stand-in for the loop wakes every 5 ms (as it does for events) and records how late each wake-up
is, first idle, then while a strong Spywhere decision runs (a) in a thread of this process and (b)
in the table's worker process (`firmware_host.apps.computer.ProcessThinker`). Pure-Python search
in a thread holds the GIL: the loop's wake-ups come late by switch intervals.
The decision is a strong Drôles de Zèbres move (the game whose search runs longest per move). Prints p50/p99/max
lateness in milliseconds and the decision's wall time; no budget is asserted (figures, not tests).
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchkit import pct
from firmware_host.apps.computer import Job, ProcessThinker, think
from firmware_host.loop.affinity import pin_table

TICK = 0.005


def a_view(seed: int) -> tuple[Job, float]:
    """A strong computer seat's decision in Drôles de Zèbres, a few turns in."""
    from games import ai
    from games.core import CHANCE, GameConfig
    from games.playout import sample_chance
    from games.registry import get_game

    game = get_game("droles-de-zebres")
    rng = random.Random(seed)
    state = game.initial_state(game.validate_config(GameConfig(2, {}, seed)))
    for n in range(400):
        acting = sorted(game.to_act(state), key=str)
        seat = acting[0]
        if n >= 6 and seat != CHANCE and ai.needs_decision(game.id, game.view(state, seat), seat):
            break
        act = sample_chance(game, state, rng) if seat == CHANCE else rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, act).state
    return Job(game.id, game.view(state, seat), seat, "strong", f"{seed}"), 0.0


def lateness(run_for: float, busy: threading.Event | None = None) -> list[float]:
    """Wake every TICK for `run_for` s (or while `busy` is clear); how late each wake-up was, ms."""
    out: list[float] = []
    end = time.monotonic() + run_for
    while not out or (time.monotonic() < end and not (busy is not None and busy.is_set())):
        t = time.monotonic()
        time.sleep(TICK)
        out.append((time.monotonic() - t - TICK) * 1000)
    return out


def line(name: str, values: list[float], took: float | None = None) -> str:
    extra = f", decision {took:.2f} s" if took is not None else ""
    return (f"{name:<28} loop lateness p50 {pct(values, 50):6.2f} ms  p99 {pct(values, 99):6.2f} ms  "
            f"max {max(values):6.2f} ms ({len(values)} wake-ups{extra})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a short decision (CI)")
    args = ap.parse_args(argv)
    iterations = 60 if args.quick else 1400  # 1400: twice the level's default
    job, _ = a_view(1)
    job = Job(job.game_id, job.view, job.seat, job.level, job.seed, iterations=iterations)
    print(line("idle", lateness(0.3 if args.quick else 1.0)))

    done = threading.Event()
    t0 = time.monotonic()
    took: list[float] = []

    def worker() -> None:
        think(job)
        took.append(time.monotonic() - t0)
        done.set()

    threading.Thread(target=worker, daemon=True).start()
    print(line("thinking in a thread", lateness(120, done), took[0] if took else None))

    print(in_worker(job, "thinking in a worker process"))
    # as the service runs it (config pin_cpu): this process's threads on one core, the worker on the others
    if pin_table(True) is not None:
        print(in_worker(job, "the same, the table's threads pinned (pin_cpu)"))
    return 0


def in_worker(job: Job, name: str) -> str:
    """The loop's lateness while `job` runs in a fresh worker process."""
    thinker = ProcessThinker(seconds=None)
    try:
        thinker.submit(Job(job.game_id, job.view, job.seat, job.level, job.seed, iterations=1)).result()  # start-up
        finished = threading.Event()
        t0 = time.monotonic()
        fut = thinker.submit(job)
        fut.add_done_callback(lambda _f: finished.set())
        values = lateness(120, finished)
        fut.result()
        return line(name, values, time.monotonic() - t0)
    finally:
        thinker.close()


if __name__ == "__main__":
    raise SystemExit(main())
