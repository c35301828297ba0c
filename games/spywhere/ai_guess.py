"""What a Spywhere seat may infer about the others' passports, and which identifications to place.

Read from the seat's view only: its own passports, the nationalities in play, the public clue
piles (nobody takes a triple of their own nationality) and what every player did face up: the
nationality of each card they laid in and lifted from the centre, the triples they left there.
Each other player is modelled as a mixture of a sensible player (lifts its own nationality, lays
another, takes every triple it may) and a random one (any swap; takes a triple or leaves it, but
only ever leaves one of its own nationality); how sensible is weighed from its own actions and
the other players' (the levels of `SENSIBLE`), so a player who swaps at random soon stops being
read as one who reveals its nationality. The odds of "seat t holds nationality n" are the shares
of the deals that fit the clue piles, each weighted by how likely it makes everything the
players did.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, permutations
from typing import Final

from games.spywhere.pieces import nat_of
from games.spywhere.views import SpyView

# How sensible another player may be (the chance that an action of theirs is the sensible one),
# with its prior weight: a random player, or a sensible one. (In the counts model, 2,000 deals
# each: these two levels read three random players as well as a random-only reading within a
# point, and three sensible ones as well as the levels 0.05/0.5/0.9 did.)
SENSIBLE: Final = ((0.0, 0.5), (0.9, 0.5))
# A sensible swap, by whether the card lifted and the card laid are of the player's nationality:
# lift its own laying another, most of the time; the other kinds when the centre or its hand
# leave no better (mass of each kind, shared among the nationality pairs of that kind).
SWAP_KINDS: Final = {(True, False): 0.75, (True, True): 0.05, (False, False): 0.17, (False, True): 0.03}
# A sensible player leaves a triple only when it may take none (all of its own nationality); a
# random player chooses among "take" and "leave".
LEAVE_SENSIBLE_OTHER: Final = 0.05
LEAVE_RANDOM: Final = 0.5
# how far a seat's prior on its level leans to what the other players showed (1: fully)
POOL: Final = 1.0

Odds = list[list[float]]  # per seat, per nationality index: the chance it is one of its passports
Swap = tuple[int, int, int]  # seat, nationality index laid, nationality index lifted
Left = tuple[int, tuple[int, ...]]  # seat, nationality indices of the triples it left
Deal = tuple[float, tuple[tuple[int, ...], ...]]  # weight, passports (nationality indices) per seat


def _action_odds(own: frozenset[int], k: int, swaps: list[tuple[int, int]], left: list[tuple[int, ...]],
                 q: float) -> float:
    """How likely one player's public actions are if it holds `own` and plays sensibly with chance q."""
    p = len(own)
    out = 1.0
    random_swap = 1.0 / (k * k)
    for laid, lifted in swaps:
        kind = (lifted in own, laid in own)
        pairs = (p if kind[0] else k - p) * (p if kind[1] else k - p)
        sensible = SWAP_KINDS[kind] / pairs if pairs else 0.0
        out *= q * sensible + (1 - q) * random_swap
    for nats in left:
        # a triple of one's own nationality may only be left, whoever plays
        mine = all(n in own for n in nats)
        out *= q * (1.0 if mine else LEAVE_SENSIBLE_OTHER) + (1 - q) * (1.0 if mine else LEAVE_RANDOM)
    return out


def _tables(k: int, per: int, swaps: Iterable[Swap], left: Iterable[Left], seat: int) -> list[dict[tuple[int, ...], float]]:
    """Per level of `SENSIBLE`, how likely `seat`'s public actions are for each passport set it may hold."""
    mine_swaps = [(laid, lifted) for s, laid, lifted in swaps if s == seat]
    mine_left = [nats for s, nats in left if s == seat]
    sets = list(combinations(range(k), per))
    return [{ps: _action_odds(frozenset(ps), k, mine_swaps, mine_left, q) for ps in sets} for q, _ in SENSIBLE]


def action_weights(k: int, per: int, swaps: Iterable[Swap], left: Iterable[Left], seat: int,
                   prior: list[float] | None = None) -> dict[tuple[int, ...], float]:
    """For each passport set `seat` may hold (sorted indices), how likely its public actions make it."""
    tables = _tables(k, per, swaps, left, seat)
    weights = prior or [w for _, w in SENSIBLE]
    return {ps: sum(w * t[ps] for w, t in zip(weights, tables)) for ps in tables[0]}


def _level_priors(tables: dict[int, list[dict[tuple[int, ...], float]]]) -> dict[int, list[float]]:
    """Per seat, its prior over the levels of `SENSIBLE`, leaning by POOL to what the others showed."""
    evidence = {s: [sum(t.values()) / max(1, len(t)) for t in tables[s]] for s in tables}
    out = {}
    for s in tables:
        prior = [w for _, w in SENSIBLE]
        for j in tables:
            if j != s:
                top = max(evidence[j]) or 1.0
                prior = [p * (e / top) ** POOL for p, e in zip(prior, evidence[j])]
        total = sum(prior) or 1.0
        out[s] = [p / total for p in prior]
    return out


