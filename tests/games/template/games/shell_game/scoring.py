"""The outcome: a point to the guesser who finds the pea, else to the hider."""

from __future__ import annotations

from games.shell_game.state import OVER, ShellState

from games.core import Outcome


def points(state: ShellState) -> tuple[int, int]:
    """Each seat's points so far."""
    won = [0, 0]
    for r in state.played:
        won[1 - r.hider if r.found else r.hider] += 1
    return won[0], won[1]


def outcome(state: ShellState) -> Outcome | None:
    """Points per seat and the seats with the most, once every round is played (None before)."""
    if state.phase != OVER:
        return None
    won = points(state)
    best = max(won)
    return Outcome((float(won[0]), float(won[1])), tuple(s for s in (0, 1) if won[s] == best),
                   {"rounds": len(state.played)})
