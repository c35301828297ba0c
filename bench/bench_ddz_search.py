"""Benchmark (not a test): Drôles de Zèbres' strong level, CPU per decision, and its model's playouts.

    .venv/bin/python bench/bench_ddz_search.py [--tree DIR] [--decisions N] [--playouts N] [--untimed] [--quick]

Decides seeded positions with the strong level at its default budget (1750 iterations) with the
`games` package of --tree (default: this checkout), so two versions of the search can be
alternated on the same positions: a shared machine's speed moves with its load, their ratio much
less. The positions: every third decision with more than 12 animals left to lay (the search
decides there, not the proof of the end) along seeded random and greedy games (seeds 0-3), each
decided with random.Random(its index). Then plays seeded random games of the search's model
(`ai_playout.random_playout` where the tree has it). Prints the CPU per decision, the model's
games per CPU second and a fingerprint of the decisions (equal for equal decisions). --untimed
only plays: for an instruction count by callgrind, the count of N minus that of 0 (load-independent):

    valgrind --tool=callgrind .venv/bin/python bench/bench_ddz_search.py --untimed --decisions 3 --playouts 0
    valgrind --tool=callgrind .venv/bin/python bench/bench_ddz_search.py --untimed --decisions 0 --playouts 300
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any


def main() -> None:
    """Parse the options, decide the positions, play the model's games, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the checkout whose games/ is played (default: this one)")
    parser.add_argument("--decisions", type=int, default=30, help="positions decided (at most 33)")
    parser.add_argument("--playouts", type=int, default=3000, help="random games of the search's model")
    parser.add_argument("--untimed", action="store_true", help="play only (for callgrind)")
    parser.add_argument("--quick", action="store_true", help="one decision, 100 games (CI: the script still works)")
    args = parser.parse_args()
    if args.quick:
        args.decisions, args.playouts = 1, 100
    if not (args.tree / "games" / "droles_de_zebres").is_dir():
        parser.error(f"--tree {args.tree}: no games/droles_de_zebres there")
    sys.path.insert(0, str(args.tree.resolve()))
    # imported from --tree, after the path is set
    from games.core import GameConfig
    from games.droles_de_zebres import GAME, ai, ai_model
    from games.playout import random_playout, uniform_policy

    try:
        from games.droles_de_zebres.ai_playout import random_playout as model_playout
    except ImportError:  # a tree from before the search's own playouts
        model_playout = ai_model.random_playout

    positions: list[tuple[Any, int]] = []
    for seed in range(4):
        policy = ai.greedy_policy if seed % 2 else uniform_policy
        played = random_playout(GAME, GameConfig(players=2), seed, policy=policy)
        state = GAME.initial_state(played.config)
        count = 0
        for seat, act in played.moves:
            if len(GAME.legal_actions(state, seat)) > 1 and sum(map(len, state.reserves)) > 12:
                if count % 3 == 0:
                    positions.append((state, seat))
                count += 1
            state = GAME.apply(state, seat, act).state
    chosen = positions[:args.decisions]
    start_model = ai_model.from_state(GAME.initial_state(GAME.validate_config(GameConfig(players=2))))

    spent = time.process_time()
    decided = [ai.choose(GAME.view(s, seat), seat, "strong", random.Random(i)) for i, (s, seat) in enumerate(chosen)]
    spent = time.process_time() - spent
    played_for = time.process_time()
    rng = random.Random(0)
    for i in range(args.playouts):
        model = start_model.copy()
        model.play(i % 2, ("g", i % 22))
        model_playout(model, rng)
    played_for = time.process_time() - played_for
    if not args.untimed:
        fingerprint = hashlib.sha256(json.dumps(decided, sort_keys=True).encode()).hexdigest()[:12]
        per = spent / len(chosen) * 1000 if chosen else float("nan")
        rate = args.playouts / played_for if played_for > 0 else float("nan")
        print(f"{per:.0f} ms CPU per decision ({len(chosen)} decisions, {spent:.2f} s) fingerprint {fingerprint};"
              f" model {rate:.0f} games/s; tree {args.tree}")


if __name__ == "__main__":
    main()
