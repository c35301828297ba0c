"""The loop's work to put a computer's move in words: the whole check at once, or in slices.

    nice -n 10 .venv/bin/python bench/bench_announce.py [--quick] [--games N]

Seeded random games with computer players (ZOP with the deck tracked: seat 1 the human, seat 2 the
computer; Spywhere with one human and three computers). For each computer move, the check of its
words (`firmware_host.apps.announce.public_steps`) is run as the table once ran it, in one go, and
as the table runs it now: STEP_UNITS units per pass of the loop, the first with the move itself.
Prints p50/p99/max of the loop's time per pass (CPU time of this thread, so that other work on a
shared machine does not count; wall time too), per move (in one go) and per pass (in slices), and
the passes a move's words take. No budget is asserted (figures, not tests).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchkit import on_pi, pct
from firmware_host.apps.announce import STEP_UNITS, Check, advance, at_once, public_steps, wording
from firmware_host.apps.computer_seats import REQUIRED_OPTIONS
from games.core import CHANCE, Action, Game, GameConfig, Text
from games.playout import random_playout
from games.registry import get_game

GAMES = (("zop", 2), ("spywhere", 4))


def one_pass(check: Check, game: Game[Any, Any], state: Any, seat: int, action: Action) -> Text | None:
    """What a pass of the loop does: STEP_UNITS units, and the words once the answer is known."""
    answer, _ = advance(check, STEP_UNITS)
    return None if answer is None else wording(game, state, seat, action, answer)


def measure(game_id: str, players: int, games: int) -> dict[str, list[float]]:
    """Per computer move: the check in one go; per pass: the check in slices (CPU and wall ms)."""
    game = get_game(game_id)
    out: dict[str, list[float]] = {k: [] for k in ("once_cpu", "once_wall", "pass_cpu", "pass_wall", "passes")}
    for seed in range(games):
        config = game.validate_config(GameConfig(players, dict(REQUIRED_OPTIONS.get(game_id, {})), seed))
        play = random_playout(game, config, seed)
        state = game.initial_state(play.config)
        for seat, action in play.moves:
            if seat not in (CHANCE, 0):
                for clock, key in ((time.thread_time, "once_cpu"), (time.perf_counter, "once_wall")):
                    t = clock()
                    at_once(game, state, seat, action, [0])
                    out[key].append((clock() - t) * 1000)
                for clock, key in ((time.thread_time, "pass_cpu"), (time.perf_counter, "pass_wall")):
                    check = public_steps(game, state, seat, action, [0])
                    answer: object = None
                    passes = 0
                    while answer is None:
                        t = clock()
                        answer = one_pass(check, game, state, seat, action)
                        out[key].append((clock() - t) * 1000)
                        passes += 1
                    if key == "pass_cpu":
                        out["passes"].append(float(passes))
            state = game.apply(state, seat, action).state
    return out


def line(name: str, values: list[float], unit: str = "ms") -> str:
    return (f"  {name:<34} p50 {pct(values, 50):8.3f} {unit}  p99 {pct(values, 99):8.3f} {unit}  "
            f"max {max(values):8.3f} {unit}  ({len(values)})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="two games each (CI)")
    ap.add_argument("--games", type=int, default=20, help="seeded games per game (default 20)")
    args = ap.parse_args(argv)
    games = 2 if args.quick else args.games
    print(f"STEP_UNITS {STEP_UNITS}, {games} seeded games each")
    for game_id, players in GAMES:
        m = measure(game_id, players, games)
        print(f"{game_id} ({players} players, seat 1 human):")
        print(line("in one go, per move, CPU", m["once_cpu"]))
        print(line("in one go, per move, wall", m["once_wall"]))
        print(line("in slices, per pass, CPU", m["pass_cpu"]))
        print(line("in slices, per pass, wall", m["pass_wall"]))
        print(line("in slices, passes per move", m["passes"], "  "))
        print(f"  p99 per pass of the loop, CPU: one go {on_pi(pct(m['once_cpu'], 99))} ms, "
              f"slices {on_pi(pct(m['pass_cpu'], 99))} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
