"""How often each yardstick of bench/bench_ai.py lays ZOP's greedy card, against chance.

    nice -n 10 python bench/sweep_zop_opponent_choice.py [--seeds FIRST-LAST] [--quick]

The strong level models its opponent's face-down card as its greedy card part of the time
(games.zop.ai.OPPONENT_GREEDY) and any card otherwise. This measures that share for the players it
meets in the benchmark: along seeded random matches (deck model), at about one commit in seven
with two cards or more to choose from, each yardstick (random, greedy, the flat Monte-Carlo
player) chooses from the true state, as in the benchmark; printed, how often its card is one of
the greedy-best cards (the greedy values from the seat's view), beside the rate a uniformly random
choice would reach on the same commits, and the mean rank of its card (0 the best, 1 the worst).
--quick: two matches with two Monte-Carlo playouts per move (its figures mean nothing).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_ai

import games.zop.ai as zop_ai
from games.core import CHANCE, GameConfig
from games.playout import sample_chance
from games.zop import GAME
from games.zop.ai_sample import knowledge
from games.zop.state import COMMIT, TRACKED, ZopState

CONFIG = GameConfig(players=2, options={"deck": TRACKED})
SHARE = 0.15  # commits sampled along a match


def seed_range(text: str) -> range:
    """FIRST-LAST, whole numbers 0-100000, FIRST <= LAST."""
    parts = text.split("-")
    if len(parts) != 2 or not all(p.isdigit() and len(p) <= 6 for p in parts):
        raise argparse.ArgumentTypeError(f"expected FIRST-LAST (whole numbers), got {text!r}")
    first, last = int(parts[0]), int(parts[1])
    if not first <= last <= 100_000:
        raise argparse.ArgumentTypeError(f"expected FIRST <= LAST <= 100000, got {text!r}")
    return range(first, last + 1)


def commits(seeds: range) -> list[tuple[ZopState, int, list[str], list[float]]]:
    """Sampled commits of seeded random matches: the state, the seat, its cards and their greedy values."""
    config = GAME.validate_config(CONFIG)
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.initial_state(config)
        while GAME.outcome(state) is None:
            seats = sorted(GAME.to_act(state))
            if CHANCE in seats:
                state = GAME.apply(state, CHANCE, sample_chance(GAME, state, rng)).state
                continue
            seat = rng.choice(seats)
            view = GAME.view(state, seat)
            if (state.phase == COMMIT and zop_ai.needs_decision(view, seat) and not state.sides[seat].laid
                    and rng.random() < SHARE):
                cards = [a["card"] for a in GAME.legal_actions(state, seat) if a["type"] == "commit"]
                if len(cards) >= 2:
                    k = knowledge(GAME.deck, view, seat)
                    pending = (view.sides[0].pending, view.sides[1].pending)
                    opponent = zop_ai._opponent_options(view, seat, k, state)
                    values = zop_ai.greedy_values(GAME.deck, seat, (), cards, opponent, pending)
                    found.append((state, seat, cards, values))
            state = GAME.apply(state, seat, bench_ai._random_player(GAME, state, seat, rng)).state
    return found


def main() -> None:
    """Parse the arguments, let each yardstick choose at the sampled commits, print the shares."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=seed_range, default=seed_range("0-24"))
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    seeds, playouts = (range(2), 2) if args.quick else (args.seeds, bench_ai.MC_PLAYOUTS["zop"])
    points = commits(seeds)
    if not points:
        print(f"seeds {seeds.start}-{seeds.stop - 1}: no commit sampled")
        return
    chance = sum(sum(v == max(values) for v in values) / len(values) for _, _, _, values in points)
    print(f"seeds {seeds.start}-{seeds.stop - 1}: {len(points)} commits; a uniformly random card is a greedy-best "
          f"one {100 * chance / len(points):.1f} % of the time")
    for name in ("random", "greedy", "mc"):
        player = bench_ai.yardstick(name, "zop", playouts)
        best = 0
        rank = 0.0
        for i, (state, seat, cards, values) in enumerate(points):
            card = player(GAME, state, seat, random.Random(i))["card"]
            value = values[cards.index(card)]
            best += value == max(values)
            rank += sorted(values, reverse=True).index(value) / (len(values) - 1)
        print(f"  {name:6}: the greedy-best card {best}/{len(points)} = {100 * best / len(points):.1f} %, "
              f"mean rank {rank / len(points):.2f}")


if __name__ == "__main__":
    main()
