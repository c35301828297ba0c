"""The end of a Drôles de Zèbres game proven won for the computer player: an AND/OR search over `ai_model`.

When few animals are left to lay, every continuation can be read. The strong player only needs to
know whether some move wins against any reply, not by how much: asking that question alone (a
win, or not) cuts far more than reading each move's exact margin, so the proof reaches further
from the end for the same number of positions (with 12 animals left to lay, in seeded games of
two greedy players, 16 of 40 positions answered within 14,000 positions, against none read to
the end by an alpha-beta reading of the exact margins). Nothing is random here: the answer depends on the
position and the node limit only.
"""

from __future__ import annotations

from typing import Final

from games.ai.budget import Deadline
from games.droles_de_zebres.ai_model import P_MOVE, P_OVER, P_PLACE, Model, ModelAction


class NodeLimit(Exception):
    """The search would read more positions than allowed: the caller falls back."""


def position_key(model: Model) -> tuple[object, ...]:
    """Everything that decides the rest of the game, as a table key."""
    return (bytes(model.cells), bytes(model.reserves[0]), bytes(model.reserves[1]), model.phase, model.turn,
            model.guardian, model.inauguration, model.croc, model.swapped)


def ordered_moves(model: Model) -> list[ModelAction]:
    """The moves, placements of the most valuable animals first (a win or a refutation comes sooner)."""
    acts = model.actions()
    if model.phase == P_PLACE:
        # zebras (kind 0) and the elephant (3) decide most territories: try them first
        acts.sort(key=lambda a: _PLACE_ORDER[a[1]] if a[0] == "p" else 0)
    elif model.phase == P_MOVE:
        acts.reverse()
    return acts


_PLACE_ORDER: Final = (0, 2, 3, 1, 4)  # by kind index: zebra, gazelle, crocodile, elephant, lion


class Prover:
    """Whether `seat` wins (a margin above zero) against any reply; `limit` positions at most, and
    no more once the deadline's clock has passed (NodeLimit then)."""

    def __init__(self, seat: int, limit: int, deadline: Deadline | None = None):
        self.seat = seat
        self.limit = limit
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[tuple[object, ...], bool] = {}

    def wins(self, model: Model) -> bool:
        """True if the prover's seat wins from `model` whatever the other seat plays."""
        if model.phase == P_OVER:
            a, b = model.totals()
            return (a - b if self.seat == 0 else b - a) > 0
        self.nodes += 1
        if self.nodes > self.limit or (self.deadline is not None and not self.nodes % 256
                                        and self.deadline.over()):
            raise NodeLimit
        key = position_key(model)
        known = self.table.get(key)
        if known is not None:
            return known
        # the prover needs one winning move; against it every reply must lose: stop at the first
        # move that settles the node (children made one at a time, the most valuable animals first)
        turn = model.turn
        mine = turn == self.seat
        result = not mine
        for act in ordered_moves(model):
            child = model.copy()
            child.play(turn, act)
            if self.wins(child) == mine:
                result = mine
                break
        self.table[key] = result
        return result


def winning_move(model: Model, limit: int, deadline: Deadline | None = None) -> ModelAction | None:
    """A move of the seat to act that wins against any reply; None when there is none or when
    proving it needs more than `limit` positions (or the deadline's clock passes)."""
    if model.phase == P_OVER:
        return None
    seat = model.turn
    prover = Prover(seat, limit, deadline)
    try:
        for act in ordered_moves(model):
            child = model.copy()
            child.play(seat, act)
            if prover.wins(child):
                return act
    except NodeLimit:
        return None
    return None
