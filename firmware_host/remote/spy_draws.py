"""Spywhere across tables: which card each hidden draw of a host seat may have been.

A card is in sight while it lies in the centre, in a joining seat's hand or in a triple taken, and
when a refill lays it in the centre (a re-triple may shuffle it back into the pile within the same
move). A hidden draw at move i may have drawn a card only if it was out of sight from its last
sighting before i until it was laid again (or to the end, for a card still in hand).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from math import inf

from games.core import CHANCE, Action
from games.spywhere.state import SpyState


def sightings(states: Sequence[SpyState], log: Sequence[tuple[int, Action]], seats: Iterable[int]
              ) -> dict[str, list[int]]:
    """Each card once in sight -> the moves before which it was in sight, or that laid it in the centre (sorted)."""
    seen: dict[str, set[int]] = {}
    joining = sorted(seats)
    for j, state in enumerate(states):
        for cards in (state.centre, *(state.hands[s] for s in joining), *state.clues):
            for card in cards:
                if card is not None:
                    seen.setdefault(card, set()).add(j)
    for j, (seat, action) in enumerate(log):
        if seat == CHANCE and action.get("type") == "centre":
            seen.setdefault(str(action["card"]), set()).add(j)
    return {card: sorted(moves) for card, moves in seen.items()}


def window(sights: Sequence[int], drawn: int | None) -> tuple[float, float]:
    """(after, before): the moves strictly between which a card may have been drawn; `drawn`: a move
    known to have drawn it (a card laid since), None for a card still in hand."""
    if drawn is None:
        return (sights[-1] if sights else -1), inf
    return max((t for t in sights if t < drawn), default=-1), min((t for t in sights if t > drawn), default=inf)


def match(draws: Sequence[int], cards: Sequence[tuple[float, float, str]]) -> list[str] | None:
    """The card of each draw (moves in increasing order), each card (after, before, name) given to a
    draw between its bounds; the earliest deadline first, so that one is found whenever one exists."""
    if len(draws) != len(cards):
        return None
    waiting = sorted(cards)
    ready: list[tuple[float, str]] = []
    out: list[str] = []
    k = 0
    for move in draws:
        while k < len(waiting) and waiting[k][0] < move:
            heapq.heappush(ready, (waiting[k][1], waiting[k][2]))
            k += 1
        if not ready:
            return None
        before, card = heapq.heappop(ready)
        if before <= move:
            return None
        out.append(card)
    return out
