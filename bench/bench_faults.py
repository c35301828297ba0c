"""Fault benchmark: the attacks of an owner's worst day, counted: kill -9, bad reader frames, random
command lines, poison messages for the venue, damaged journals.

    python bench/bench_faults.py [--kills 200] [--cycles 40] [--frame-faults 60] [--lines 5000]
                                 [--poisons 500] [--salvage-games 10] [--workers 2]
                                 [--only kill|reader|rules|script|venue|salvage] [--keep] [--quick]

kill -9 (tests/faults/test_kill.py): for each of the five games, `--kills` kills of the
`zebra-table script` service at random moments (during play, while it restarts, while it resumes),
each followed by a restart that resumes the game from the journal; every acknowledged move is
looked for in the journal and every resumed state compared with the replay of the journaled moves.
Reader (tests/faults/test_reader.py): each game replayed by a `zebra-table script` process with
`--cycles` unplug/replug cycles and `--frame-faults` damaged frames, against a fault-free replay.
rules, script (tests/kits/fuzzlines.py): `--lines` random lines each (legal lines as they are or
with one value changed, arbitrary JSON, arbitrary bytes), a traceback or a hang counted.
venue (tests/kits/venue_poison.py): every known poison message and `--poisons` random variants of
real messages published to a venue on a real mosquitto: set aside, the writer still storing.
salvage (tests/kits/salvage_sweep.py): a journal of `--salvage-games` real games with each page
zeroed in turn, then cut short at random lengths, booted through the table's path: kept moves
are prefixes, the screens' counts true.
Prints the figures; exits 1 on any acknowledged move lost, mismatch, traceback, hang, untrue notice
or venue writer stopped. `--quick` (CI, run by bench/run_quick.py): one game, one kill, one
unplug, a few hundred random lines, 40 random messages, 11 damaged journals.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.faults.test_kill import PLANS, run_plans
from tests.faults.test_reader import check_run, start_runs, stop_runs
from tests.kits import faultkit, fuzzlines, salvage_sweep, venue_poison


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
            "kills", "kills_survived", "mismatches", "acked_moves", "acked_moves_checked", "acked_moves_lost",
            "committed_unacked",
            "resumes", "resumed_states_compared", "states_compared", "games_finished", "fresh_processes",
            "forked_processes", "kills_while_booting", "kills_while_resuming", "events")})
        problems += run.mismatches
        print(f"  {game:17s} {figs['kills']:5d} kills, {figs['kills_survived']:5d} survived, "
              f"{figs['acked_moves']:6d} moves acked, {figs['committed_unacked']:3d} committed unacked, "
              f"{figs['games_finished']:3d} games", flush=True)
    k: Counter[str] = faultkit.SUMMARY.get("kill -9", Counter())
    restart, resume = k.get("kills_while_booting", 0), k.get("kills_while_resuming", 0)
    kills, checked, lost = k["kills"], k["acked_moves_checked"], k["acked_moves_lost"]
    print(f"  kill -9: {kills} kills ({kills - restart - resume} during play, {restart} while restarting, "
          f"{resume} while resuming); {k['acked_moves']} moves acknowledged, looked for in the journal "
          f"{checked} times (after each kill and at the end, every one so far), {lost} lost; "
          f"{k['resumed_states_compared']} resumed states compared ({k['states_compared']} states in all), "
          f"{k['mismatches']} mismatches; "
          f"{time.perf_counter() - t:.1f} s", flush=True)
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


def bench_lines(work: Path, command: str, lines: int, seed: int) -> list[str]:
    """`lines` random lines through `rules` or `script`; returns the problems."""
    t = time.perf_counter()
    run = fuzzlines.rules_lines if command == "rules" else fuzzlines.script_lines
    tally = run(lines, seed, work)
    f = tally.figures
    faultkit.record(f"random {command} lines", **f)
    print(f"  {command}: {f['lines']} random lines ({f['accepted']} accepted, {f['refused']} refused"
          f"{', ' + str(f['skipped']) + ' blank' if f['skipped'] else ''}), {f['tracebacks']} tracebacks, "
          f"{f['hangs']} hangs; slowest line {f['slowest_ms']} ms; {time.perf_counter() - t:.1f} s", flush=True)
    return tally.problems


def bench_venue(work: Path, poisons: int, seed: int) -> list[str]:
    """The known poisons and `poisons` random messages at a venue; returns the problems."""
    t = time.perf_counter()
    work.mkdir(parents=True, exist_ok=True)
    f, problems = venue_poison.poison_run(work, poisons, seed)
    faultkit.record("venue poison", **f)
    print(f"  venue: {f['known_poisons']} known poisons ({f['known_poisons_quarantined']} set aside) and "
          f"{f['random_messages']} random messages: {f['quarantined']} quarantined, {f['games_stored']} games "
          f"stored, writer alive {'yes' if f['writer_alive'] else 'NO'}, exit 0 {'yes' if f['exit_0'] else 'NO'}, "
          f"{f['tracebacks']} tracebacks; {time.perf_counter() - t:.1f} s", flush=True)
    return problems


def bench_salvage(work: Path, games: int, pages: int | None, cuts: int, seed: int) -> list[str]:
    """Damaged copies of a journal of real games booted; returns the problems."""
    t = time.perf_counter()
    work.mkdir(parents=True, exist_ok=True)
    f, problems = salvage_sweep.sweep(work, games, cuts, seed, pages)
    faultkit.record("salvage", **f)
    print(f"  salvage: {f['damages']} damaged journals ({f['damages'] - cuts} pages zeroed, {cuts} cut short), "
          f"{f['set_aside']} set aside, {f['damage_unseen']} unseen at boot; games kept {f['games_kept']} of "
          f"{f['games_written']}, moves kept {f['moves_kept']} of {f['moves_written']}; notices true "
          f"{f['notices_true']}, untrue {f['notices_untrue']}; {f['tracebacks']} tracebacks; "
          f"{time.perf_counter() - t:.1f} s", flush=True)
    return problems


PARTS = ("kill", "reader", "rules", "script", "venue", "salvage")


def main() -> int:
    """Run the benchmark, print the summary; 1 if anything mismatched."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kills", type=int, default=200, help="kills per game (CI: 40)")
    ap.add_argument("--cycles", type=int, default=40, help="reader unplug/replug cycles per game (CI: 11)")
    ap.add_argument("--frame-faults", type=int, default=60,
                    help="damaged frames per game, at most one per piece moved (CI: 20)")
    ap.add_argument("--lines", type=int, default=5000, help="random `rules` lines and as many `script` lines")
    ap.add_argument("--poisons", type=int, default=500, help="random messages at the venue, after the known poisons")
    ap.add_argument("--salvage-games", type=int, default=10, help="real games in the journal damaged page by page")
    ap.add_argument("--cuts", type=int, default=20, help="journals cut short at a random length")
    ap.add_argument("--seed", type=int, default=0, help="seed of the random lines, messages and cuts")
    ap.add_argument("--workers", type=int, default=2, help="games killed at the same time")
    ap.add_argument("--only", choices=PARTS, help="run one part only")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (journals, transcripts)")
    ap.add_argument("--quick", action="store_true", help="CI: one game, one kill, one unplug, one fault of each kind")
    args = ap.parse_args()
    games, pages = len(PLANS), None
    if args.quick:
        args.kills, args.cycles, args.frame_faults, games = 1, 1, 6, 1
        args.lines, args.poisons, args.salvage_games, args.cuts, pages = 200, 40, 5, 3, 8
    # a damaged journal, a poison message are logged as errors by the hundred: expected here
    for name in ("firmware_host", "drivers"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
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
        for command in ("rules", "script"):
            if args.only in (None, command):
                print(f"{command}: {args.lines} random lines", flush=True)
                problems += bench_lines(work, command, args.lines, args.seed)
        if args.only in (None, "venue"):
            print(f"venue: the known poisons and {args.poisons} random messages", flush=True)
            problems += bench_venue(work / "venue", args.poisons, args.seed)
        if args.only in (None, "salvage"):
            print(f"salvage: a journal of {args.salvage_games} games, "
                  f"{'every page' if pages is None else str(pages) + ' pages'} zeroed in turn, {args.cuts} cuts",
                  flush=True)
            problems += bench_salvage(work / "salvage", args.salvage_games, pages, args.cuts, args.seed)
        print(f"\nfault summary ({time.perf_counter() - t:.0f} s):")
        for line in faultkit.summary_lines():
            print(line)
        for problem in problems[:20]:
            print("PROBLEM", problem)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
