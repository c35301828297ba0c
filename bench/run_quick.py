"""Run every bench/bench_*.py in its quick mode (CI): each must finish and print its figures.

    .venv/bin/python bench/run_quick.py [--timeout 600]

Benchmarks are found by name, so a new one is run too; one without `--quick` fails here. No time
is compared with a budget (this machine's speed is not the Pi's): the point is that the scripts
keep working as the code changes. One figure is checked: bench_instructions.py counts the
instructions of a fixed sample of table events (the same on any machine) and fails on a regression
of more than 10 % from its committed baseline. Exit status 1 if any failed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def run(script: Path, timeout: float) -> tuple[bool, str]:
    """Run one benchmark's quick mode; (ok, what to print)."""
    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, str(script), "--quick"], capture_output=True, text=True,
                              cwd=BENCH.parent, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"{script.name}: no result within {timeout:.0f} s"
    took = time.monotonic() - start
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0 or not lines:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        return False, f"{script.name}: exit {done.returncode}, {len(lines)} lines printed ({took:.1f} s)\n{tail}"
    return True, f"{script.name} ({took:.1f} s)\n" + "\n".join("  " + line for line in lines)


def main() -> int:
    """Run them all, print their figures, 1 if any failed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds allowed to each benchmark")
    args = ap.parse_args()
    failed = []
    for script in sorted(BENCH.glob("bench_*.py")):
        ok, text = run(script, args.timeout)
        print(text, flush=True)
        if not ok:
            failed.append(script.name)
    print(f"quick benchmarks: {len(failed)} failed" + (f": {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
