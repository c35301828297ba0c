"""End-of-game scoring: elimination of the most compromised spies, objective points, winners."""

from __future__ import annotations

from collections.abc import Sequence

from games.core import Outcome
from games.mata_hari.pieces import card, card_set
from games.mata_hari.state import OVER, MHState

INCOGNITO_POINTS = 2


def points(hand: Sequence[str], objective: str | None, incognito: int) -> int:
    """Objective resource cards score their priority, +2 per Incognito, minus skull-colour cards."""
    total = INCOGNITO_POINTS * incognito
    if objective is None:
        return total
    obj = card_set().objectives[objective]
    for cid in hand:
        c = card(cid)
        if c.value is None:
            continue
        if c.object == obj.resource:
            total += c.value
        if c.colour == obj.skull:
            total -= c.value
    return total


def eliminated(compromis: Sequence[int]) -> list[int]:
    """Seats holding the most Compromis covers: all of them on a tie, every seat if all tie.

    Rulebook: « Si plusieurs joueurs ont le même nombre de Cartes Compromis, ils sont tous
    éliminés » -- with no exception when the tie is the whole table (then nobody wins). A seat
    holding no Compromis cover is not « possédant le plus de Cartes … Compromis »: when nobody
    holds one, nobody is identified as a spy.
    """
    top = max(compromis, default=0)
    if top <= 0:
        return []
    return [i for i, c in enumerate(compromis) if c == top]


def outcome(state: MHState) -> Outcome | None:
    """Scores and winners once the game is over."""
    if state.phase != OVER or state.end is None:
        return None
    n = state.players
    if state.end.reason == "visionary" and state.end.seat is not None:
        w = state.end.seat
        return Outcome(tuple(1.0 if i == w else 0.0 for i in range(n)), (w,),
                       {"reason": "visionary", "value": state.end.value})
    pts = [points(s.hand, s.objective, s.incognito) for s in state.seats]
    out = eliminated([s.compromis for s in state.seats])
    alive = [i for i in range(n) if i not in out]
    # Every seat eliminated (all tied for most Compromis): no winner, winners is empty.
    best = max((pts[i] for i in alive), default=None)
    winners = tuple(i for i in alive if pts[i] == best)
    return Outcome(tuple(float(p) for p in pts), winners,
                   {"reason": state.end.reason, "eliminated": out, "points": pts,
                    "no_winner": not winners})
