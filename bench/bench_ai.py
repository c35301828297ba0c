"""Benchmark (not a test): computer players' strength, thinking time, and playout speed.

    .venv/bin/python bench/bench_ai.py [--games N] [--game ID] [--level L] [--opponent O] [--mc-playouts N]
                                       [--budget-scale PERCENT] [--first-seed S] [--jobs J] [--quick]

For each game with a computer player (games/ai) and each level, plays seeded matches against a
uniformly random player, the one-ply greedy player and a flat Monte-Carlo player (in Spywhere,
three of them), and prints the win rate with its
95 % Wilson interval (sole wins; with ties, beside it the credited rate: a first place shared by
k players counts 1/k of a win, the usual tally of draws: where a rulebook names no tie-break, as
Spywhere's, the table declares every seat tied for first a winner; the targets are judged on the
credited rate), then
the thinking time per move (CPU time of the deciding process, p50 and p99: the machine may be
shared) and the random playouts per second, of the rules engine and of
the search's model. Targets (TARGETS, and SEAT_TARGETS for each place) are printed beside the
figures: met, met at the point (the interval reaches below), not settled (the point is below, the
interval reaches the target: too few games to tell; an interval under ±5 points needs about 400
games), or missed (the whole interval below).

Opponents act on the true state (they are yardsticks, not players under test); the computer
under test reads its seat's view only. The flat Monte-Carlo player is written from the rules
engine's public API alone: for each legal action it plays random games to the end through the
engine (game.apply, chance drawn with the game's odds), each from a world re-dealt from its
seat's view (the game's sample_state(view, seat, rng), the common API of games.ai: hidden cards
dealt at random within what the view proves, never read from the true state; the variants of
game.hidden_variants are too close to the truth for a fair player), the playouts shared out
evenly among the actions, and takes
the action with the best mean credit; a fixed count of playouts per move (--mc-playouts, default
MC_PLAYOUTS, about the strong level's time per move on the development machine: its move times
are printed beside) keeps it deterministic for a seed on a loaded machine. Results are split by
the computer's seat (Spywhere: its place in the turn order). The random player chooses uniformly among the legal
actions, leaving out ZOP's "take back a laid card" and "review the count", which are no moves.
In Spywhere the computer plays 4-player games against three random (or three greedy) players.
--opponent flat or tree (ZOP) plays the strong level against one of its own searches
(SEARCHES of its AI module, each at its own budget: the same time per move), both from their
seat's view: the head-to-head between searches (then --budget-scale scales both).
--budget-scale plays the levels with that percentage of their default budgets (to size a level);
--first-seed starts the seeded matches further on (to continue a series in shorter runs);
--each prints every match as it ends (a run cut short still leaves its matches). Below each
pairing: the matches not won, with their margins; in Drôles de Zèbres, the split by who placed
the guardian (that seat lays its first animal second).
--quick (CI) plays one short match per pairing with 5 % of the budgets: it checks that the
benchmark runs, its figures mean nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.ai import ai_module, default_budget, needs_decision
from games.ai.budget import PI_SLOWDOWN, Budget
from games.core import CHANCE, Action, Game, GameConfig
from games.playout import random_playout, sample_chance
from games.registry import get_game

GAMES = ("droles-de-zebres", "zop", "spywhere")
OPPONENTS = ("random", "greedy", "mc")
# head-to-head: the strong level against one of the searches its module offers (SEARCHES; ZOP:
# "flat" Monte-Carlo and the "tree" of games.zop.ai_tree), each with its own budget (SEARCH_BUDGETS,
# about the same time per move), from its seat's view; only with --opponent
SEARCH_OPPONENTS = ("flat", "tree")
# win-rate targets of the strong level per opponent (credited rate); Spywhere also per seat
TARGETS: dict[str, dict[str, float]] = {
    "droles-de-zebres": {"random": 0.98, "greedy": 0.95, "mc": 0.90},
    "zop": {"random": 0.90, "greedy": 0.65, "mc": 0.90},
    "spywhere": {"random": 0.65, "greedy": 0.40}}
SEAT_TARGETS = {"spywhere": {"greedy": 0.30}}
# flat Monte-Carlo engine playouts per move: about 100-200 ms of CPU per move at the median on
# the development machine (ZOP's playouts run to the end of the match: ~10 ms each)
MC_PLAYOUTS = {"droles-de-zebres": 150, "zop": 15, "spywhere": 100}
MOVE_P50_MS, MOVE_P99_MS = 200.0, 400.0
DDZ_PLAYOUTS_PER_S = 1000.0
CONFIGS = {"droles-de-zebres": GameConfig(players=2), "zop": GameConfig(players=2, options={"deck": "tracked"}),
           "spywhere": GameConfig(players=4)}


def rate_verdict(rate: float, lo: float, hi: float, target: float) -> str:
    """A win rate against its target (higher is better), with its 95 % interval: a point below the
    target whose interval reaches it is not a miss yet, only too few games to tell."""
    if lo >= target:
        return "met (whole CI)"
    if rate >= target:
        return "met (point; CI reaches below)"
    if hi >= target:
        return "not settled: the point is below, the CI reaches the target; play more games"
    return "MISSED (whole CI below)"


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion k/n (k may be a sum of credits in [0, 1]:
    the interval is then conservative, a credit varying less than a win or a loss)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# -- yardstick players ----------------------------------------------------------------------


Player = Callable[[Game[Any, Any], Any, int, random.Random], Action]


def _random_player(game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Action:
    legal = [a for a in game.legal_actions(state, seat) if a["type"] not in ("withdraw", "review")]
    return rng.choice(legal or game.legal_actions(state, seat))


def _greedy_player(game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Action:
    legal = game.legal_actions(state, seat)
    if game.id in ("droles-de-zebres", "zop"):
        act: Action = ai_module(game.id).greedy_policy(game, state, seat, legal, rng)
        return act
    view = game.view(state, seat)
    if needs_decision(game.id, view, seat):
        act = ai_module(game.id).choose(view, seat, "greedy", rng)
        return act
    return rng.choice(legal)


def _credit(game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> float:
    """Play `state` to the end at random through the engine; 1/k if `seat` is among k winners."""
    for _ in range(10_000):
        outcome = game.outcome(state)
        if outcome is not None:
            return 1 / len(outcome.winners) if seat in outcome.winners else 0.0
        seats = sorted(game.to_act(state))
        who = rng.choice(seats)
        act = sample_chance(game, state, rng) if who == CHANCE else _random_player(game, state, who, rng)
        state = game.apply(state, who, act).state
    raise RuntimeError(f"{game.id}: a playout did not end")


def mc_player(playouts: int) -> Player:
    """The flat Monte-Carlo yardstick with `playouts` random games per move (see the docstring)."""
    def choose(game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Action:
        legal = [a for a in game.legal_actions(state, seat) if a["type"] not in ("withdraw", "review")]
        legal = legal or game.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        view = game.view(state, seat)
        sample = ai_module(game.id).sample_state
        totals = [0.0] * len(legal)
        counts = [0] * len(legal)
        for i in range(max(playouts, len(legal))):
            a = i % len(legal)
            world = sample(view, seat, rng)
            try:
                after = game.apply(world, seat, legal[a]).state
            except Exception:  # a world where this action is not legal: no evidence
                continue
            totals[a] += _credit(game, after, seat, rng)
            counts[a] += 1
        best = max(range(len(legal)), key=lambda a: (totals[a] / counts[a] if counts[a] else -1.0, -a))
        return legal[best]
    return choose


def search_player(game_id: str, search: str, budget: Budget) -> Player:
    """One of the searches of a game's AI module (its `choose_with`), from its seat's view."""
    decide = ai_module(game_id).choose_with

    def choose(game: Game[Any, Any], state: Any, seat: int, rng: random.Random) -> Action:
        view = game.view(state, seat)
        if needs_decision(game.id, view, seat):
            act: Action = decide(view, seat, search, random.Random(rng.random()), budget)
            return act
        return _random_player(game, state, seat, rng)
    return choose


def has_search(game_id: str, opponent: str) -> bool:
    """Whether `opponent` can play `game_id` (a search opponent exists in some games only)."""
    return opponent not in SEARCH_OPPONENTS or opponent in getattr(ai_module(game_id), "SEARCHES", ())


def yardstick(opponent: str, game_id: str, mc_playouts: int | None = None, budget_scale: float = 1.0) -> Player:
    """The opponent player named `opponent`."""
    if opponent in SEARCH_OPPONENTS:
        budget: Budget = ai_module(game_id).SEARCH_BUDGETS[opponent]
        return search_player(game_id, opponent, budget.scaled(budget_scale))
    if opponent == "mc":
        return mc_player(mc_playouts or MC_PLAYOUTS[game_id])
    return {"random": _random_player, "greedy": _greedy_player}[opponent]


# -- matches ----------------------------------------------------------------------------------


@dataclass
class Match:
    """One finished match: did the computer win alone, share the win, and its move times."""

    won: bool
    shared: bool
    credit: float = 0.0  # 1 for a sole win, 1/k for a first place shared by k, else 0
    cpu_ms: list[float] = field(default_factory=list)
    wall_ms: list[float] = field(default_factory=list)
    me: int = 0  # the computer's seat
    first: int = 0  # the first player's seat (Spywhere; 0 elsewhere)
    data: dict[str, Any] = field(default_factory=dict)  # the outcome's details (Spywhere: scores, the ender)
    opponent_ms: list[float] = field(default_factory=list)  # the opponents' CPU ms per move
    players: int = 2
    margin: float = 0.0  # the computer's score minus the best other score
    seed: int = 0
    guardian: bool = False  # Drôles de Zèbres: the computer placed the guardian (the other lays first)

    @property
    def place(self) -> int:
        """The computer's place in the turn order (0: first), its seat in two-player games."""
        return (self.me - self.first) % self.players


