"""When the strong Spywhere player identifies during play, and which identifications it places last.

An identification placed during play is worth no more than the same one placed at the end, when
more is known; placing one every turn only pays for the race to end the game (3 points, and the
end before the others score more). `race_chance` weighs that race: the chance that the seat,
identifying at each of its turns from this one, places its last identification before any other
player does, each other player identifying at each of its turns as a sensible player does, or
choosing at random among ending its turn and its identifications, as sensibly as its swaps and
left triples showed (games.spywhere.ai_guess). Below `RACE_MIN` the seat keeps its cards for the
end.

At the end, the identifications left are chosen for the win rather than for the count right:
`final_plan` scores every way of placing them in sampled end positions (the others' passports,
hands and identifications dealt within what the seat knows), where the seat's own score is known
but for its identifications, and takes the one that wins (or shares first place) most often.
"""

from __future__ import annotations

from itertools import permutations
from typing import Final

from games.spywhere.ai_guess import Odds
from games.spywhere.ai_model import SpyModel
from games.spywhere.pieces import ENDER_BONUS

RACE_MIN: Final = 0.12

Plan = tuple[tuple[int, int], ...]  # (target, nationality index) per identification left


def _done_chance(m: SpyModel, player: int, steps: int, share: float) -> float:
    """The chance that `player` places all its identifications within its next `steps` turns.

    A sensible player (chance `share` per action) identifies at each of its turns; a random one
    chooses among ending its turn and every identification it may place (fewer as it places them).
    """
    placed = len(m.guesses[player])
    chances = {placed: 1.0}
    for _ in range(steps):
        after: dict[int, float] = {}
        for n, p in chances.items():
            if n >= m.required:
                after[n] = after.get(n, 0.0) + p
                continue
            options = -(-(m.required - n) // m.per) * (m.k - n)
            rate = share + (1 - share) * options / (options + 1)
            after[n + 1] = after.get(n + 1, 0.0) + p * rate
            after[n] = after.get(n, 0.0) + p * (1 - rate)
        chances = after
    return sum(p for n, p in chances.items() if n >= m.required)


def race_chance(m: SpyModel, seat: int, shares: list[float]) -> float:
    """The chance that `seat` (to identify now) ends the game first by identifying at each of its turns.

    `shares`: per seat, how often its actions are the sensible ones (ai_guess.sensible_shares).
    """
    need = m.required - len(m.guesses[seat])
    end = m.turn + (need - 1) * m.players  # the turn of its last identification
    if end - m.turn >= m.pile_n:  # the pile runs out first (one card drawn a turn at least)
        return 0.0
    chance = 1.0
    for other in range(m.players):
        if other != seat:
            steps = sum(1 for t in range(m.turn + 1, end) if (m.active + t - m.turn) % m.players == other)
            chance *= 1.0 - _done_chance(m, other, steps, shares[other])
    return chance


def _credit(mine: int, others: list[int]) -> float:
    best = max(others)
    if mine > best:
        return 1.0
    return 1.0 / (1 + others.count(best)) if mine == best else 0.0


def plans(targets: dict[int, int], free: list[int]) -> list[Plan]:
    """Every way of placing the identifications left: each open target as often as it may receive one."""
    slots = [t for t, n in sorted(targets.items()) for _ in range(n)][:len(free)]
    return [tuple(zip(slots, nats)) for nats in permutations(free, len(slots))]


def final_plan(ends: list[SpyModel], seat: int, targets: dict[int, int], free: list[int], odds: Odds) -> Plan:
    """The placing of the identifications left that wins most often over the end positions `ends`.

    Each of `ends` is a sampled end of the game with every other seat's identifications placed
    and the seat's own still to place; ties go to the most identifications expected right.
    """
    options = plans(targets, free)
    if not options:
        return ()
    per = len(options[0])
    value = [0.0] * len(options)
    for m in ends:
        own = m.passports[seat]
        cards = sum(m.hands[seat][n] for n in own)
        right = sum(1 for t, g in m.guesses[seat] if g in m.own[t])
        bonus = ENDER_BONUS if m.ender == seat else 0
        others = [s for i, s in enumerate(m.scores()) if i != seat]
        credit = [_credit(cards * (1 + right + extra) + bonus, others) for extra in range(per + 1)]
        for i, plan in enumerate(options):
            value[i] += credit[sum(1 for t, n in plan if n in m.own[t])]
    best = max(range(len(options)), key=lambda i: (
        round(value[i], 9), sum(odds[t][n] for t, n in options[i]), [-x for p in options[i] for x in p]))
    return options[best]


def surest(plan: Plan, odds: Odds) -> tuple[int, int] | None:
    """The identification of `plan` to place first: the likeliest right."""
    if not plan:
        return None
    return max(plan, key=lambda p: (odds[p[0]][p[1]], -p[0], -p[1]))
