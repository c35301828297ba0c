"""Journal at scale: `games list` over many journaled games, and the journal's open time.

    python bench/bench_journal.py [--games 10000] [--quick]

Creates a journal of `--games` finished ZOP games (one seeded playout copied: real records,
options, seats, outcome, JSON actions), closes it cleanly, then measures, each in a fresh
process: `zebra-table games list` (wall time and peak RSS) and `games show` of one game; and
in this process the time `Journal(path)` takes to open after a clean stop (no integrity check)
and after an unclean one (the check runs). Targets: list ≤ 0.5 s and ≤ 60 MB RSS over 10,000
games; open ≤ 50 ms after a clean stop. Prints the figures and their ratio to the targets.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware_host.storage.journal import Journal  # noqa: E402
from games.core import GameConfig  # noqa: E402

LIST_SECONDS, LIST_MB, OPEN_MS = 0.5, 60.0, 50.0


def build(path: Path, games: int) -> int:
    """A journal of real finished ZOP games (one seeded playout, copied), in big transactions."""
    from games.core import to_json
    from games.playout import random_playout
    from games.registry import get_game

    game = get_game("zop")
    played = random_playout(game, GameConfig(2, {}, 7), 7)
    options = json.dumps(to_json(played.config.options), sort_keys=True)
    outcome = json.dumps(game.outcome(played.state).to_json())
    rows = [(i, seat, json.dumps(to_json(act), sort_keys=True)) for i, (seat, act) in enumerate(played.moves)]
    j = Journal(path)  # the schema
    j.close()
    db = sqlite3.connect(path)
    now = time.time()
    with db:
        for g in range(1, games + 1):
            db.execute("INSERT INTO games (id, game, players, options, seed, seats, started, ended, status, outcome)"
                       " VALUES (?,?,?,?,?,?,?,?,?,?)",
                       (g, "zop", 2, options, 7, "[1, 2]", now - g * 60, now - g * 30, "finished", outcome))
            db.executemany("INSERT INTO moves VALUES (?,?,?,?,?)", [(g, i, s, a, now) for i, s, a in rows])
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return len(rows)


def timed_command(args: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak RSS (MB) of `zebra-table ARGS` in a fresh process."""
    code = ("import resource, sys; from firmware_host.commands.main import main; rc = main(sys.argv[1:]); "
            "u = resource.getrusage(resource.RUSAGE_SELF); "
            "sys.stderr.write(f'{u.ru_utime + u.ru_stime} {u.ru_maxrss}\\n'); sys.exit(rc)")
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, check=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - t
    cpu, rss = done.stderr.split()[-2:]
    return took, float(cpu), int(rss) / 1024


def _imports() -> tuple[float, float, float]:
    code = ("import resource, sys, firmware_host.commands.main; firmware_host.commands.main.build_parser(\"games\"); "
            "u = resource.getrusage(resource.RUSAGE_SELF); "
            "sys.stderr.write(f'{u.ru_utime + u.ru_stime} {u.ru_maxrss}\\n')")
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, stderr=subprocess.PIPE, text=True)
    cpu, rss = done.stderr.split()[-2:]
    return time.perf_counter() - t, float(cpu), int(rss) / 1024


def open_ms(path: Path, rounds: int = 20) -> float:
    """Median milliseconds of opening and closing the journal (a clean stop each time)."""
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        j = Journal(path)
        times.append((time.perf_counter() - t) * 1000)
        j.close()
    return sorted(times)[len(times) // 2]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--quick", action="store_true", help="500 games (CI)")
    args = p.parse_args(argv)
    games = 500 if args.quick else args.games
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "journal.sqlite"
        t = time.perf_counter()
        moves = build(path, games)
        print(f"journal: {games} games × {moves} moves, {path.stat().st_size / 1e6:.1f} MB, "
              f"built in {time.perf_counter() - t:.1f} s")
        _, base_cpu, base_mb = _imports()
        took, cpu, mb = timed_command(["games", "--journal", str(path), "list"])
        print(f"games list: {took:.2f} s wall, {cpu:.2f} s CPU ({cpu - base_cpu:.2f} s beyond the interpreter "
              f"and imports), peak RSS {mb:.0f} MB ({base_mb:.0f} MB for the imports alone) — targets "
              f"{LIST_SECONDS} s ({cpu / LIST_SECONDS:.2f}× in CPU), {LIST_MB:.0f} MB ({mb / LIST_MB:.2f}×)")
        took, cpu, mb = timed_command(["games", "--journal", str(path), "show", str(games)])
        print(f"games show {games}: {took:.2f} s wall, {cpu:.2f} s CPU, peak RSS {mb:.0f} MB")
        clean = open_ms(path)
        print(f"journal open after a clean stop: {clean:.1f} ms median — target {OPEN_MS:.0f} ms "
              f"({clean / OPEN_MS:.2f}×)")
        db = sqlite3.connect(path)
        db.execute("UPDATE meta SET value='0' WHERE key='clean'")
        db.commit()
        db.close()
        t = time.perf_counter()
        j = Journal(path)
        print(f"journal open after an unclean stop (integrity check ran: {j.checked}): "
              f"{(time.perf_counter() - t) * 1000:.0f} ms")
        j.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
