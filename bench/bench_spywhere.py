"""Benchmark (not a test): Spywhere's strong player against three random (or greedy) players.

    .venv/bin/python bench/bench_spywhere.py [--seeds 0-599] [--opponent random|greedy] [--jobs 2]
                                             [--model N] [--quick]

Plays bench_ai.play_match (4 players; the computer's seat and the first player rotate with the
seed, as in bench_ai.py, so seeds 0-59 are that benchmark's 60 matches) over each seed range and
prints the win rate with its 95 % Wilson interval (sole wins, then the credited rate that the
target is judged on: a first place shared by k players counts 1/k, see bench_ai.py), split by
the computer's place in the turn order (credited) and by who ended the game (the ender's 3
points), and the computer's move times (CPU ms: p50, p99 and the slowest move of a game); with
several ranges, then the same over all of them (to split a long series into shorter runs, run
the ranges apart and add the counts up).

--model N plays N deals in the counts model (games.spywhere.ai_model), the strong policy
(games.spywhere.ai.smart_move: always taking its triples, identifying every turn, without the
player's race timing and last-identification plan) against three uniformly random players, with
three kinds of passport odds: from the clue piles alone (the player also reads left triples and
swaps), none (every other nationality equally likely) and the true passports. The last is no
player: it bounds what better guessing could give. --quick: 8 seeds and 100 model deals, to
check that the script runs (two ranges of 4 seeds); its figures mean nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from itertools import permutations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_ai import OPPONENTS, TARGETS, Match, _quantile, bounded, play_match, rate_verdict, wilson
from games.spywhere.ai import random_move, smart_move
from games.spywhere.ai_guess import Odds
from games.spywhere.ai_model import S_DRAW, S_FINAL, S_OVER, S_SWAP, Move, SpyModel

PLAYERS, NATS, PER_NAT, HAND, CENTRE = 4, 5, 18, 3, 5
TARGET = TARGETS["spywhere"]["random"]
ORDER_NAMES = ("1st", "2nd", "3rd", "4th")


def _match(job: tuple[int, str]) -> Match:
    return play_match("spywhere", "strong", job[1], job[0], 1.0)


def _pct(k: float, n: int) -> str:
    if not n:
        return "-"
    lo, hi = wilson(k, n)
    count = f"{k:.0f}" if float(k).is_integer() else f"{k:.1f}"
    return f"{count}/{n} = {100 * k / n:.1f} % [{100 * lo:.1f}-{100 * hi:.1f}]"


def play(first: int, last: int, opponent: str, jobs: int) -> list[Match]:
    """Play seeds first..last against three `opponent` players."""
    work = [(seed, opponent) for seed in range(first, last + 1)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            return list(pool.map(_match, work, chunksize=4))
    return [_match(w) for w in work]


def report_matches(title: str, matches: list[Match], opponent: str) -> None:
    """Print the win rate of `matches` and its splits."""
    target = TARGETS["spywhere"][opponent]
    n, wins = len(matches), sum(m.won for m in matches)
    credit = sum(m.credit for m in matches)
    lo, hi = wilson(credit, n)
    verdict = rate_verdict(credit / n, lo, hi, target)
    print(f"{title}: won {_pct(wins, n)} (+{sum(m.shared for m in matches)} shared; credited "
          f"{credit:.1f}/{n} = {100 * credit / n:.1f} % [{100 * lo:.1f}-{100 * hi:.1f}], "
          f"target >= {100 * target:.0f} %: {verdict})")
    print("  credited by place in the turn order: " + "; ".join(
        f"{ORDER_NAMES[o]} {_pct(sum(m.credit for m in matches if m.place == o), sum(m.place == o for m in matches))}"
        for o in range(PLAYERS)))
    mine = [m for m in matches if m.data.get("ender") == m.me]
    others = [m for m in matches if m.data.get("ender") not in (None, m.me)]
    print(f"  it ended the game: {_pct(sum(m.won for m in mine), len(mine))} won; "
          f"another player did: {_pct(sum(m.won for m in others), len(others))} won")
    moves = sorted(t for m in matches for t in m.cpu_ms)
    slowest = sorted(max(m.cpu_ms, default=0.0) for m in matches)
    print(f"  move CPU ms: p50 {_quantile(moves, 0.5):.1f}, p99 {_quantile(moves, 0.99):.1f}; slowest move of a "
          f"game: p99 {_quantile(slowest, 0.99):.0f}, max {slowest[-1]:.0f}")


# -- the counts model ---------------------------------------------------------------------------


def deal(rng: random.Random, first: int) -> SpyModel:
    """A 4-player deal after the removal (5 nationalities of 18 cards), the first player to swap."""
    m = SpyModel.__new__(SpyModel)
    m.players, m.k, m.per, m.required, m.retriple = PLAYERS, NATS, 1, PLAYERS - 1, False
    m.id_order = list(range(NATS))
    m.pile, m.pile_n = [PER_NAT] * NATS, PER_NAT * NATS
    nats = list(range(NATS))
    rng.shuffle(nats)
    m.passports = tuple((nats[s],) for s in range(PLAYERS))
    m.own = tuple(frozenset(p) for p in m.passports)
    m.hands = [[0] * NATS for _ in range(PLAYERS)]
    m.centre = [0] * NATS
    for s in range(PLAYERS):
        for _ in range(HAND):
            m.hands[s][m._draw(rng)] += 1
    for _ in range(CENTRE):
        m.centre[m._draw(rng)] += 1
    m.clue_mask, m.guesses, m.used = [0] * PLAYERS, [[] for _ in range(PLAYERS)], [0] * PLAYERS
    m.placed = [[0] * PLAYERS for _ in range(PLAYERS)]
    m.step, m.active, m.turn, m.ender, m.finished = S_DRAW, first, 0, -1, [False] * PLAYERS
    m.advance(rng)
    return m


def clue_odds(m: SpyModel, seat: int) -> Odds:
    """Passport odds from the seat's own passport and the clue piles (every fitting deal alike)."""
    others = [s for s in range(PLAYERS) if s != seat]
    pool = [n for n in range(NATS) if n not in m.own[seat]]
    odds: Odds = [[1.0 if n in m.own[s] and s == seat else 0.0 for n in range(NATS)] for s in range(PLAYERS)]
    fits = [p for p in permutations(pool, len(others))
            if not any(m.clue_mask[s] >> n & 1 for s, n in zip(others, p))]
    for p in fits:
        for s, n in zip(others, p):
            odds[s][n] += 1 / len(fits)
    return odds


