"""Sweep of Operation: Mata Hari across tables: how the host's shadow tells whole random games.

    nice -n 10 python bench/sweep_mata_hari_ends.py [FIRST] [LAST]
    python bench/sweep_mata_hari_ends.py --quick      # CI: seeds 0..2

Seeds FIRST..LAST-1 (0..80 by default): 3 + seed mod 5 players, one or two at the joining table
(chosen from the seed). Each game is played at random and the host's shadow (shadow_mata_hari.py)
steps along it, as the host's worker does. Prints the moves the shadow could not tell (must be 0),
the ends told by searching the whole history again (shadow_mata_hari_history.py) with the moves
that search tried and its CPU time, and the shadow's CPU time per move (p50, p99, max).
"""

from __future__ import annotations

import argparse
import random
import time

from firmware_host.commands.common import whole_number
from firmware_host.remote import crossing
from firmware_host.remote.shadow import CannotFollow
from firmware_host.remote.shadow_mata_hari import MHShadow
from games.core import GameConfig
from games.playout import random_playout
from games.registry import get_game


def main(first: int, last: int) -> None:
    """Sweep seeds first..last-1 and print the figures."""
    game = get_game("mata-hari")
    times: list[float] = []
    searches: list[tuple[int, int, float]] = []  # (seed, moves tried, CPU s)
    untold: list[tuple[int, str]] = []
    for seed in range(first, last):
        rng = random.Random(seed)
        players = 3 + seed % 5
        joining = set(rng.sample(range(players), 1 + (seed // 5) % 2))
        play = random_playout(game, GameConfig(players, {}, seed), seed)
        shadow = crossing.shadow(game, play.config, joining, [])
        assert isinstance(shadow, MHShadow)
        state = game.initial_state(play.config)
        try:
            for seat, action in play.moves:
                after = game.apply(state, seat, action).state
                searched, start = shadow.searched, time.process_time()
                shadow.step(state, seat, action, after)
                times.append(time.process_time() - start)
                if shadow.searched > searched:
                    searches.append((seed, shadow.nodes, times[-1]))
                state = after
        except CannotFollow as exc:
            untold.append((seed, str(exc)))
        print(f"seed {seed}: {players} players, {sorted(joining)} joining, {len(play.moves)} moves", flush=True)
    times.sort()
    print(f"games {last - first}, moves {len(times)}, not told {len(untold)} {untold}")
    found = ", ".join(f"seed {s} {n} tried {1000 * t:.0f} ms" for s, n, t in searches)
    print(f"ends searched {len(searches)}: {found}")
    if times:
        p50, p99 = times[len(times) // 2], times[int(len(times) * .99)]
        print(f"per move CPU p50 {1000 * p50:.2f} ms, p99 {1000 * p99:.1f} ms, max {1000 * times[-1]:.0f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=whole_number(0, 1_000_000), nargs="?", default=0, help="first seed")
    parser.add_argument("last", type=whole_number(0, 1_000_000), nargs="?", default=80, help="the seed after the last")
    parser.add_argument("--quick", action="store_true", help="CI: seeds 0 to 2")
    args = parser.parse_args()
    if args.last <= args.first:
        parser.error(f"last ({args.last}) must be above first ({args.first})")
    main(0, 3) if args.quick else main(args.first, args.last)
