"""The outcome of a ZOP match: rounds won per seat, the winner of the best of three."""

from __future__ import annotations

from games.core import Outcome
from games.zop.state import OVER, ZopState


def outcome(state: ZopState) -> Outcome | None:
    """Rounds won per seat and the match winner, once the match is decided (None before)."""
    if state.phase != OVER:
        return None
    won = [0.0, 0.0]
    for r in state.results:
        if r.winner is not None:
            won[r.winner] += 1
    champion = state.results[-1].winner
    assert champion is not None
    rounds = [{"label": r.label, "points": list(r.points), "winner": r.winner, "played": list(r.played)}
              for r in state.results]
    return Outcome((won[0], won[1]), (champion,), {"rounds": rounds})
