"""ZOP's exact endgame: how many of the strong level's decisions it takes, and what solving costs.

    nice -n 10 python bench/sweep_zop_endgame.py [--seeds N] [--quick]

Decision points: every commit of seeded random matches (deck model) where a seat has a card to
choose (each once: a card laid and taken back asks the same again). Counts those in the endgame
(every card either seat has left is in its hand: games.zop.ai.in_endgame) and, for each of those,
times the strong level's decision there (CPU: the exact solve of games/zop/ai_endgame.py, the flat
search is not run) and counts the matrix games solved. --quick: two matches (its figures mean nothing).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games.zop.ai as zop_ai
import games.zop.ai_endgame as endgame
from firmware_host.commands.common import whole_number
from games.ai import Budget
from games.core import GameConfig
from games.playout import random_playout
from games.zop import GAME
from games.zop.ai_sample import knowledge
from games.zop.state import COMMIT, TRACKED

CONFIG = GameConfig(players=2, options={"deck": TRACKED})


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    """Print the share of decisions the endgame takes and its CPU time per decision."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=whole_number(1, 100_000), default=40, help="random matches")
    parser.add_argument("--quick", action="store_true", help="two matches (CI)")
    args = parser.parse_args()
    seeds = 2 if args.quick else args.seeds
    decisions = in_zone = 0
    times: list[float] = []
    games: list[int] = []
    solved: list[endgame.Endgame] = []
    real = endgame.Endgame

    def spy(*a: object, **kw: object) -> endgame.Endgame:
        solved.append(real(*a, **kw))  # type: ignore[arg-type]
        return solved[-1]

    with mock.patch.object(zop_ai, "Endgame", side_effect=spy) as patched:
        patched.applies = real.applies
        for seed in range(seeds):
            cfg = GAME.validate_config(CONFIG)
            state = GAME.initial_state(cfg)
            seen: set[tuple[int, int, int, int]] = set()
            for who, act in random_playout(GAME, CONFIG, seed).moves:
                if state.phase == COMMIT:
                    for seat in (0, 1):
                        view = GAME.view(state, seat)
                        me = view.me
                        assert me is not None
                        point = (view.round_no, view.turn, seat, len(me.laid))
                        if point in seen or not zop_ai.needs_decision(view, seat) or len(me.hand) - len(me.laid) < 2:
                            continue
                        seen.add(point)  # a card laid, then taken back: the same decision again
                        decisions += 1
                        if zop_ai.in_endgame(view, seat, knowledge(GAME.deck, view, seat)):
                            in_zone += 1
                            solved.clear()
                            c0 = time.process_time()
                            zop_ai.rank(view, seat, "strong", random.Random(seed), Budget(1260))
                            times.append((time.process_time() - c0) * 1000)
                            games.append(sum(e.games for e in solved))
                state = GAME.apply(state, who, act).state
    share = in_zone / decisions if decisions else 0.0
    print(f"{seeds} random matches: {decisions} decisions with two cards or more, "
          f"{in_zone} in the endgame ({share:.1%})")
    print(f"endgame decision CPU ms: p50 {_quantile(times, 0.5):.1f}, p99 {_quantile(times, 0.99):.1f}, "
          f"max {max(times, default=0.0):.1f}; matrix games per decision p50 {_quantile(games, 0.5):.0f}, "
          f"max {max(games, default=0)}")


if __name__ == "__main__":
    main()
