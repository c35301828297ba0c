"""ZOP across two tables fuzzed: how many random games stop or warn (the goal is none).

    nice -n 10 python bench/bench_zop_fuzz.py [--first N] [--seeds N] [--ops N] [--quick]

Each seed plays one game on two simulated tables' real RemoteSeats, both tables' loops stepped one
at a time, each table's messages delivered to the other in a random order among its players'
random moves (tests/kits/zop_fuzz.py). A game stops when, every message delivered, the host waits
for an opening the joining table does not send, or when the joining table's screen shows turns
revealed otherwise than the host's (on the stand-ins of its cards); it warns when a table logs a warning (a move it
cannot tell or follow). Prints the games played, those played to the end, those that stopped or
warned (with their seeds), and the CPU seconds per game. Exit status 1 if any stopped or warned.
A game is played to the match's end (1,200-1,500 steps), or `--ops` steps (600: about a round).
About 3 s of CPU a game (a match): 50 games take some 3 minutes alone, twice that on a shared machine.

`--quick` (CI): two games of 600 steps, the script checked to run.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware_host.commands.common import whole_number  # noqa: E402
from tests.kits.zop_fuzz import play  # noqa: E402
from tests.service.apps.solo_table import open_table  # noqa: E402


def main() -> int:
    """Play the seeds and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first", type=whole_number(0, 10_000_000), default=0, help="the first seed")
    ap.add_argument("--seeds", type=whole_number(1, 100_000), default=100, help="games played")
    ap.add_argument("--ops", type=whole_number(1, 100_000), default=3000, help="random steps per game at most")
    ap.add_argument("--quick", action="store_true", help="two short games: the script checked to run")
    args = ap.parse_args()
    seeds = range(args.first, args.first + (2 if args.quick else args.seeds))
    ops = 600 if args.quick else args.ops
    logging.basicConfig(level=logging.CRITICAL)  # the warnings are counted, not printed
    tables = open_table(seed=1), open_table(seed=2)
    stopped: list[int] = []
    warned: list[int] = []
    ended = 0
    start = time.process_time()
    try:
        for seed in seeds:
            out = play(tables, seed, ops)
            ended += out.over
            if out.stuck is not None:
                stopped.append(seed)
                print(f"seed {seed} stopped: {out.stuck}", flush=True)
            if out.warnings:
                warned.append(seed)
                print(f"seed {seed} warned: {out.warnings[0]}", flush=True)
    finally:
        for table in tables:
            table.close()
    cpu = time.process_time() - start
    print(f"seeds {seeds.start}-{seeds.stop - 1}: {len(seeds)} games, {ended} played to the end"
          f" (at most {ops} steps each)")
    print(f"games stopped (an opening not sent, or a reveal shown on stand-ins): {len(stopped)} {stopped}")
    print(f"games warned: {len(warned)} {warned}")
    print(f"CPU per game: {cpu / len(seeds):.2f} s")
    return 1 if stopped or warned else 0


if __name__ == "__main__":
    sys.exit(main())
