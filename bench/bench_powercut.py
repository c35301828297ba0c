"""Power-cut benchmark: hundreds of power cuts over the five games, then the broken journals.

    python bench/bench_powercut.py [--cuts 500] [--quick] [--seed 0]

The table's runtime and journal run over an SQLite VFS that keeps every write since the last
sync volatile and, at a random I/O operation, drops, keeps or tears each of them (tests/
tests/kits/crashdisk.py, tests/kits/powercut.py). After each cut the table boots on what survived: every move a
screen showed must be in the journal, the journal must hold exactly the first moves played, the
resumed state must equal the replay. Games are played to their end and played again until
`--cuts` cuts are done. Then the same is run with synchronous=OFF, synchronous=NORMAL and with
moves shown before their commit: each must be caught. Exits 1 on any problem or missed catch.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.kits import powercut
from tests.kits.faultkit import CASES


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; prints figures; exit status 1 on any problem."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cuts", type=int, default=500, help="power cuts over the five games (at least)")
    p.add_argument("--quick", action="store_true", help="60 cuts: what CI can afford")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    # the journal logs each interrupted checkpoint as a warning: expected here, by the hundred
    quiet = logging.getLogger("firmware_host")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        return _run(args)
    finally:
        quiet.setLevel(level)  # run in-process by the tests: leave logging as it was


def _run(args: argparse.Namespace) -> int:
    cuts = 60 if args.quick else args.cuts
    t = time.perf_counter()
    report = powercut.run(CASES, games_per_case=1, span=80, seed=args.seed, min_cuts=cuts)
    took = time.perf_counter() - t
    f = report.figures
    print(f"power cuts: {f['cuts']} over {f['games']} whole games ({f['moves']} moves), "
          f"{f['resumes']} resumes, {f['cuts_while_booting']} cuts while booting; "
          f"{f['acked_moves_lost']} acknowledged moves lost, {len(report.problems)} problems; {took:.1f} s "
          f"({1000 * took / max(1, f['cuts']):.0f} ms per cut)")
    print(f"  unsynced writes at the cuts: {f['writes_dropped']} dropped, {f['writes_torn']} torn, "
          f"{f['writes_kept']} kept")
    for problem in report.problems[:10]:
        print(f"  PROBLEM {problem}")
    failed = bool(report.problems) or f["cuts"] < cuts
    for kind in powercut.BROKEN:
        t = time.perf_counter()
        wrong = powercut.run(CASES, games_per_case=1, span=80, seed=args.seed + 1, kind=kind)
        w = wrong.figures
        caught = bool(wrong.problems)
        failed |= not caught
        print(f"  broken on purpose, {kind}: {'caught' if caught else 'NOT CAUGHT'} — "
              f"{w['acked_moves_lost']} acknowledged moves lost, {w['journal_damaged']} journals damaged, "
              f"{len(wrong.problems)} problems in {w['cuts']} cuts ({time.perf_counter() - t:.1f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
