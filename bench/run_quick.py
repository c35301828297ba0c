"""Run every benchmark's quick mode (bench/bench_*.py, bench/sweep_*.py; CI): each must print its figures.

    .venv/bin/python bench/run_quick.py [--timeout 600]

Benchmarks are found by name, so a new one is run too; one without `--quick` fails here. No time
is compared with a budget (this machine's speed is not the Pi's): the point is that the scripts
keep working as the code changes, and print every section they report (EXPECTED: a section
missing fails the run as a crash does). One figure is checked: bench_instructions.py counts the
instructions of a fixed sample of table events (the same on any machine) and fails on a regression
of more than 10 % from its committed baseline. Exit status 1 if any failed.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent

# What a quick run must print, by script: (regular expression, times it matches; None: at least once).
# Only that the sections are there, never a figure's value.
Expect = tuple[str, int | None]
_AI_PAIRS: list[Expect] = [(f"{level} vs {opponent}", 3) for level in ("easy", "greedy", "strong")
                           for opponent in ("random", "greedy", "mc")]
EXPECTED: dict[str, list[Expect]] = {
    "bench_ai.py": [*((f"== {game} ==", None) for game in ("droles-de-zebres", "zop", "spywhere")), *_AI_PAIRS,
                    (r"95% CI", 27), ("playouts:", 6), ("credited by seat:", 18),
                    ("credited by place in the turn order:", 9), ("flat Monte-Carlo move p50", 9),
                    ("MISSED", 0), ("met", 0)],  # quick figures carry no verdict
    "bench_ddz_search.py": [("ms CPU per decision", 1)],
    "bench_journal.py": [("games list:", None), ("journal open after a clean stop", None),
                         ("integrity check ran: True", None)],
    "bench_remote.py": [("-> instruction at the other", None), ("bytes per move", None),
                        ("remote games at once on one broker", None)],
    "bench_remote_mata_hari.py": [("on the loop: ", None), ("in the worker: loop ", None)],
    "bench_remote_retriple.py": [("followed to the end", None), ("triples shuffled back", None),
                                 ("host: shadow", None), ("bytes per message sealed", None)],
    "bench_remote_whole.py": [(r"whole game max \d+ B", 6)],
    "bench_remote_spywhere.py": [("host: shadow", None), ("host's loop", None), ("bytes per message sealed", None),
                                 ("ms per message followed", None)],
    "bench_spywhere.py": [(r"seeds 0-3 \[", None), (r"seeds 4-7 \[", None), ("all ranges: won ", None),
                          ("credited by place in the turn order: 1st ", 3), ("move CPU ms: p50 ", None),
                          ("it ended the game: ", None), ("another player did: ", None),
                          ("model, odds from ", 3), (r"true passports \(bound\)", None),
                          ("model bound, ", 3), ("another player ended the game before its third turn", 1)],
    "bench_zop_fuzz.py": [(r"seeds \d+-\d+: \d+ games, \d+ played to the end \(at most \d+ steps each\)", 1),
                          (r"games stopped \(an opening not sent, or a reveal shown on stand-ins\): \d+", 1),
                          (r"games warned: \d+", 1),
                          ("CPU per game: ", 1)],
    "sweep_mata_hari_ends.py": [(r"games 3, moves \d+, not told \d+", 1), (r"ends searched \d+", 1),
                                ("per move CPU p50 ", 1)],
    "sweep_zop_decisions.py": [(r"\d+ decision points, reference \d+ playouts", 1),
                               ("paired   mean regret ", 1), ("unpaired mean regret ", 1)],
    "sweep_zop_endgame.py": [(r"2 random matches: \d+ decisions with two cards or more, \d+ in the endgame", 1),
                             ("endgame decision CPU ms: p50 ", 1)],
    "sweep_zop_opponent_choice.py": [(r"seeds 0-1: \d+ commits; a uniformly random card", 1),
                                     *((rf"{name} *: the greedy-best card ", 1)
                                       for name in ("random", "greedy", "mc"))],
    "bench_spread.py": [(r"slowest events shared by two runs", 5), (r"worst p99 per run .*; median", 1)],
    "bench_table_sections.py": [(r"spywhere, 5 seats: \d+ of \d+ events sent every seat a frame", 1),
                                ("the journal's commit", 1), ("the screen writers", 1),
                                ("the LED link's thread", 1)],
    "bench_venue.py": [(r"events/s \(QoS 1, every PUBACK\)", None), ("ms CPU/move", None),
                       ("50 tables publishing at once", None), ("µs/message signed", None)],
    "bench_web.py": [*((label, None) for label in ("no web server", "server, no page", "1 table page",
                                                    "8 table pages")),
                     (r"8 table pages\s*: \+\s*-?\d+ µs CPU per event burst .* snapshots/s", None),
                     ("event→page p50", None),
                     (r"50 spectators\s*: RSS [\d.]+ MB → [\d.]+ MB .*the table's process alone.*server saw 50 "
                      r"pages\); press → screen p50 [\d.]+ ms, p95 [\d.]+ ms", None),
                     (r"phone button\s*: seat page message → seat screen p50 [\d.]+ ms, p95 [\d.]+ ms "
                      r"\(20/20 presses\)", None),
                     *((rf"page weight {re.escape(page)}\s*: [\d.]+ kB \(HTML [\d.]+ kB \+ \d+ files; "
                        r"0 references off the table\)", None) for page in ("/ ", "/watch", "seat page", "/replay"))],
}


def missing(script: str, out: str) -> list[str]:
    """The sections of EXPECTED[script] that `out` lacks, or has a wrong number of times."""
    problems = []
    for pattern, times in EXPECTED.get(script, []):
        found = len(re.findall(pattern, out))
        if (found == 0) if times is None else (found != times):
            problems.append(f"{pattern!r}: printed {found} times, {'at least once' if times is None else times}")
    return problems


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
    lacking = missing(script.name, done.stdout)
    if lacking:
        shown = "\n".join("  " + line for line in lines)
        return False, f"{script.name}: sections missing ({took:.1f} s): " + "; ".join(lacking) + "\n" + shown
    return True, f"{script.name} ({took:.1f} s)\n" + "\n".join("  " + line for line in lines)


def main() -> int:
    """Run them all, print their figures, 1 if any failed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds allowed to each benchmark")
    args = ap.parse_args()
    failed = []
    for script in sorted([*BENCH.glob("bench_*.py"), *BENCH.glob("sweep_*.py")]):
        ok, text = run(script, args.timeout)
        print(text, flush=True)
        if not ok:
            failed.append(script.name)
    print(f"quick benchmarks: {len(failed)} failed" + (f": {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
