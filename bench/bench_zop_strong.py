"""ZOP's strong level at fixed decision points: CPU time and the cards chosen (to compare two
checkouts of the search, which must choose alike, and to profile it).

    nice -n 10 python bench/bench_zop_strong.py [--points guard|spread|none] [--repeat N] [--quick]

Decision points: the commits of seeded random matches through the engine (deck model), each decided
with the default budget (1260 playouts) and the seed 1000 * match seed + state index. "guard": the
three of tests/games/zop/test_ai_decisions.py at the default budget; "spread": 46 points of the
matches 4-6 (every 23rd state); "none": the set-up alone (to take it out of a callgrind count:
`valgrind --tool=callgrind python bench/bench_zop_strong.py --points guard`, then `--points none`).
--quick (CI): the guard's three points, once.
The script uses only the games' API, so it runs from any checkout's root.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

from games.core import GameConfig
from games.playout import random_playout
from games.zop import GAME, ai
from games.zop.state import COMMIT, TRACKED

CONFIG = GameConfig(players=2, options={"deck": TRACKED})
GUARD = [(3, 8, 0), (3, 224, 0), (3, 409, 0)]  # (match seed, state index, seat)


def states(seed: int) -> list:
    """Every state of the seeded random match (tests/kits/gamekit.states_along)."""
    played = random_playout(GAME, CONFIG, seed)
    state = GAME.initial_state(GAME.validate_config(CONFIG))
    out = [state]
    for seat, act in played.moves:
        state = GAME.apply(state, seat, act).state
        out.append(state)
    return out


def points(name: str, games: dict[int, list]) -> list[tuple[int, int, int]]:
    """The decision points named `name`: (match seed, state index, seat)."""
    if name == "guard":
        return GUARD
    if name == "none":
        return []
    found = []
    for seed in (4, 5, 6):
        for index, state in enumerate(games.setdefault(seed, states(seed))):
            for seat in (0, 1):
                view = GAME.view(state, seat)
                if view.phase == COMMIT and ai.needs_decision(view, seat) and index % 23 == 0:
                    found.append((seed, index, seat))
    return found


def _repeats(text: str) -> int:
    """--repeat: a whole number of runs, 1 to 100."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= value <= 100:
        raise argparse.ArgumentTypeError(f"{value} is not in 1..100")
    return value


def main() -> None:
    """Decide at every point, print the CPU time and the cards chosen."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", choices=("guard", "spread", "none"), default="spread")
    parser.add_argument("--repeat", type=_repeats, default=1, help="runs of the whole set, one line each (1-100)")
    parser.add_argument("--quick", action="store_true", help="CI: the guard's points, once")
    args = parser.parse_args()
    if args.quick:
        args.points, args.repeat = "guard", 1
    games: dict[int, list] = {}
    chosen = points(args.points, games)
    for seed, _, _ in chosen:
        games.setdefault(seed, states(seed))
    for _ in range(args.repeat):
        start = time.process_time()
        cards = [ai.choose(GAME.view(games[seed][index], seat), seat, "strong",
                           random.Random(1000 * seed + index))["card"] for seed, index, seat in chosen]
        print(f"{time.process_time() - start:.3f} s CPU, {len(chosen)} decisions, cards: "
              + " ".join(c.removeprefix("zop/") for c in cards), flush=True)


if __name__ == "__main__":
    main()