def play_match(game_id: str, level: str, opponent: str, seed: int, budget_scale: float,
               mc_playouts: int | None = None) -> Match:
    """A seeded match of the computer (seat seed % players) against yardstick players."""
    game = get_game(game_id)
    config = game.validate_config(CONFIGS[game_id])
    first = 0
    if game_id == "spywhere":
        first = (seed // config.players) % config.players  # every (computer seat, first player) pair
        config = game.validate_config(GameConfig(config.players, {"first_player": first}))
    me = seed % config.players
    rng = random.Random(seed)
    budget = default_budget(game_id, level).scaled(budget_scale)
    module = ai_module(game_id)
    other = yardstick(opponent, game_id, mc_playouts, budget_scale)
    state = game.initial_state(config)
    match = Match(False, False)
    while game.outcome(state) is None:
        seats = sorted(game.to_act(state))
        if CHANCE in seats:
            state = game.apply(state, CHANCE, sample_chance(game, state, rng)).state
            continue
        # ZOP: the computer lays first in the simultaneous commit, as the table asks it at once;
        # elsewhere several seats to act (the guardian, last identifications) go in random order
        seat = me if game_id == "zop" and me in seats else rng.choice(seats)
        view = game.view(state, me) if seat == me else None
        if view is not None and module.needs_decision(view, me):
            c0, w0 = time.process_time(), time.perf_counter()
            act = module.choose(view, me, level, random.Random(rng.random()), budget)
            match.cpu_ms.append((time.process_time() - c0) * 1000)
            match.wall_ms.append((time.perf_counter() - w0) * 1000)
            state = game.apply(state, me, act).state
            continue
        if seat == me:  # nothing to decide (e.g. ZOP: card laid, waiting): the opponent's turn
            seat = rng.choice([s for s in seats if s != me] or seats)
        c0 = time.process_time()
        act = other(game, state, seat, rng)
        match.opponent_ms.append((time.process_time() - c0) * 1000)
        state = game.apply(state, seat, act).state
    outcome = game.outcome(state)
    assert outcome is not None
    winners = outcome.winners
    match.me, match.first, match.data, match.players = me, first, dict(outcome.details), config.players
    match.margin = outcome.scores[me] - max(s for i, s in enumerate(outcome.scores) if i != me)
    match.seed = seed
    match.guardian = game_id == "droles-de-zebres" and getattr(state, "first", None) == me
    match.won = winners == (me,)
    match.shared = me in winners and len(winners) > 1
    match.credit = 1 / len(winners) if me in winners else 0.0
    return match


def _run(job: tuple[str, str, str, int, float, int | None]) -> Match:
    return play_match(*job)


# -- playout speed ----------------------------------------------------------------------------


def _per_second(fn: Callable[[int], object], seconds: float) -> float:
    n, start = 0, time.process_time()
    while True:
        fn(n)
        n += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return n / spent


def playout_speeds(game_id: str, seconds: float) -> list[tuple[str, float]]:
    """Random playouts per CPU second: the engine (games.playout), and the search's model."""
    game = get_game(game_id)
    config = CONFIGS[game_id]
    out = [(f"engine random_playout ({'matches' if game_id == 'zop' else 'games'})",
            _per_second(lambda i: random_playout(game, config, i), seconds))]
    if game_id == "droles-de-zebres":
        from games.droles_de_zebres import ai_model, ai_playout
        start = ai_model.from_state(game.initial_state(game.validate_config(config)))
        rng = random.Random(0)

        def model_game(i: int) -> None:
            model = start.copy()
            model.play(0, ("g", i % 22))
            ai_playout.random_playout(model, rng)  # the search's playouts
        out.append(("search model ai_model (games)", _per_second(model_game, seconds)))
    elif game_id == "zop":
        from games.zop.ai_model import from_state, uniform_picker
        state = game.initial_state(game.validate_config(config))
        while CHANCE in game.to_act(state):
            state = game.apply(state, CHANCE, sample_chance(game, state, random.Random(1))).state
        rng = random.Random(0)
        pick = uniform_picker(rng)

        def model_round(i: int) -> None:
            from_state(cast(Any, game).deck, state, rng).play_out(rng, pick, pick)  # ZopGame's deck  # ZopGame's deck
        out.append(("search model ai_model (rounds)", _per_second(model_round, seconds)))
    else:
        from games.spywhere.ai import play_out, random_move
        from games.spywhere.ai_model import from_state as spy_model
        played = random_playout(game, config, 0)
        state = game.initial_state(game.validate_config(config))
        for seat, act in played.moves:
            state = game.apply(state, seat, act).state
            if seat != CHANCE and CHANCE not in game.to_act(state):
                break
        base = spy_model(state)
        rng = random.Random(0)

        def model_game(i: int) -> None:
            play_out(base.copy(), [random_move] * config.players, rng)
        out.append(("search model ai_model (games)", _per_second(model_game, seconds)))
    return out


# -- report -----------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:5.1f} %"


def _quantile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] if values else float("nan")


