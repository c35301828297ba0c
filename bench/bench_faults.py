"""Fault benchmark: many more kills, unplugs and damaged frames than CI, then the whole summary.

    python bench/bench_faults.py [--kills 200] [--cycles 40] [--frame-faults 60] [--workers 2]
                                 [--only kill|reader] [--keep] [--quick]

kill -9 (tests/faults/test_kill.py): for each of the five games, `--kills` kills of the
`zebra-table script` service at random moments, each followed by a restart that resumes the game
from the journal; games are played to their end and new ones started until the kills are done.
Reader (tests/faults/test_reader.py): each game played once on the simulated table, then replayed
by a `zebra-table script` process with `--cycles` unplug/replug cycles and `--frame-faults`
damaged frames (at most one per piece moved), against a fault-free replay. Prints the figures;
exits 1 on any mismatch. `--quick` (CI, after the fault suites themselves ran in the tests): one
game, one kill, one unplug, one damaged frame of each kind, to check that the script still runs.
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.faults.test_kill import PLANS, run_plans
from tests.faults.test_reader import check_run, start_runs, stop_runs
from tests.kits import faultkit


def bench_kills(work: Path, kills: int, workers: int, games: int) -> list[str]:
    """Run the first `games` games' KillRun with `kills` kills; returns the problems."""
    plans = tuple(dataclasses.replace(p, kills=kills) for p in PLANS[:games])
    problems: list[str] = []
    t = time.perf_counter()
    for game, run in run_plans(plans, work / "kill", workers).items():
        if isinstance(run, BaseException):
            problems.append(f"{game}: {run!r}")
            continue
        figs = run.figures
        faultkit.record("kill -9", **{k: figs[k] for k in (
            "kills", "kills_survived", "mismatches", "acked_moves", "committed_unacked", "resumes",
            "games_finished", "fresh_processes", "forked_processes", "kills_while_booting",
            "kills_while_resuming", "events")})
        problems += run.mismatches
        print(f"  {game:17s} {figs['kills']:5d} kills, {figs['kills_survived']:5d} survived, "
              f"{figs['acked_moves']:6d} moves acked, {figs['committed_unacked']:3d} committed unacked, "
              f"{figs['games_finished']:3d} games", flush=True)
    print(f"  kill -9: {time.perf_counter() - t:.1f} s", flush=True)
    return problems


def bench_reader(work: Path, cycles: int, frame_faults: int, games: int) -> list[str]:
    """Replay the first `games` games with reader faults against a fault-free replay; returns the problems."""
    t = time.perf_counter()
    started = start_runs(faultkit.CASES[:games], work / "reader", frame_faults, cycles,
                         garbage=max(1, frame_faults // 5))
    problems: list[str] = []
    try:
        for case, planned, clean, bad in started:
            figures, found = check_run(case, planned, clean, bad, work / "reader")
            faultkit.record("reader faults", **figures)
            problems += found
            print(f"  {case.game:17s} {figures['frames_injected']:5d} frames injected, "
                  f"{figures['reconnects']:4d} reconnects, {figures['resyncs']:4d} resyncs, "
                  f"{figures['mismatches']} mismatches", flush=True)
    finally:
        stop_runs(started)
    print(f"  reader: {time.perf_counter() - t:.1f} s", flush=True)
    return problems


def main() -> int:
    """Run the benchmark, print the summary; 1 if anything mismatched."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kills", type=int, default=200, help="kills per game (CI: 40)")
    ap.add_argument("--cycles", type=int, default=40, help="reader unplug/replug cycles per game (CI: 11)")
    ap.add_argument("--frame-faults", type=int, default=60,
                    help="damaged frames per game, at most one per piece moved (CI: 20)")
    ap.add_argument("--workers", type=int, default=2, help="games killed at the same time")
    ap.add_argument("--only", choices=("kill", "reader"), help="run one part only")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (journals, transcripts)")
    ap.add_argument("--quick", action="store_true", help="CI: one game, one kill, one unplug, one fault of each kind")
    args = ap.parse_args()
    games = len(PLANS)
    if args.quick:
        args.kills, args.cycles, args.frame_faults, games = 1, 1, 6, 1
    work = Path(tempfile.mkdtemp(prefix="zt-bench-faults-"))
    faultkit.SUMMARY_FILE = work / "fault-summary.json"
    problems: list[str] = []
    t = time.perf_counter()
    try:
        if args.only in (None, "kill"):
            print(f"kill -9: {args.kills} kills per game", flush=True)
            problems += bench_kills(work, args.kills, args.workers, games)
        if args.only in (None, "reader"):
            print(f"reader: {args.cycles} unplugs and {args.frame_faults} damaged frames per game", flush=True)
            problems += bench_reader(work, args.cycles, args.frame_faults, games)
        print(f"\nfault summary ({time.perf_counter() - t:.0f} s):")
        for line in faultkit.summary_lines():
            print(line)
        for problem in problems[:20]:
            print("MISMATCH", problem)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
