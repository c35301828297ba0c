"""What a Spywhere seat may infer about the others' passports, and which identifications to place.

Read from the seat's view only: its own passports, the nationalities in play and the public clue
piles (nobody takes a triple of their own nationality). Every way of dealing the other passports
that fits is equally likely a priori; the odds of "seat t holds nationality n" are the share of
those deals where it does. A triple lying in the centre at the start of a turn, which the previous
player could have taken, hints that they could not: their nationality (TRIPLE_LEFT_WEIGHT).
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Final

from games.spywhere.pieces import TRIPLE, nat_of
from games.spywhere.views import SpyView

# How much likelier a deal is when the previous player holds the nationality of a triple they
# left in the centre: a player choosing at random among "take" and "leave" leaves it one time in
# two, one who cannot take it always does.
TRIPLE_LEFT_WEIGHT: Final = 2.0

Odds = list[list[float]]  # per seat, per nationality index: the chance it is one of its passports


def _left_triples(view: SpyView, seat: int) -> tuple[int, frozenset[str]]:
    """The previous player and the nationalities of the triples it left in the centre, if known.

    At the seat's own steps after its swap the centre before that swap is rebuilt from last_swap
    (unless a take changed it since); before its swap, the centre is the one the previous player left.
    """
    players = view.players
    prev = (seat - 1) % players
    if view.phase != "play" or view.active != seat:
        return prev, frozenset()
    centre = list(view.centre)
    swap = view.last_swap
    if swap is not None and swap[0] == seat:
        slot, laid, lifted = swap[1], swap[2], swap[3]
        if centre[slot - 1] != laid:  # a take and a refill went by: the old centre is not known
            return prev, frozenset()
        centre[slot - 1] = lifted
    elif swap is None or swap[0] != prev:
        return prev, frozenset()
    counts: dict[str, int] = {}
    for c in centre:
        if c is not None:
            counts[nat_of(c)] = counts.get(nat_of(c), 0) + 1
    return prev, frozenset(n for n, k in counts.items() if k >= TRIPLE)


def passport_odds(view: SpyView, seat: int) -> Odds:
    """Per seat and nationality index, the chance that seat holds it (the seat's own: 0 or 1)."""
    nats = view.nationalities
    index = {n: i for i, n in enumerate(nats)}
    k = len(nats)
    own = {index[nat_of(p)] for p in view.passports if nat_of(p) in index}
    per = 2 if view.players == 2 else 1
    pool = [i for i in range(k) if i not in own]
    others = [s for s in range(view.players) if s != seat]
    banned = {s: {index[nat_of(c)] for c in view.seats[s].clues if nat_of(c) in index} for s in others}
    prev, left = _left_triples(view, seat)
    hinted = {index[n] for n in left if n in index}
    odds: Odds = [[0.0] * k for _ in range(view.players)]
    for n in own:
        odds[seat][n] = 1.0
    total = 0.0
    deal: dict[int, tuple[int, ...]] = {}

    def walk(i: int, free: list[int], weight: float) -> None:
        nonlocal total
        if i == len(others):
            total += weight
            for s, ps in deal.items():
                for n in ps:
                    odds[s][n] += weight
            return
        s = others[i]
        for ps in combinations(free, per):
            if any(n in banned[s] for n in ps):
                continue
            w = weight * (TRIPLE_LEFT_WEIGHT if s == prev and hinted & set(ps) else 1.0)
            deal[s] = ps
            walk(i + 1, [n for n in free if n not in ps], w)
        deal.pop(s, None)

    walk(0, pool, 1.0)
    if total > 0:
        for s in others:
            odds[s] = [x / total for x in odds[s]]
    return odds


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
