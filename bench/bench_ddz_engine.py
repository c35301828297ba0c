"""Benchmark (not a test): Drôles de Zèbres' rules engine, random games per CPU second.

    .venv/bin/python bench/bench_ddz_engine.py [--tree DIR] [--games N] [--first-seed S] [--effects]
                                               [--untimed] [--quick]

Plays seeded random games through `game.apply` (games.playout.random_playout) with the `games`
package of --tree (default: this checkout), so two versions of the engine can be alternated in one
run on the same seeds: a shared machine's speed moves with its load, their ratio much less. Prints
the games per CPU second and a fingerprint of the games' scores (equal for equal rules).
--effects reads every step's effects, as the table does. --untimed only plays the games: for an
instruction count by callgrind, the count of --games N minus that of --games 0 (load-independent):

    valgrind --tool=callgrind .venv/bin/python bench/bench_ddz_engine.py --untimed --games 100
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path


def _bounded(lo: int, hi: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{value} is not in {lo}..{hi}")
        return value
    return parse


def main() -> None:
    """Parse the options, play the games, print the rate and the fingerprint."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the checkout whose games/ is played (default: this one)")
    parser.add_argument("--games", type=_bounded(0, 1_000_000), default=1000)
    parser.add_argument("--first-seed", type=_bounded(0, 2**31 - 1), default=0)
    parser.add_argument("--effects", action="store_true", help="read every step's effects")
    parser.add_argument("--untimed", action="store_true", help="play only (for callgrind)")
    parser.add_argument("--quick", action="store_true", help="20 games (CI: the script still works)")
    args = parser.parse_args()
    if not (args.tree / "games" / "droles_de_zebres").is_dir():
        parser.error(f"--tree {args.tree}: no games/droles_de_zebres there")
    if args.quick:
        args.games = 20
    sys.path.insert(0, str(args.tree.resolve()))
    # imported from --tree, after the path is set
    from games.core import CHANCE, GameConfig
    from games.playout import random_playout, sample_chance
    from games.registry import get_game

    game = get_game("droles-de-zebres")
    config = game.validate_config(GameConfig(players=2))

    def play(seed: int) -> str:
        if not args.effects:
            played = random_playout(game, config, seed)
            assert played.outcome is not None
            return repr(played.outcome.scores)
        rng = random.Random(seed)
        state = game.initial_state(config)
        said = 0
        while game.outcome(state) is None:
            seat = rng.choice(sorted(game.to_act(state)))
            act = sample_chance(game, state, rng) if seat == CHANCE else rng.choice(game.legal_actions(state, seat))
            step = game.apply(state, seat, act)
            said += len(step.effects)
            state = step.state
        outcome = game.outcome(state)
        assert outcome is not None
        return f"{outcome.scores!r} {said}"

    play(2**31)  # the first game loads the board and fills the caches
    fingerprint = hashlib.sha256()
    start = time.process_time()
    for seed in range(args.first_seed, args.first_seed + args.games):
        fingerprint.update(play(seed).encode())
    spent = time.process_time() - start
    if not args.untimed:
        rate = args.games / spent if spent > 0 else float("nan")
        print(f"{rate:.0f} games/s ({args.games} games, {spent:.2f} s CPU) fingerprint {fingerprint.hexdigest()[:12]}"
              f" tree {args.tree}")


if __name__ == "__main__":
    main()