def table_weights(k: int, per: int, swaps: list[Swap], left: list[Left], seats: list[int]) -> dict[int, dict[tuple[int, ...], float]]:
    """action_weights for each of `seats`, each seat's level of play also read from the others'.

    How sensibly the others play is weighed from what each of them did (its evidence for every
    level, over every passport set), and a seat's prior on its own level leans, by POOL, to what
    the others showed: at one table the players are often alike, and a random player's chance
    lifts of one nationality look like a sensible player's only while its own swaps are few.
    """
    tables = {s: _tables(k, per, swaps, left, s) for s in seats}
    priors = _level_priors(tables)
    return {s: {ps: sum(w * t[ps] for w, t in zip(priors[s], tables[s])) for ps in tables[s][0]} for s in seats}


def sensible_shares(view: SpyView, seat: int) -> list[float]:
    """Per seat, the chance that an action of theirs is the sensible one, read from what they did."""
    swaps, left = history(view)
    return shares_of(len(view.nationalities), 2 if view.players == 2 else 1, swaps, left, view.players, seat)


def shares_of(k: int, per: int, swaps: list[Swap], left: list[Left], players: int, seat: int) -> list[float]:
    """sensible_shares from the public actions by nationality index (1.0 for `seat` itself)."""
    others = [s for s in range(players) if s != seat]
    tables = {s: _tables(k, per, swaps, left, s) for s in others}
    priors = _level_priors(tables)
    out = [1.0] * players
    for s in others:
        post = [p * sum(t.values()) for p, t in zip(priors[s], tables[s])]
        total = sum(post)
        out[s] = sum(w * q for w, (q, _) in zip(post, SENSIBLE)) / total if total > 0 else 0.5
    return out


def history(view: SpyView) -> tuple[list[Swap], list[Left]]:
    """The public swaps and left triples of the view, by nationality index."""
    index = {n: i for i, n in enumerate(view.nationalities)}
    swaps = [(s, index[a], index[b]) for s, a, b in view.swaps if a in index and b in index]
    left = [(s, tuple(index[n] for n in nats if n in index)) for s, nats in view.left]
    return swaps, left


def passport_deals(view: SpyView, seat: int) -> list[Deal]:
    """Every way of dealing the others' passports that fits the clue piles, with its weight."""
    nats = view.nationalities
    index = {n: i for i, n in enumerate(nats)}
    k = len(nats)
    own = tuple(sorted(index[nat_of(p)] for p in view.passports if nat_of(p) in index))
    per = 2 if view.players == 2 else 1
    pool = [i for i in range(k) if i not in own]
    others = [s for s in range(view.players) if s != seat]
    banned = {s: {index[nat_of(c)] for c in view.seats[s].clues if nat_of(c) in index} for s in others}
    swaps, left = history(view)
    weights = table_weights(k, per, swaps, left, others)
    deals: list[Deal] = []
    deal: list[tuple[int, ...]] = [() for _ in range(view.players)]
    deal[seat] = own

    def walk(i: int, free: list[int], weight: float) -> None:
        if i == len(others):
            deals.append((weight, tuple(deal)))
            return
        s = others[i]
        for ps in combinations(free, per):
            if any(n in banned[s] for n in ps):
                continue
            deal[s] = ps
            walk(i + 1, [n for n in free if n not in ps], weight * weights[s][ps])
        deal[s] = ()

    walk(0, pool, 1.0)
    return deals


def odds_of(deals: list[Deal], players: int, k: int) -> Odds:
    """Per seat and nationality index, the weighted share of the deals where the seat holds it."""
    odds: Odds = [[0.0] * k for _ in range(players)]
    total = sum(w for w, _ in deals)
    if total <= 0:
        return odds
    for w, ps in deals:
        for s, held in enumerate(ps):
            for n in held:
                odds[s][n] += w / total
    return odds


def passport_odds(view: SpyView, seat: int) -> Odds:
    """Per seat and nationality index, the chance that seat holds it (the seat's own: 0 or 1)."""
    return odds_of(passport_deals(view, seat), view.players, len(view.nationalities))


def best_guess(odds: Odds, targets: dict[int, int], free: list[int]) -> tuple[int, int] | None:
    """The identification to place now: (target, nationality index), or None if none is left.

    `targets` maps each open target to the cards it may still receive. The cards left are shared
    out to maximise the expected correct identifications; of that plan, the surest one goes first.
    """
    slots = [t for t, n in sorted(targets.items()) for _ in range(n)]
    if not slots or not free:
        return None
    slots = slots[:len(free)]
    best: tuple[float, tuple[int, ...]] | None = None
    for plan in permutations(free, len(slots)):
        value = sum(odds[t][n] for t, n in zip(slots, plan))
        if best is None or value > best[0] + 1e-12:
            best = (value, plan)
    assert best is not None
    pairs = list(zip(slots, best[1]))
    return max(pairs, key=lambda p: (odds[p[0]][p[1]], -p[0], -p[1]))