def bounded(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number from lo to hi."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number is needed, not {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{value} is not between {lo} and {hi}")
        return value
    return parse


def _rate(wins: float, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{wins:.1f}/{n} = {_pct(wins / n)} [{_pct(lo)} – {_pct(hi)}]" if n else "-"


def report(game_id: str, level: str, opponent: str, results: list[Match], quick: bool) -> None:
    """One line per pairing (rate, interval, times, verdict), then the split by seat."""
    n = len(results)
    wins = sum(m.won for m in results)
    shared = sum(m.shared for m in results)
    credit = sum(m.credit for m in results)
    lo, hi = wilson(wins, n)
    clo, chi = wilson(credit, n)
    cpu = [t for m in results for t in m.cpu_ms]
    wall = [t for m in results for t in m.wall_ms]
    target = TARGETS[game_id].get(opponent) if level == "strong" and not quick else None
    # judged on the credited rate: the table declares every tied seat a winner
    verdict = "" if target is None else f"  target >= {_pct(target)}: {rate_verdict(credit / n, clo, chi, target)}"
    ties = f" (+{shared} shared; credited {credit:.1f}/{n} = {_pct(credit / n)} " \
        f"[{_pct(clo)} – {_pct(chi)}])" if shared else ""
    print(f"{level:>7} vs {opponent:<6} won {wins:4d}/{n:<4d} = {_pct(wins / n)} "
          f"[95% CI {_pct(lo)} – {_pct(hi)}]{ties}"
          f"  move p50 {_quantile(cpu, .5):6.1f} ms p99 {_quantile(cpu, .99):6.1f} ms"
          f" (wall p50 {_quantile(wall, .5):6.1f}){verdict}")
    if opponent in ("mc", *SEARCH_OPPONENTS):
        theirs = [t for m in results for t in m.opponent_ms]
        who = "flat Monte-Carlo" if opponent == "mc" else opponent
        print(f"{'':>18}{who} move p50 {_quantile(theirs, .5):6.1f} ms p99 {_quantile(theirs, .99):6.1f} ms")
    seat_target = SEAT_TARGETS.get(game_id, {}).get(opponent) if level == "strong" and not quick else None
    places = sorted({m.place for m in results})
    name = "place in the turn order" if game_id == "spywhere" else "seat"
    parts = []
    for p in places:
        mine = [m for m in results if m.place == p]
        got = sum(m.credit for m in mine)
        text = f"{p + 1}: {_rate(got, len(mine))}"
        if seat_target is not None:
            plo, phi = wilson(got, len(mine))
            text += f" ({rate_verdict(got / len(mine), plo, phi, seat_target).split(':')[0]})"
        parts.append(text)
    target_note = f" target >= {_pct(seat_target)} each" if seat_target is not None else ""
    print(f"{'':>18}credited by {name}{target_note}: " + "; ".join(parts))
    if game_id == "droles-de-zebres":
        parts = []
        for placed, label in ((True, "the computer placed the guardian (lays second)"),
                              (False, "the other placed it (the computer lays first)")):
            mine = [m for m in results if m.guardian == placed]
            margin = f", mean margin {sum(m.margin for m in mine) / len(mine):+.1f}" if mine else ""
            parts.append(f"{label}: {_rate(sum(m.credit for m in mine), len(mine))}{margin}")
        print(f"{'':>18}" + "; ".join(parts))
    lost = [m for m in results if m.credit < 1]
    if lost:
        print(f"{'':>18}not won (seed: margin): " + ", ".join(f"{m.seed}: {m.margin:+.0f}" for m in lost))


def main() -> None:
    """Run the benchmark and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=bounded(1, 100_000), default=100, help="matches per level and opponent")
    parser.add_argument("--game", choices=GAMES, action="append", help="only these games (repeatable)")
    parser.add_argument("--level", action="append", help="only these levels (repeatable)")
    parser.add_argument("--opponent", choices=(*OPPONENTS, *SEARCH_OPPONENTS), action="append",
                        help="only these opponents (repeatable; flat, tree: ZOP's strong level against that search)")
    parser.add_argument("--mc-playouts", type=bounded(1, 100_000), default=None,
                        help="flat Monte-Carlo playouts per move (default: MC_PLAYOUTS per game)")
    parser.add_argument("--budget-scale", type=bounded(1, 1000), default=None, metavar="PERCENT",
                        help="the levels' budgets in percent of their defaults (default 100)")
    parser.add_argument("--first-seed", type=bounded(0, 10_000_000), default=0, help="seed of the first match")
    parser.add_argument("--jobs", type=bounded(1, 64), default=1, help="worker processes for the matches")
    parser.add_argument("--quick", action="store_true", help="CI: one short match per pairing, tiny budgets")
    parser.add_argument("--each", action="store_true", help="print each match as it ends (seed, seat, credit, margin)")
    args = parser.parse_args()
    games = args.game or list(GAMES)
    opponents = args.opponent or list(OPPONENTS)
    n = 1 if args.quick else args.games
    scale = 0.05 if args.quick else (args.budget_scale or 100) / 100
    mc = 2 if args.quick else args.mc_playouts
    speed_seconds = 0.15 if args.quick else 2.0
    print(f"bench_ai: {n} match(es) per level and opponent{' (quick: figures meaningless)' if args.quick else ''}; "
          f"move times are CPU ms; targets: strong <= {MOVE_P50_MS:.0f} ms p50, <= {MOVE_P99_MS:.0f} ms p99")
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        for game_id in games:
            levels = [lv for lv in ai_module(game_id).LEVELS if not args.level or lv in args.level]
            print(f"\n== {game_id} ==")
            for level in levels:
                for opponent in opponents:
                    if not has_search(game_id, opponent):
                        print(f"{level:>7} vs {opponent:<6} -: {game_id} has no {opponent} search")
                        continue
                    jobs = [(game_id, level, opponent, seed, scale, mc)
                            for seed in range(args.first_seed, args.first_seed + n)]
                    results = []
                    for match in (pool.map(_run, jobs) if pool else map(_run, jobs)):
                        results.append(match)
                        if args.each:
                            print(f"  match seed {match.seed} seat {match.me + 1} credit {match.credit:.2f} "
                                  f"margin {match.margin:+.0f}{' (placed the guardian)' if match.guardian else ''}",
                                  flush=True)
                    report(game_id, level, opponent, results, args.quick)
            for name, rate in playout_speeds(game_id, speed_seconds):
                note = ""
                if game_id == "droles-de-zebres" and "engine" in name and not args.quick:
                    met = 'met' if rate >= DDZ_PLAYOUTS_PER_S else 'MISSED'
                    note = f"  target >= {DDZ_PLAYOUTS_PER_S:.0f}/s: {met}"
                print(f"  playouts: {name:<40} {rate:9.0f} /s{note}")
    finally:
        if pool:
            pool.shutdown()
    print(f"\nPi Zero 2 W estimate: x{PI_SLOWDOWN:.0f} these CPU times (games.ai.budget.PI_SLOWDOWN)")


if __name__ == "__main__":
    main()
