"""One run's p99 against another's: the same slow events every run, or the machine's noise.

    python bench/bench_spread.py [--runs 3] [--events 1000] [--warmup 100] [--journal-dir DIR] [--quick]

Each run is `bench_table.py`'s worker in a fresh process: every game played by the same moves, the
same events in the same order (`PYTHONHASHSEED=0`). Per game: each run's p99 (host CPU per table
event, as `bench_table.py` counts it), the p99 of each event's lowest CPU over the runs (what the
events cost, less what the machine added to some runs), and how many of one run's 10 slowest
events are among another run's 10 slowest (10: the tail is the events' own cost; 0: it is noise).
Last, each run's worst p99 and their median: a change is judged by its median against the table's,
runs of the two alternated, never by one run. `--quick` (CI): two runs of 60 events, figures only.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from benchkit import pct

BENCH = Path(__file__).resolve().parent
SLOWEST = 10


def run(events: int, warmup: int, journal_dir: Path | None) -> dict[str, list[float]]:
    """One fresh process of bench_table.py's worker: game -> its events' CPU (ms), in order."""
    cmd = [sys.executable, str(BENCH / "bench_table.py"), "--worker", "--events", str(events), "--warmup", str(warmup)]
    cmd += [] if journal_dir is None else ["--journal-dir", str(journal_dir)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=BENCH.parent,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    out = json.loads(done.stdout.splitlines()[-1])
    return {game: figs["cpu"] for game, figs in out["games"].items()}


def slowest(cpu: list[float]) -> set[int]:
    """The indices of a run's slowest events."""
    return set(sorted(range(len(cpu)), key=cpu.__getitem__, reverse=True)[:SLOWEST])


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="fresh processes, one after the other (at least 2)")
    ap.add_argument("--events", type=int, default=1000, help="measured table events per game")
    ap.add_argument("--warmup", type=int, default=100, help="unmeasured events first, per game")
    ap.add_argument("--journal-dir", type=Path, metavar="DIR", help="the folder of the journal (bench_table.py's)")
    ap.add_argument("--quick", action="store_true", help="CI: two runs of 60 events per game, figures only")
    args = ap.parse_args()
    if args.quick:
        args.runs, args.events, args.warmup = 2, 60, 10
    if args.runs < 2:
        ap.error("--runs: at least 2 (the figures compare runs)")
    if args.journal_dir is not None and not args.journal_dir.is_dir():
        ap.error(f"--journal-dir: {args.journal_dir} is not a folder")
    runs = [run(args.events, args.warmup, args.journal_dir) for _ in range(args.runs)]
    print(f"host CPU per table event, {args.runs} runs of {args.events} events per game after {args.warmup}, "
          f"fresh processes, the same events; ms")
    worst = [0.0] * args.runs
    for game in runs[0]:
        cpus = [r[game] for r in runs]
        if len({len(c) for c in cpus}) != 1:
            print(f"{game:17} the runs played different events: not compared")
            continue
        p99 = [pct(c, 99) for c in cpus]
        worst = [max(w, p) for w, p in zip(worst, p99)]
        lowest = [min(v) for v in zip(*cpus)]
        tops = [slowest(c) for c in cpus]
        shared = statistics.mean(len(a & b) for a, b in itertools.combinations(tops, 2))
        print(f"{game:17} p99 per run {', '.join(f'{p:.2f}' for p in p99)}; p99 of each event's lowest "
              f"{pct(lowest, 99):.2f}; {shared:.1f} of {SLOWEST} slowest events shared by two runs")
    print(f"worst p99 per run {', '.join(f'{w:.2f}' for w in worst)}; median {statistics.median(worst):.2f} ms")


if __name__ == "__main__":
    main()
