"""UCT with progressive widening over the fast model of Drôles de Zèbres.

Plain UCT with 1,000-2,000 iterations and 20-30 placements per turn spreads its playouts thin:
below the root most moves are tried once, in a random order, so the reply that hurts most is
often never seen. Here a node's placements are ordered once by their immediate gain in their
territory (`ai_model.placement_gains`, ties in random order) and a node of n playouts chooses
among its best ceil(WIDEN * sqrt(n)) only (Coulom 2007; Chaslot et al. 2008): the strong replies
are tried first, the rest as the node's playouts grow (the root reaches every move after about
400). Guardian steps and crocodile swaps (one to three moves) are never narrowed. Playouts stay
uniformly random: greedy playouts were tried and play worse (the search then trusts a biased
opponent). Every random choice comes from the `random.Random` given, so a search is
reproducible for a seed and a count of iterations.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Final

from games.ai.budget import Deadline
from games.ai.search import MoveStats
from games.droles_de_zebres import ai_model
from games.droles_de_zebres.ai_model import Model, ModelAction

WIDEN: Final = 1.5  # progressive widening: a node of n playouts considers its best ceil(WIDEN * sqrt(n)) placements


class Node:
    """A position of the tree: its moves best-first by immediate gain, its children by move."""

    __slots__ = ("seat", "children", "visits", "total", "order")

    def __init__(self, seat: int):
        self.seat = seat  # the seat that chose the move leading here (-1 at the root)
        self.children: dict[ModelAction, Node] = {}
        self.visits = 0
        self.total = 0.0  # rewards of `seat`
        self.order: list[ModelAction] | None = None  # set when the search first chooses here


def _ordered(model: Model, rng: random.Random) -> list[ModelAction]:
    """The moves of the seat to act, placements by immediate gain (ties in random order)."""
    if model.phase != ai_model.P_PLACE:
        return model.actions()
    gains = ai_model.placement_gains(model)
    keyed = [(-g, rng.random(), a) for g, a in gains]
    keyed.sort()
    return [a for _, _, a in keyed]


def uct_widening(root_model: Model, reward: Callable[[Model], float], deadline: Deadline, rng: random.Random,
                 exploration: float, widen: float = WIDEN) -> list[MoveStats[ModelAction]]:
    """Root moves after the search, most visited first (ties: better mean); `reward(model)` is
    seat 0's reward in [0, 1] at the end of a game (seat 1 gets the rest)."""
    root = Node(-1)
    log, sqrt = math.log, math.sqrt
    while not deadline.over():
        model = root_model.copy()
        node = root
        path = [root]
        while model.phase != ai_model.P_OVER:
            order = node.order
            if order is None:
                order = node.order = _ordered(model, rng)
            width = len(order)
            if model.phase == ai_model.P_PLACE:
                width = min(width, math.ceil(widen * sqrt(node.visits + 1)))
            children = node.children
            seat = model.turn
            best = None
            best_value = -1.0
            log_n = log(node.visits + 1)
            for a in order[:width]:
                child = children.get(a)
                if child is None:  # untried: the best-ordered one first
                    best = a
                    break
                value = child.total / child.visits + exploration * sqrt(log_n / child.visits)
                if value > best_value:
                    best, best_value = a, value
            assert best is not None
            model.play(seat, best)
            child = children.get(best)
            if child is None:
                child = children[best] = Node(seat)
                path.append(child)
                break
            node = child
            path.append(node)
        ai_model.random_playout(model, rng)
        r0 = reward(model)
        rewards = (r0, 1.0 - r0)
        for n in path:
            n.visits += 1
            if n.seat >= 0:
                n.total += rewards[n.seat]
        deadline.spend()
    out = [MoveStats(a, c.visits, c.total / c.visits if c.visits else 0.0) for a, c in root.children.items()]
    out.sort(key=lambda m: (-m.visits, -m.mean))
    return out
