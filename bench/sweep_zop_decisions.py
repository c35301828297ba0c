"""ZOP's strong level, one decision at a time: how often its card is the best one, paired or not.

    nice -n 10 python bench/sweep_zop_decisions.py [--points N] [--reference PLAYOUTS] [--runs R]

Decision points: commits of seeded random matches (deck model, a seat with at least two cards to
choose from, none laid yet; at most three per match). For each, a long search (--reference
playouts, common random numbers) values every card; then the strong level decides --runs times
with its own budget (1260 playouts), its candidates compared on common random numbers (paired, as
it plays) or each playout on its own deal (unpaired). Prints, for each, the mean regret (the
reference value of the best card minus that of the card chosen, reward in [0, 1]) and how often
the best card was chosen. --quick: a few points with small budgets (its figures mean nothing).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games.zop.ai as zop_ai
from firmware_host.commands.common import whole_number
from games.ai import Budget
from games.ai.budget import Deadline
from games.ai.search import ArmStats, sequential_halving
from games.core import GameConfig
from games.playout import random_playout
from games.zop import GAME
from games.zop.state import COMMIT, TRACKED
from games.zop.views import ZopView

CONFIG = GameConfig(players=2, options={"deck": TRACKED})


def decision_points(count: int) -> list[tuple[ZopView, int]]:
    """Up to three commits per seeded random match, until `count` are found."""
    points: list[tuple[ZopView, int]] = []
    config = GAME.validate_config(CONFIG)
    for seed in range(1000, 1000 + 10 * count):
        state = GAME.initial_state(config)
        commits = []
        for seat, act in random_playout(GAME, CONFIG, seed).moves:
            state = GAME.apply(state, seat, act).state
            if state.phase == COMMIT:
                commits.append(state)
        rng = random.Random(seed)
        for state in rng.sample(commits, min(3, len(commits))):
            for seat in (0, 1):
                view = GAME.view(state, seat)
                if (zop_ai.needs_decision(view, seat) and not state.sides[seat].laid
                        and len(zop_ai._commit_candidates(view, seat, state)) >= 2):
                    points.append((view, seat))
                    break
        if len(points) >= count:
            return points[:count]
    return points


def halving(forced: bool) -> Callable[..., tuple[int, list[ArmStats]]]:
    """sequential_halving with its pairing forced on or off, whatever the caller asks."""
    def search(n: int, pull: Callable[[int, random.Random], float], deadline: Deadline, rng: random.Random,
               paired: bool = True) -> tuple[int, list[ArmStats]]:
        return sequential_halving(n, pull, deadline, rng, paired=forced)
    return search


def main() -> None:
    """Parse the arguments, sweep the decision points and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=whole_number(1, 1000), default=60)
    parser.add_argument("--reference", type=whole_number(1, 1_000_000), default=20_000)
    parser.add_argument("--runs", type=whole_number(1, 100), default=6)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    points_n, reference, runs, budget = (3, 200, 1, Budget(60)) if args.quick else (
        args.points, args.reference, args.runs, zop_ai.SEARCH_BUDGETS["flat"])
    points = decision_points(points_n)
    start = time.process_time()
    regret: dict[bool, list[float]] = {True: [], False: []}
    best_chosen = {True: 0, False: 0}
    for view, seat in points:
        with mock.patch.object(zop_ai, "sequential_halving", halving(True)):
            ranked = zop_ai.rank(view, seat, "strong", random.Random(99), Budget(reference))
        value = {r.action["card"]: r.value for r in ranked}
        top = max(value.values())
        for paired in (True, False):
            with mock.patch.object(zop_ai, "sequential_halving", halving(paired)):
                for run in range(runs):
                    card = zop_ai.choose(view, seat, "strong", random.Random(run), budget)["card"]
                    regret[paired].append(top - value[card])
                    best_chosen[paired] += value[card] == top
    print(f"{len(points)} decision points, reference {reference} playouts, {runs} runs each "
          f"at {budget.iterations} playouts ({time.process_time() - start:.0f} s CPU)")
    for paired in (True, False):
        n = len(regret[paired])
        print(f"  {'paired  ' if paired else 'unpaired'} mean regret {sum(regret[paired]) / n:.4f}, "
              f"best card chosen {best_chosen[paired]}/{n} = {100 * best_chosen[paired] / n:.1f} %")


if __name__ == "__main__":
    main()
