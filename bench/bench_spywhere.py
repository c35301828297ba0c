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
the ranges apart and add the counts up). --told: no player, a bound: the strong player is told
every passport (the true deal in place of the odds it reads) and plays otherwise the same.

--model N plays N deals in the counts model (with no --seeds, those alone) (games.spywhere.ai_model), the strong policy
(games.spywhere.ai.smart_move: always taking its triples, identifying every turn, without the
player's race timing and last-identification plan) against three uniformly random players, with
three kinds of passport odds: from the clue piles alone (the player also reads left triples and
swaps), none (every other nationality equally likely) and the true passports. The last is no
player: it bounds what better guessing could give. Then the bounds against random players: the
exact odds (a random player's passport shows only where it may not take a triple: the clue piles
and every triple it left), with the share of games another player ends before the strong
player's third turn (it cannot end the game first then) and the rate had it won every other
game; the same leaving every triple it could take, for the next player to show whether it may
take it; and, no player, a card of its own nationality in the centre at each of its swaps.
--quick: 8 seeds and 100 model deals, to check that the script runs (two ranges of 4 seeds); its figures mean nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import permutations
from pathlib import Path
from unittest.mock import patch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_ai import OPPONENTS, TARGETS, Match, _quantile, bounded, play_match, rate_verdict, wilson
from games.registry import get_game
from games.spywhere import ai as spy_ai
from games.spywhere.ai import random_move, smart_move
from games.spywhere.ai_guess import Deal, Odds, passport_deals
from games.spywhere.ai_model import S_DRAW, S_FINAL, S_OVER, S_SWAP, S_TAKE, Move, SpyModel
from games.spywhere.pieces import TRIPLE, nat_of
from games.spywhere.state import SpyState
from games.spywhere.views import SpyView

PLAYERS, NATS, PER_NAT, HAND, CENTRE = 4, 5, 18, 3, 5
TARGET = TARGETS["spywhere"]["random"]
ORDER_NAMES = ("1st", "2nd", "3rd", "4th")


def _match(job: tuple[int, str]) -> Match:
    return play_match("spywhere", "strong", job[1], job[0], 1.0)


@contextmanager
def told_passports() -> Iterator[None]:
    """While open, the strong player is told every passport and plays otherwise the same (a bound).

    No player: each view the bench makes for it notes the state's true passports, and the odds it
    would read from the view (games.spywhere.ai_guess.passport_deals) become that one deal.
    """
    game = get_game("spywhere")
    truth: list[tuple[int, ...]] = []
    view: Callable[[SpyState, int | None], SpyView] = game.view

    def seen(state: SpyState, seat: int | None) -> SpyView:
        index = {n: i for i, n in enumerate(state.nationalities)}
        truth[:] = [tuple(index[nat_of(p)] for p in held if nat_of(p) in index) for held in state.passports]
        return view(state, seat)

    def told(spy_view: SpyView, seat: int) -> list[Deal]:
        return [(1.0, tuple(truth))] if truth and all(truth) else passport_deals(spy_view, seat)

    with patch.object(game, "view", seen), patch.object(spy_ai, "passport_deals", told):
        yield


def _told_match(job: tuple[int, str]) -> Match:
    with told_passports():
        return _match(job)


def _pct(k: float, n: int) -> str:
    if not n:
        return "-"
    lo, hi = wilson(k, n)
    count = f"{k:.0f}" if float(k).is_integer() else f"{k:.1f}"
    return f"{count}/{n} = {100 * k / n:.1f} % [{100 * lo:.1f}-{100 * hi:.1f}]"


def play(first: int, last: int, opponent: str, jobs: int, told: bool = False) -> list[Match]:
    """Play seeds first..last against three `opponent` players (told: the passports told, a bound)."""
    work = [(seed, opponent) for seed in range(first, last + 1)]
    one = _told_match if told else _match
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            return list(pool.map(one, work, chunksize=4))
    return [one(w) for w in work]


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


Left = list[tuple[int, int, int]]  # (seat, nationality, its cards in the centre) of each triple a player left


def clue_odds(m: SpyModel, seat: int, left: Left) -> Odds:
    """Passport odds from the seat's own passport and the clue piles (every fitting deal alike)."""
    return _posterior(m, seat, lambda s, n: 1.0)


def exact_odds(m: SpyModel, seat: int, left: Left) -> Odds:
    """The exact passport odds against uniformly random players, from everything they did.

    Their swaps and identifications are drawn whatever their passports; only a triple weighs:
    one of their own nationality they may not take (the clue piles), and they leave one with c
    cards in the centre always if it is theirs, else once in 1 + C(c, 3) (their choices there).
    """
    def weight(s: int, n: int) -> float:
        w = 1.0
        for who, nat, count in left:
            if who == s and nat != n:
                w /= 1 + math.comb(count, TRIPLE)
        return w

    return _posterior(m, seat, weight)


def _posterior(m: SpyModel, seat: int, weight: Callable[[int, int], float]) -> Odds:
    """Odds over the deals of the others' passports fitting the clue piles, each by its weight."""
    others = [s for s in range(PLAYERS) if s != seat]
    pool = [n for n in range(NATS) if n not in m.own[seat]]
    odds: Odds = [[1.0 if n in m.own[s] and s == seat else 0.0 for n in range(NATS)] for s in range(PLAYERS)]
    fits = [(math.prod(weight(s, n) for s, n in zip(others, p)), p) for p in permutations(pool, len(others))
            if not any(m.clue_mask[s] >> n & 1 for s, n in zip(others, p))]
    total = sum(w for w, _ in fits)
    for w, p in fits:
        for s, n in zip(others, p):
            odds[s][n] += w / total
    return odds


def blind_odds(m: SpyModel, seat: int, left: Left) -> Odds:
    """Every nationality but the seat's own equally likely for every opponent."""
    share = 1 / (NATS - 1)
    return [[float(n in m.own[s]) if s == seat else 0.0 if n in m.own[seat] else share for n in range(NATS)]
            for s in range(PLAYERS)]


def true_odds(m: SpyModel, seat: int, left: Left) -> Odds:
    """The true passports (no player knows them: an upper bound)."""
    return [[float(n in m.own[s]) for n in range(NATS)] for s in range(PLAYERS)]


OddsOf = Callable[[SpyModel, int, Left], Odds]
ODDS: dict[str, OddsOf] = {
    "clue piles": clue_odds, "no clue information": blind_odds, "true passports (bound)": true_odds}


@dataclass(frozen=True)
class Variant:
    """A way of playing the strong policy in the model: its odds, and what it changes in the game."""

    odds: OddsOf
    leave: bool = False  # leaves every triple, for the next player to show whether it may take it
    always_own: bool = False  # no player: a card of its nationality is in the centre at each of its swaps


# the bounds: the best reading of random players there is, what more of their triples would tell,
# and what its swaps could give if the centre always held a card of its own nationality
BOUNDS: dict[str, Variant] = {
    "the exact odds (clue piles and every triple left)": Variant(exact_odds),
    "the exact odds, leaving every triple it could take to the next player": Variant(exact_odds, leave=True),
    "the exact odds, a card of its nationality in the centre at every swap (no player)": Variant(
        exact_odds, always_own=True)}
VARIANTS: dict[str, Variant] = {**{k: Variant(v) for k, v in ODDS.items()}, **BOUNDS}


@dataclass(frozen=True)
class ModelGame:
    """One model game's result."""

    place: int  # the strong player's place in the turn order
    won: bool  # sole first place
    credit: float  # a first place shared by k counts 1/k
    cut: bool  # another player ended the game before the strong player's third swap


def _own_to_centre(m: SpyModel, seat: int) -> None:
    """Swap a card of the centre with one of the seat's nationality from the pile (the oracle)."""
    own = m.passports[seat][0]
    if m.centre[own] or not m.pile[own]:
        return
    other = next(n for n in range(NATS) if m.centre[n])
    m.centre[other] -= 1
    m.pile[other] += 1
    m.pile[own] -= 1
    m.centre[own] += 1


def model_game(job: tuple[str, int]) -> ModelGame:
    """One model game of the strong policy (seat seed % 4) against three random players."""
    kind, seed = job
    variant = VARIANTS[kind]
    rng = random.Random(seed)
    me, first = seed % PLAYERS, (seed // PLAYERS) % PLAYERS
    m = deal(rng, first)
    left: Left = []
    swaps = 0

    def move(seat: int) -> Move:
        nonlocal swaps
        if seat != me:
            chosen = random_move(m, seat, rng)
            if m.step == S_TAKE and chosen[0] == "l":
                left.extend((seat, n, m.centre[n]) for n in m.triples())
            return chosen
        if m.step == S_TAKE and variant.leave:
            return ("l",)
        if m.step == S_SWAP:
            swaps += 1
            if variant.always_own:
                _own_to_centre(m, seat)
        return smart_move(m, seat, rng, variant.odds(m, seat, left))

    while m.step != S_OVER:
        for seat in (m.to_act() if m.step == S_FINAL else [m.active]):
            m.play(seat, move(seat), rng)
    scores = m.scores()
    best = max(s for i, s in enumerate(scores) if i != me)
    credit = 1.0 if scores[me] > best else 0.0 if scores[me] < best else 1.0 / scores.count(best)
    cut = m.ender not in (-1, me) and swaps < m.required  # one identification a turn: it could not end it first
    return ModelGame((me - first) % PLAYERS, scores[me] > best, credit, cut)


def _model_games(kind: str, n: int, jobs: int) -> list[ModelGame]:
    work = [(kind, seed) for seed in range(n)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            return list(pool.map(model_game, work, chunksize=100))
    return [model_game(w) for w in work]


def _by_place(games: list[ModelGame], value: Callable[[ModelGame], float]) -> str:
    rates = [[value(g) for g in games if g.place == o] for o in range(PLAYERS)]
    return "; ".join(f"{ORDER_NAMES[o]} {100 * sum(r) / max(1, len(r)):.1f} %" for o, r in enumerate(rates))


def report_model(n: int, jobs: int) -> None:
    """The strong policy in the counts model with each kind of odds and each bound, n deals each."""
    for kind in VARIANTS:
        games = _model_games(kind, n, jobs)
        credit = sum(g.credit for g in games)
        name = f"model, odds from {kind}" if kind in ODDS else f"model bound, {kind}"
        print(f"{name}: won {_pct(sum(g.won for g in games), n)}; credited {_pct(credit, n)}  "
              f"(credited by place: {_by_place(games, lambda g: g.credit)})")
        if kind == next(iter(BOUNDS)):
            cut = [g for g in games if g.cut]
            # winning every game nobody cut short: what the rate could be at most with these guesses
            ceiling = (n - len(cut) + sum(g.credit for g in cut)) / n
            cut_by = _by_place(games, lambda g: g.cut)
            print(f"  another player ended the game before its third turn, by place: {cut_by}; "
                  f"credited in those games {_pct(sum(g.credit for g in cut), len(cut))}; had it won every other "
                  f"game: {100 * ceiling:.1f} %")


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
    parser.add_argument("--model", type=bounded(0, 1_000_000), default=0,
                        help="also play N deals in the counts model (alone: no matches unless --seeds)")
    parser.add_argument("--told", action="store_true",
                        help="no player, a bound: the strong player told every passport, playing otherwise the same")
    parser.add_argument("--quick", action="store_true", help="CI: 8 seeds, 100 model deals; figures meaningless")
    args = parser.parse_args()
    ranges = [(0, 3), (4, 7)] if args.quick else args.seeds or ([] if args.model else [(0, 599)])
    print(f"bench_spywhere: strong{' told every passport (a bound)' if args.told else ''} vs three "
          f"{args.opponent} players, 4 players"
          + (" (quick: figures meaningless)" if args.quick else ""))
    every: list[Match] = []
    for first, last in ranges:
        start = time.monotonic()
        matches = play(first, last, args.opponent, max(1, args.jobs), args.told)
        report_matches(f"seeds {first}-{last} [{time.monotonic() - start:.0f} s]", matches, args.opponent)
        every += matches
    if len(ranges) > 1:
        report_matches("all ranges", every, args.opponent)
    if args.model or args.quick:
        report_model(100 if args.quick else args.model, max(1, args.jobs))


if __name__ == "__main__":
    main()