def blind_odds(m: SpyModel, seat: int) -> Odds:
    """Every nationality but the seat's own equally likely for every opponent."""
    share = 1 / (NATS - 1)
    return [[float(n in m.own[s]) if s == seat else 0.0 if n in m.own[seat] else share for n in range(NATS)]
            for s in range(PLAYERS)]


def true_odds(m: SpyModel, seat: int) -> Odds:
    """The true passports (no player knows them: an upper bound)."""
    return [[float(n in m.own[s]) for n in range(NATS)] for s in range(PLAYERS)]


ODDS: dict[str, Callable[[SpyModel, int], Odds]] = {
    "clue piles": clue_odds, "no clue information": blind_odds, "true passports (bound)": true_odds}


def model_game(job: tuple[str, int]) -> tuple[int, bool]:
    """One model game of the strong policy (seat seed % 4) against three random players."""
    kind, seed = job
    rng = random.Random(seed)
    me, first = seed % PLAYERS, (seed // PLAYERS) % PLAYERS
    m = deal(rng, first)
    odds = ODDS[kind]
    cached: Odds | None = None

    def move(seat: int) -> Move:
        nonlocal cached
        if seat != me:
            return random_move(m, seat, rng)
        if cached is None or m.step == S_SWAP:  # the clue piles change only between our turns
            cached = odds(m, seat)
        return smart_move(m, seat, rng, cached)

    while m.step != S_OVER:
        for seat in (m.to_act() if m.step == S_FINAL else [m.active]):
            m.play(seat, move(seat), rng)
    scores = m.scores()
    return (me - first) % PLAYERS, scores[me] > max(s for i, s in enumerate(scores) if i != me)


def report_model(n: int, jobs: int) -> None:
    """The strong policy in the counts model with each kind of odds, n deals each."""
    for kind in ODDS:
        jobs_ = [(kind, seed) for seed in range(n)]
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                games = list(pool.map(model_game, jobs_, chunksize=100))
        else:
            games = [model_game(j) for j in jobs_]
        rates = [[w for p, w in games if p == o] for o in range(PLAYERS)]
        by = "; ".join(f"{ORDER_NAMES[o]} {100 * sum(r) / max(1, len(r)):.1f} %" for o, r in enumerate(rates))
        print(f"model, odds from {kind}: won {_pct(sum(w for _, w in games), n)}  ({by})")


def _range(text: str) -> tuple[int, int]:
    first, _, last = text.partition("-")
    try:
        lo, hi = int(first), int(last or first)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed range is FIRST-LAST, e.g. 0-599, not {text!r}") from None
    if not 0 <= lo <= hi or hi - lo >= 100_000:
        raise argparse.ArgumentTypeError(f"a seed range needs 0 <= FIRST <= LAST, at most 100000 seeds, not {text!r}")
    return lo, hi


def main() -> None:
    """Run the matches (and the model games) and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=_range, action="append", help="a seed range FIRST-LAST (repeatable; 0-599)")
    parser.add_argument("--opponent", choices=[o for o in OPPONENTS if o in TARGETS["spywhere"]], default="random",
                        help="the three other players (default random)")
    parser.add_argument("--jobs", type=bounded(1, 64), default=1, help="worker processes")
    parser.add_argument("--model", type=bounded(0, 1_000_000), default=0, help="also play N deals in the counts model")
    parser.add_argument("--quick", action="store_true", help="CI: 8 seeds, 100 model deals; figures meaningless")
    args = parser.parse_args()
    ranges = [(0, 3), (4, 7)] if args.quick else args.seeds or [(0, 599)]
    print(f"bench_spywhere: strong vs three {args.opponent} players, 4 players"
          + (" (quick: figures meaningless)" if args.quick else ""))
    every: list[Match] = []
    for first, last in ranges:
        start = time.monotonic()
        matches = play(first, last, args.opponent, max(1, args.jobs))
        report_matches(f"seeds {first}-{last} [{time.monotonic() - start:.0f} s]", matches, args.opponent)
        every += matches
    if len(ranges) > 1:
        report_matches("all ranges", every, args.opponent)
    if args.model or args.quick:
        report_model(100 if args.quick else args.model, max(1, args.jobs))


if __name__ == "__main__":
    main()
