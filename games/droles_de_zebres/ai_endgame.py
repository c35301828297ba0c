"""Exact end of a Drôles de Zèbres game for the computer player: alpha-beta over `ai_model`.

When few animals are left to lay, every continuation can be read: the strong player then plays
the move that is best against any reply instead of trusting random playouts, which misjudge the
last placements (a majority flipped by one animal, the inauguration taken or left).

A game's value is seen from seat 0 and ordered as the players want it: a win before a draw before
a loss, then the margin (`outcome_value`). Nothing is random here: the answer depends on the
position and the node limit only.
"""

from __future__ import annotations

from typing import Final

from games.ai.budget import Deadline
from games.droles_de_zebres.ai_model import P_MOVE, P_OVER, P_PLACE, Model, ModelAction

WIN: Final = 1000  # a win outweighs any margin (a margin is at most a few hundred points)
EXACT, LOWER, UPPER = 0, 1, 2  # what a remembered value is: exact, or a bound from a cut


class NodeLimit(Exception):
    """The search would read more positions than allowed: the caller falls back."""


def outcome_value(model: Model) -> int:
    """The ended game's value for seat 0: win before margin (WIN times the winner's sign plus margin)."""
    a, b = model.totals()
    margin = a - b
    return margin + (WIN if margin > 0 else -WIN if margin < 0 else 0)


def margin_of(value: int) -> int:
    """The margin inside a value (`outcome_value`), for the seat the value is seen from."""
    return value - WIN if value > 0 else value + WIN if value < 0 else 0


def _key(model: Model) -> tuple[object, ...]:
    return (bytes(model.cells), bytes(model.reserves[0]), bytes(model.reserves[1]), model.phase, model.turn,
            model.guardian, model.inauguration, model.croc, model.swapped)


class Solver:
    """Alpha-beta with a table of positions read; `limit` positions at most, and no more once the
    deadline's clock has passed (NodeLimit then)."""

    def __init__(self, limit: int, deadline: Deadline | None = None):
        self.limit = limit
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}

    def value(self, model: Model, alpha: int = -10 * WIN, beta: int = 10 * WIN) -> int:
        """The position's value for seat 0 with both seats playing their best (exact inside the window)."""
        if model.phase == P_OVER:
            return outcome_value(model)
        self.nodes += 1
        if self.nodes > self.limit or (self.deadline is not None and not self.nodes % 256
                                        and self.deadline.over()):
            raise NodeLimit
        key = _key(model)
        known = self.table.get(key)
        if known is not None:
            v, kind = known
            if kind == EXACT or (kind == LOWER and v >= beta) or (kind == UPPER and v <= alpha):
                return v
        a0, b0 = alpha, beta
        maximise = model.turn == 0
        best = -10 * WIN if maximise else 10 * WIN
        for act in _ordered(model):
            child = model.copy()
            child.play(model.turn, act)
            v = self.value(child, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        kind = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
        self.table[key] = (best, kind)
        return best


def _ordered(model: Model) -> list[ModelAction]:
    """The moves, placements of the most valuable animals first (cuts come sooner)."""
    acts = model.actions()
    if model.phase == P_PLACE:
        # zebras (kind 0) and the elephant (3) decide most territories: try them first
        acts.sort(key=lambda a: _PLACE_ORDER[a[1]] if a[0] == "p" else 0)
    elif model.phase == P_MOVE:
        acts.reverse()
    return acts


_PLACE_ORDER: Final = (0, 2, 3, 1, 4)  # by kind index: zebra, gazelle, crocodile, elephant, lion


def solve(model: Model, limit: int, deadline: Deadline | None = None) -> list[tuple[ModelAction, int]] | None:
    """Every move of the seat to act with its value for that seat, best first: the first move's
    value exact, each other's at most what it says (a bound is enough to know it is not better);
    None when the position needs more than `limit` positions read or the deadline's clock passes."""
    if model.phase == P_OVER:
        return None
    seat = model.turn
    solver = Solver(limit, deadline)
    out: list[tuple[ModelAction, int]] = []
    best = -10 * WIN
    try:
        for act in _ordered(model):
            child = model.copy()
            child.play(seat, act)
            # only a move better than the best so far needs its exact value
            if seat == 0:
                v = solver.value(child, best, 10 * WIN)
            else:
                v = -solver.value(child, -10 * WIN, -best)
            best = max(best, v)
            out.append((act, v))
    except NodeLimit:
        return None
    out.sort(key=lambda pair: -pair[1])
    return out or None
